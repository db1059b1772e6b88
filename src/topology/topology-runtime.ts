/**
 * The executor seam of a built topology: `toRuntime(topology, { applicationId })`
 * gives the {@link TopologyRuntime} that the KafkaStreams runtime and the
 * TopologyTestDriver both use. With an application id, internal
 * (repartition) topics `<name>` are resolved to `<applicationId>-<name>`;
 * without one they keep their unresolved names (as `describe()` prints them).
 */
import { resolveTimestampExtractor, type ResolvedExtractor, type TimestampExtractor } from '../processors/timestamp-extractors.js';
import { ConfigError, TopologyError } from '../errors.js';
import type { TopologyPlan } from '../processors/plan.js';
import type { Serde } from '../serdes/serde.js';
import { StreamTask, type StreamTaskOptions } from '../processors/stream-task.js';
import { internalTopicInfos, internalTopicPartitionCounts, resolvePlan } from './internal/internal-topics.js';
import {
  formatTaskId,
  type InternalTopicInfo,
  type RecordCollector,
  type SourcePatternInfo,
  type SubtopologyInfo,
  type TaskHandlers,
  type TaskId,
  type TaskProcessor,
  type TopologyRuntime,
  type ChangelogTopicInfo,
  type GlobalStoreInfo,
} from '../processors/task-contract.js';
import { resolveSourcePatterns, sourcePatterns } from './internal/source-patterns.js';
import { planOf, type Topology } from './topology.js';
import { DefaultSerde, isDefaultSerde, trackedDefaultSerdes } from './internal/default-serde.js';
import { contextDefaultSerdes } from '../state/store-builders.js';
import { storeKindOfBuilder, type StoreKind } from '../processors/store-kind.js';
import { changelogTopicInfos, sourceChangelogTopics } from './internal/changelogs.js';
import { isDslStoreChoice, resolveDslStoreSuppliers, type DslStoreSuppliers } from '../state/dsl-store-suppliers.js';
import { checkCopartitioned, enforceCopartitioning } from './internal/copartition.js';

/** A TopologyRuntime over a validated plan. */
export class PlanRuntime implements TopologyRuntime {
  readonly subtopologies: ReadonlyArray<SubtopologyInfo>;
  readonly internalTopics: ReadonlyArray<InternalTopicInfo>;

  /**
   * `defaultTimestampExtractor`: the extractor of sources that configure none
   * (default `FailOnInvalidTimestamp`), handed to every task created here.
   */
  constructor(
    readonly plan: TopologyPlan,
    private readonly defaultTimestampExtractor?: ResolvedExtractor,
  ) {
    if (plan.subtopologies.length === 0 && (plan.globalStores ?? []).length === 0) {
      throw new TopologyError('The topology has no source node; add one with addSource(name, topic) or builder.stream(topic)');
    }
    this.subtopologies = plan.subtopologies.map((s) => ({
      id: s.id,
      sourceTopics: [...s.sourceTopics],
      sinkTopics: [...s.sinkTopics],
    }));
    this.internalTopics = internalTopicInfos(plan);
  }

  changelogTopics(applicationId: string): ChangelogTopicInfo[] {
    return changelogTopicInfos(this.plan, applicationId);
  }

  sourceChangelogs(): ReadonlyMap<string, string> {
    return sourceChangelogTopics(this.plan);
  }

  /**
   * Steps (Kafka's `RepartitionTopics.setup`, then `CopartitionedTopicsEnforcer`):
   * 1. size each internal topic from its upstream topics (fixed counts kept);
   * 2. enforce the co-partition groups: an internal topic joined with others
   *    takes the group's count (external topics that differ: a TopologyError
   *    `TOPICS_NOT_COPARTITIONED` naming each topic and its count);
   * 3. repeat with those counts until nothing changes, so internal topics
   *    sized from a re-sized one follow it.
   */
  internalTopicPartitionCounts(external: ReadonlyMap<string, number>): Map<string, number> {
    const groups = this.plan.copartitionGroups ?? [];
    const fixed = new Map(this.internalTopics.map((i) => [i.name, i.numberOfPartitions]));
    let enforced = new Map<string, number>();
    let counts = internalTopicPartitionCounts(this.internalTopics, external);
    for (let round = 0; groups.length > 0 && round <= this.internalTopics.length; round++) {
      // 2. enforce
      const sized = counts;
      const next = enforceCopartitioning(groups, { internal: fixed, countOf: (t) => external.get(t) ?? sized.get(t) });
      if ([...next].every(([t, n]) => enforced.get(t) === n)) break;
      enforced = new Map([...enforced, ...next]);
      // 3. again, with the enforced counts fixed
      const infos = this.internalTopics.map((i) => (enforced.has(i.name) ? { ...i, numberOfPartitions: enforced.get(i.name) } : i));
      counts = internalTopicPartitionCounts(infos, external);
    }
    return counts;
  }

