/**
 * The live UI's data source over a running app (`app.serveUi()`): the
 * topology structure from `describe()` (computed once), and snapshots built
 * from what the app keeps anyway — `metrics()`, the task states, the restore
 * progress, the per-node record counters of the tasks and the last handler
 * decisions. A snapshot costs one pass over the tasks and nodes; it is taken
 * about once a second, only while a page is connected.
 */
import type { TopologyRuntime } from '../processors/task-contract.js';
import type { NodeDescription, TopologyDescription } from '../topology/description.js';
import type { UiDataSource, UiSnapshot, UiTask, UiTopology, UiTopologyNode } from '../ui/types.js';
import type { DecisionLog } from './internal/decision-log.js';
import type { RestoreProgress } from './internal/restore-progress.js';
import type { KafkaStreamsMetrics } from './metrics.js';

/** What {@link createUiSource} reads; each a cheap getter on the app. */
export interface UiSourceDeps {
  applicationId: string;
  /** This instance's client id. */
  instance: string;
  /** The description, when the app was built from a `Topology` (else the graph is empty). */
  describe: () => TopologyDescription | undefined;
  /** The topology as the app runs it (resolved internal topic names, changelogs). */
  runtime: () => TopologyRuntime;
  state: () => string;
  metrics: () => KafkaStreamsMetrics;
  /** The tasks running now (none before start). */
  tasks: () => ReadonlyArray<{ id: string; state: string; partitions: ReadonlyArray<{ topic: string; partition: number }> }>;
  nodeRecordCounts: () => ReadonlyMap<string, number>;
  progress: RestoreProgress;
  decisions: DecisionLog;
}

function uiNode(n: NodeDescription): UiTopologyNode {
  const successors = [...n.successors];
  if (n.type === 'source') return { type: 'source', name: n.name, topics: [...n.topics], ...(n.topicPattern ? { topicPattern: n.topicPattern } : {}), successors };
  if (n.type === 'sink') return { type: 'sink', name: n.name, topic: n.topic, successors };
  return { type: 'processor', name: n.name, stores: [...n.stores], successors };
}

/** The topology structure of the UI, from the description and the runtime's internal topics. */
export function uiTopology(applicationId: string, description: TopologyDescription | undefined, runtime: TopologyRuntime): UiTopology {
  const prefix = `${applicationId}-`;
  const internal = new Set(runtime.internalTopics.map((t) => t.name));
  const named = new Set<string>();
  for (const sub of description?.subtopologies ?? []) {
    for (const n of sub.nodes) {
      if (n.type === 'source') n.topics.forEach((t) => named.add(t));
      if (n.type === 'sink' && n.topic !== null) named.add(n.topic);
    }
  }
  // describe() names repartition topics unresolved (`by-region-repartition`), the runtime resolved (`<app>-by-region-repartition`)
  const repartitionTopics = [...named].filter((t) => internal.has(t) || internal.has(prefix + t));
  const changelogs: Record<string, string> = {};
  for (const c of runtime.changelogTopics?.(applicationId) ?? []) changelogs[c.storeName] = c.topic;
  return {
    applicationId,
    text: description?.toString() ?? '(no description: the app was given a TopologyRuntime)',
    subtopologies: (description?.subtopologies ?? []).map((s) => ({ id: s.id, nodes: s.nodes.map(uiNode) })),
    globalStores: (description?.globalStores ?? []).map((g) => ({ id: g.id, source: uiNode(g.source), processor: uiNode(g.processor) })),
    repartitionTopics,
    changelogs,
  };
}

/** One snapshot; see the module comment. */
export function uiSnapshot(deps: UiSourceDeps, now = Date.now()): UiSnapshot {
  const m = deps.metrics();
  const running = new Map(deps.tasks().map((t) => [t.id, t]));
  const topicLag: Record<string, number> = {};
  const tasks: UiTask[] = [];
  for (const [id, t] of Object.entries(m.tasks)) {
    const live = running.get(id);
    const partitions = (live?.partitions ?? []).map(({ topic, partition }) => {
      const lag = t.lag[`${topic}-${partition}`] ?? 0;
      topicLag[topic] = (topicLag[topic] ?? 0) + lag;
      return { topic, partition, lag };
    });
    tasks.push({
      id,
      ...(live ? { state: live.state } : {}),
      owned: t.owned,
      partitions,
      recordsProcessed: t.recordsProcessed,
      commits: t.commits,
      aborts: t.aborts,
      pendingOutputs: t.pendingOutputs,
    });
  }
  tasks.sort((a, b) => compareTaskIds(a.id, b.id));
  const restore = deps.progress.metrics(now);
  return {
    at: now,
    applicationId: deps.applicationId,
    instance: deps.instance,
    state: deps.state(),
    totals: {
      recordsProcessed: m.recordsProcessed,
      recordsSkipped: m.recordsSkipped,
      recordsProduced: m.recordsProduced,
      droppedRecords: m.droppedRecords,
      deadLettered: deps.decisions.deadLettered,
      commits: m.commits,
      aborts: m.aborts,
      taskRestarts: m.taskRestarts,
      rebalances: m.rebalances,
      consumerLag: m.consumerLag,
    },
    restore: { restoredRecords: restore.restoredRecords, remainingRecords: restore.remainingRecords, totalRecords: restore.totalRecords, rate: restore.rate, active: deps.progress.active() },
    tasks,
    topicLag,
    nodes: Object.fromEntries(deps.nodeRecordCounts()),
    decisions: deps.decisions.list(),
    ...(m.asyncProcessors ? { asyncNodes: m.asyncProcessors } : {}),
  };
}

function compareTaskIds(a: string, b: string): number {
  const [sa = 0, pa = 0] = a.split('_').map(Number);
  const [sb = 0, pb = 0] = b.split('_').map(Number);
  return sa - sb || pa - pb || a.localeCompare(b);
}

/** The data source of `app.serveUi()`; the topology is described once, on first use. */
export function createUiSource(deps: UiSourceDeps): UiDataSource {
  let topology: UiTopology | undefined;
  return {
    topology: () => (topology ??= uiTopology(deps.applicationId, deps.describe(), deps.runtime())),
    snapshot: () => uiSnapshot(deps),
  };
}
