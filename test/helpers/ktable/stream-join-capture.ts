/**
 * Test helpers for the ports of Kafka's `KStreamKStream*JoinTest`s: a
 * recording processor standing in for `MockApiProcessorSupplier` /
 * `MockApiProcessor.checkAndClearProcessResult(KeyValueTimestamp...)`, the
 * `MockValueJoiner.TOSTRING_JOINER`, and a driver factory that remembers the
 * topology (for Kafka's `driver.getAllStateStores().size()`).
 */
import { expect } from 'vitest';
import type { Processor, ProcessorSupplier, Record, StreamsBuilder, Topology } from '../../../src/index.js';
import { Topology as TopologyClass } from '../../../src/index.js';
import { TopologyTestDriver, type TopologyTestDriverConfig } from '../../../src/testing.js';

/** Kafka's `KeyValueTimestamp`. */
export interface KeyValueTimestamp<K, V> {
  key: K;
  value: V;
  timestamp: number;
}

/** `new KeyValueTimestamp<>(key, value, timestamp)`. */
export function kvt<K, V>(key: K, value: V, timestamp: number): KeyValueTimestamp<K, V> {
  return { key, value, timestamp };
}

/** Kafka's `MockValueJoiner.TOSTRING_JOINER`: `value1 + "+" + value2` (a null prints `null`). */
export const TOSTRING_JOINER = (value1: unknown, value2: unknown): string => `${String(value1)}+${String(value2)}`;

/** What every processor instance of a {@link MockApiProcessorSupplier} received, in order. */
export class MockApiProcessor<K, V> {
  readonly processed: Array<KeyValueTimestamp<K, V>> = [];
  readonly headers: Array<Record<K, V>['headers']> = [];

  /** Kafka's `MockApiProcessor.init` (a no-op here: the recorder needs no context). */
  init(_context: unknown): void {}

  /** Asserts the records received since the last call, in order, and forgets them. */
  checkAndClearProcessResult(...expected: Array<KeyValueTimestamp<K, V>>): void {
    expect(this.processed).toEqual(expected);
    this.processed.length = 0;
    this.headers.length = 0;
  }
}

/** A processor supplier recording what reaches it (Kafka's `MockApiProcessorSupplier`). */
export class MockApiProcessorSupplier<K = unknown, V = unknown> implements Extract<ProcessorSupplier<K, V>, { get(): unknown }> {
  private readonly captured = new MockApiProcessor<K, V>();

  get(): Processor<K, V> {
    return {
      process: (record: Record<K, V>) => {
        this.captured.processed.push(kvt(record.key, record.value, record.timestamp));
        this.captured.headers.push(record.headers);
      },
    };
  }

  /** The recorder (all instances share one: the driver runs one task per sub-topology). */
  theCapturedProcessor(): MockApiProcessor<K, V> {
    return this.captured;
  }
}

/** Distinct state stores of a topology (Kafka's `driver.getAllStateStores().size()`). */
export function stateStoreCount(topology: Topology): number {
  const stores = new Set<string>();
  for (const sub of topology.describe().subtopologies) for (const node of sub.nodes) if (node.type === 'processor') for (const s of node.stores) stores.add(s);
  return stores.size;
}

/** A driver over `builder.build()`, with the topology kept for {@link stateStoreCount}. */
export function driverFor(builder: StreamsBuilder, config: TopologyTestDriverConfig = {}): { driver: TopologyTestDriver; topology: Topology } {
  const topology = builder.build();
  return { driver: new TopologyTestDriver(topology, { initialWallClockTimeMs: 1_000_000, ...config }), topology };
}

/** Groups passed to `Topology.copartition`, recorded per topology (the graph keeps them private). */
const recordedGroups = new WeakMap<Topology, string[][]>();
const originalCopartition = TopologyClass.prototype.copartition;
TopologyClass.prototype.copartition = function copartition(this: Topology, ...nodeNames: string[]) {
  const groups = recordedGroups.get(this) ?? [];
  groups.push(nodeNames);
  recordedGroups.set(this, groups);
  return originalCopartition.apply(this, nodeNames);
};

/**
 * Kafka's `InternalTopologyBuilder.copartitionGroups()`: for each recorded
 * group, the source topics feeding its nodes.
 */
export function copartitionGroups(topology: Topology): Array<Set<string>> {
  const nodes = new Map<string, { predecessors: readonly string[]; topics: readonly string[] }>();
  for (const sub of topology.describe().subtopologies) {
    for (const node of sub.nodes) nodes.set(node.name, { predecessors: node.predecessors, topics: node.type === 'source' ? node.topics : [] });
  }
  const topicsOf = (name: string, into: Set<string>): void => {
    const node = nodes.get(name);
    if (node === undefined) return;
    for (const t of node.topics) into.add(t);
    for (const p of node.predecessors) topicsOf(p, into);
  };
  return (recordedGroups.get(topology) ?? []).map((group) => {
    const topics = new Set<string>();
    for (const name of group) topicsOf(name, topics);
    return topics;
  });
}