  sourceTopics(): string[] {
    return this.subtopologies.flatMap((s) => s.sourceTopics);
  }

  validatePartitionCounts(partitionCounts: ReadonlyMap<string, number>): void {
    checkCopartitioned(this.plan.copartitionGroups ?? [], partitionCounts);
    for (const sub of this.subtopologies) {
      const counts = sub.sourceTopics.map((topic) => {
        const count = partitionCounts.get(topic);
        if (count === undefined) {
          throw new TopologyError(`Source topic '${topic}' of sub-topology ${sub.id} does not exist; create it before starting the application`);
        }
        return { topic, count };
      });
      if (new Set(counts.map((c) => c.count)).size > 1) {
        throw new TopologyError(
          `Sub-topology ${sub.id} reads topics that are not co-partitioned: ${counts.map((c) => `${c.topic} (${c.count} partitions)`).join(', ')}; ` +
            'topics read by one sub-topology must have the same number of partitions (re-create them, or repartition one through selectKey(...).to(...))',
        );
      }
    }
  }

  sourcePatterns(): SourcePatternInfo[] {
    return sourcePatterns(this.plan);
  }

  /** The index (id) of the sub-topology holding source node `source`. */
  subtopologyOfSource(source: string): number {
    const index = this.plan.subtopologies.findIndex((s) => s.nodes.includes(source));
    if (index < 0) throw new TopologyError(`No source node '${source}' in the topology`);
    return index;
  }

  resolveSourcePatterns(topics: readonly string[]): PlanRuntime {
    return this.sourcePatterns().length === 0 ? this : new PlanRuntime(resolveSourcePatterns(this.plan, topics), this.defaultTimestampExtractor);
  }

  storesBySubtopology(): ReadonlyMap<number, readonly string[]> {
    return new Map(this.plan.subtopologies.map((s) => [s.id, [...s.stores]]));
  }

  storeKinds(): ReadonlyMap<string, StoreKind> {
    return new Map([...this.plan.stores].map(([name, def]) => [name, storeKindOfBuilder(def.builder)]));
  }

  globalStores(): GlobalStoreInfo[] {
    return (this.plan.globalStores ?? []).map((g) => ({ storeName: g.storeName, topic: g.topic, id: g.id }));
  }

  /** One task over the nodes of every global store (Kafka's single `GlobalStateUpdateTask`); undefined without global stores. */
  createGlobalTask(collector: RecordCollector, handlers: TaskHandlers, options?: StreamTaskOptions): TaskProcessor | undefined {
    const globals = this.plan.globalStores ?? [];
    const first = globals[0];
    if (first === undefined) return undefined;
    const sub = {
      id: first.id,
      nodes: globals.flatMap((g) => [g.sourceName, g.processorName]),
      sourceTopics: globals.map((g) => g.topic),
      sinkTopics: [],
      stores: globals.map((g) => g.storeName),
    };
    return new StreamTask(this.plan, sub, { subtopology: first.id, partition: 0 }, collector, handlers, this.taskOptions(options));
  }

  createTask(taskId: TaskId, collector: RecordCollector, handlers: TaskHandlers, options?: StreamTaskOptions): TaskProcessor {
    const sub = this.plan.subtopologies.find((s) => s.id === taskId.subtopology);
    if (sub === undefined) {
      throw new TopologyError(`Task ${formatTaskId(taskId)}: no sub-topology ${taskId.subtopology} (there are ${this.plan.subtopologies.length})`);
    }
    if (!Number.isInteger(taskId.partition) || taskId.partition < 0) {
      throw new TopologyError(`Task ${formatTaskId(taskId)}: partition must be a non-negative integer`);
    }
    return new StreamTask(this.plan, sub, { ...taskId }, collector, handlers, this.taskOptions(options));
  }

  /** `options` with this runtime's default extractor unless they name one. */
  private taskOptions(options: StreamTaskOptions | undefined): StreamTaskOptions | undefined {
    if (this.defaultTimestampExtractor === undefined || options?.defaultTimestampExtractor !== undefined) return options;
    return { ...options, defaultTimestampExtractor: this.defaultTimestampExtractor };
  }
}

