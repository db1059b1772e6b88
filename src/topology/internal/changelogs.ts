/**
 * The changelog topics of a plan's logged stores (Kafka Streams'
 * `InternalTopologyBuilder.stateChangelogTopics`): one per logged store,
 * `<applicationId>-<storeName>-changelog`, owned by the sub-topology whose
 * processors use the store.
 */
import type { TopologyPlan } from '../../processors/plan.js';
import type { ChangelogTopicInfo } from '../../processors/task-contract.js';
import type { ManagedStateStore } from '../../state/store-contract.js';
import { changelogTopicName } from '../../state/store-contract.js';
import { defined } from '../../internal/defined.js';

/** The stores whose changelog is their table source's topic (`reuse.ktable.source.topics`): store name → topic. */
export function sourceChangelogTopics(plan: TopologyPlan): Map<string, string> {
  const topics = new Map<string, string>();
  for (const [name, def] of plan.stores) if (def.sourceChangelogTopic !== undefined) topics.set(name, def.sourceChangelogTopic);
  return topics;
}

/** One entry per logged store; a store's logging flag and topic configs are read from an unopened instance of its builder. */
export function changelogTopicInfos(plan: TopologyPlan, applicationId: string): ChangelogTopicInfo[] {
  const infos: ChangelogTopicInfo[] = [];
  for (const sub of plan.subtopologies) {
    for (const storeName of sub.stores) {
      const def = defined(plan.stores.get(storeName), `store ${storeName}`);
      // A table source's store reusing its source topic (reuse.ktable.source.topics) has no changelog topic.
      if (def.sourceChangelogTopic !== undefined) continue;
      const builder = def.builder;
      const probe = builder.build() as Partial<ManagedStateStore>;
      const logged = probe.loggingEnabled ?? false;
      const config = { ...(probe.changelogConfig ?? { 'cleanup.policy': 'compact' }) };
      if (logged) infos.push({ storeName, topic: changelogTopicName(applicationId, storeName), subtopology: sub.id, config });
    }
  }
  return infos;
}