export { DefaultSerde };

/** A store builder given `null` serdes: the runtime's defaults (Kafka's `context.keySerde()` at init), a TopologyError without one. */
function bindStoreDefaults(builder: object, defaults: { key: Serde<unknown> | undefined; value: Serde<unknown> | undefined }): void {
  for (const serde of contextDefaultSerdes(builder)) {
    const bound = defaults[serde.side];
    if (bound === undefined) {
      const key = serde.side === 'key' ? 'defaultKeySerde' : 'defaultValueSerde';
      throw new TopologyError(`Store '${serde.storeName}' was built without a ${serde.side} serde and there is no default; give one to its builder, or set '${key}' in the KafkaStreams / TopologyTestDriver config`);
    }
    serde.bind(bound);
  }
}

function checkSerde(serde: unknown, key: string): Serde<unknown> | undefined {
  if (serde === undefined) return undefined;
  const s = serde as Partial<Serde<unknown>> | null;
  if (typeof s !== 'object' || s === null || typeof s.serialize !== 'function' || typeof s.deserialize !== 'function') {
    throw new ConfigError(`Config '${key}' must be a serde with serialize(topic, data) and deserialize(topic, bytes), e.g. Serdes.String()`);
  }
  return s as Serde<unknown>;
}

/** Options of {@link toRuntime}. */
export interface ToRuntimeOptions {
  /** Resolves internal topic names to `<applicationId>-<name>`. */
  applicationId?: string;
  /** Key serde of the sources (and what inherits their serdes) that name none; default `Serdes.Buffer()`. */
  defaultKeySerde?: Serde<unknown>;
  /** Value serde of the sources (and what inherits their serdes) that name none; default `Serdes.Buffer()`. */
  defaultValueSerde?: Serde<unknown>;
  /** Timestamp extractor of the sources that configure none; default `FailOnInvalidTimestamp` (a ConfigError when it is no extractor). */
  defaultTimestampExtractor?: TimestampExtractor;
  /** The engine of the stores the DSL created without a per-store choice (a class or instance; default lmdb). */
  dslStoreSuppliers?: DslStoreSuppliers | (new () => DslStoreSuppliers);
}

/**
 * Validates `topology` and returns its executor seam:
 * 1. take its validated plan (a TopologyError when invalid or empty);
 * 2. bind every default-serde side of its sources and sinks to
 *    `defaultKeySerde` / `defaultValueSerde` (else `Serdes.Buffer()`; a sink
 *    after a type change without a default is a TopologyError naming it),
 *    then those the DSL gave its stores and processors (Kafka resolves a
 *    store's missing serde from `context.keySerde()` at init);
 * 3. bind the stores the DSL created without a per-store choice to
 *    `dslStoreSuppliers` (else lmdb): their engine is made at task creation;
 * 4. resolve internal topic names with the application id.
 */
export function toRuntime(topology: Topology, options: ToRuntimeOptions = {}): PlanRuntime {
  // 1. plan
  const plan = planOf(topology);
  // 2. default serdes
  const defaults = { key: checkSerde(options.defaultKeySerde, 'defaultKeySerde'), value: checkSerde(options.defaultValueSerde, 'defaultValueSerde') };
  for (const node of plan.nodes.values()) {
    const serdes = node.kind === 'source' ? [node.keyDeserializer, node.valueDeserializer] : node.kind === 'sink' ? [node.keySerializer, node.valueSerializer] : [];
    for (const serde of serdes) if (isDefaultSerde(serde)) serde.bind(defaults[serde.side]);
  }
  for (const store of plan.stores.values()) bindStoreDefaults(store.builder, defaults);
  for (const serde of trackedDefaultSerdes(topology)) {
    if (serde.required) serde.bind(defaults[serde.side]);
    else serde.bindOrBuffer(defaults[serde.side]);
  }
  // 3. store engines (nothing is built yet: engines are made per task)
  const suppliers = resolveDslStoreSuppliers(options.dslStoreSuppliers);
  for (const store of plan.stores.values()) {
    const supplier = (store.builder as { readonly supplier?: unknown }).supplier;
    if (isDslStoreChoice(supplier)) supplier.bind(suppliers);
  }
  // 4. internal topic names
  const extractor = options.defaultTimestampExtractor === undefined ? undefined : resolveTimestampExtractor(options.defaultTimestampExtractor, 'defaultTimestampExtractor');
  return new PlanRuntime(options.applicationId === undefined ? plan : resolvePlan(plan, options.applicationId), extractor);
}
