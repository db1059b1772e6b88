/**
 * Issue 31 item 1: `dslStoreSuppliers` decides the engine of every store the
 * DSL creates. A topology with a stream-stream (outer) join, a stream-table
 * join, a windowed count with suppression, a session-window aggregate and a
 * foreign-key join runs in the TopologyTestDriver:
 * - with `BuiltInDslStoreSuppliers.InMemoryDslStoreSuppliers`, no lmdb
 *   environment is opened (lmdb's `open` is counted) and no file is written
 *   under the driver's state directory (its tmpdir is the test's);
 * - with the default, every store but the suppression buffer (in memory in
 *   Kafka too) is lmdb: one environment per store, each store `persistent`.
 * The windowed counts include one emitting on window close, whose helper store
 * (`<name>-emit-close-time`) follows the same choice. A helper store of a
 * store the user supplied (the outer join's shared store, the emit-close-time
 * store) takes the engine of that supplier, whatever the config (Kafka's
 * `OuterStreamJoinStoreFactory`).
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  BufferConfig,
  BuiltInDslStoreSuppliers,
  EmitStrategy,
  JoinWindows,
  Materialized,
  Serdes,
  SessionWindows,
  Stores,
  StreamJoined,
  StreamsBuilder,
  Suppressed,
  TimeWindows,
} from '../../../../src/index.js';
import type { DslStoreSuppliers, StateStore, Topology } from '../../../../src/index.js';
import { TopologyTestDriver } from '../../../../src/testing.js';

const opened = vi.hoisted(() => ({ dirs: [] as string[] }));
vi.mock('lmdb', async (importOriginal) => {
  const lmdb = await importOriginal<typeof import('lmdb')>();
  return {
    ...lmdb,
    open: (...args: Parameters<typeof lmdb.open>) => {
      const [options] = args;
      opened.dirs.push(typeof options === 'string' ? options : String(options?.path));
      return lmdb.open(...args);
    },
  };
});

const S = Serdes.String();

function topology(): Topology {
  const builder = new StreamsBuilder();
  const left = builder.stream('left', { keySerde: S, valueSerde: S });
  const right = builder.stream('right', { keySerde: S, valueSerde: S });
  // stream-stream outer join: two window stores and the shared outer store
  left
    .outerJoin(right, (a, b) => `${a}+${b}`, JoinWindows.ofTimeDifferenceAndGrace(100, 10), StreamJoined.with(S, S, S).withStoreName('ss'))
    .to('out-ss', { keySerde: S, valueSerde: S });
  // stream-table join over a KTable source store
  const table = builder.table('table', { keySerde: S, valueSerde: S }, Materialized.as<string, string>('table-store'));
  left.join(table, (a, b) => `${a}/${b}`).to('out-st', { keySerde: S, valueSerde: S });
  // windowed count with suppression
  left
    .groupByKey()
    .windowedBy(TimeWindows.ofSizeAndGrace(10, 0))
    .count(Materialized.as('windowed-counts'))
    .suppress(Suppressed.untilWindowCloses(BufferConfig.unbounded()))
    .toStream()
    .map((k, v) => ({ key: k.key, value: String(v) }))
    .to('out-w', { keySerde: S, valueSerde: S });
  // windowed count emitting on window close (its emit-close-time helper store)
  left
    .groupByKey()
    .windowedBy(TimeWindows.ofSizeAndGrace(10, 0))
    .emitStrategy(EmitStrategy.onWindowClose())
    .count(Materialized.as('final-counts'))
    .toStream()
    .map((k, v) => ({ key: k.key, value: String(v) }))
    .to('out-w', { keySerde: S, valueSerde: S });
  // session-window aggregate
  right
    .groupByKey()
    .windowedBy(SessionWindows.ofInactivityGapWithNoGrace(10))
    .count(Materialized.as('session-counts'))
    .toStream()
    .map((k, v) => ({ key: k.key, value: String(v) }))
    .to('out-s', { keySerde: S, valueSerde: S });
  // foreign-key join: value of 'orders' is the key of 'customers'
  const orders = builder.table('orders', { keySerde: S, valueSerde: S }, Materialized.as<string, string>('orders-store'));
  const customers = builder.table('customers', { keySerde: S, valueSerde: S }, Materialized.as<string, string>('customers-store'));
  orders
    .join(customers, (order: string) => order, (o: string, c: string) => `${o}:${c}`)
    .toStream()
    .to('out-fk', { keySerde: S, valueSerde: S });
  return builder.build();
}

/** Every store name of `t` (from its description), sorted. */
function storeNames(t: Topology): string[] {
  const names = t.describe().subtopologies.flatMap((sub) => sub.nodes.flatMap((node) => (node.type === 'processor' ? node.stores : [])));
  return [...new Set(names)].sort();
}

/** The `persistent` flag of store `name` (every sluice store has one; undefined when the store is missing). */
function persistentOf(driver: TopologyTestDriver, name: string): boolean | undefined {
  return driver.getStateStore<StateStore & { readonly persistent?: boolean }>(name)?.persistent;
}

function files(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));
}

let tmp: string;
let savedTmp: string | undefined;
beforeEach(() => {
  opened.dirs.length = 0;
  tmp = mkdtempSync(join(tmpdir(), 'sluice-dsl-suppliers-'));
  savedTmp = process.env['TMPDIR'];
  process.env['TMPDIR'] = tmp;
});
afterEach(() => {
  if (savedTmp === undefined) delete process.env['TMPDIR'];
  else process.env['TMPDIR'] = savedTmp;
  rmSync(tmp, { recursive: true, force: true });
});

/** Runs `t` with `dslStoreSuppliers` on a few records; returns each store's `persistent` and the files written. */
function run(t: Topology, dslStoreSuppliers?: DslStoreSuppliers | (new () => DslStoreSuppliers)): { persistent: Record<string, boolean>; files: string[]; outputs: number } {
  const driver = new TopologyTestDriver(t, { applicationId: 'dsl-suppliers', ...(dslStoreSuppliers === undefined ? {} : { dslStoreSuppliers }) });
  try {
    const input = (topic: string) => driver.createInputTopic(topic, S, S);
    input('customers').pipeInput('c1', 'Ann', 0);
    input('orders').pipeInput('o1', 'c1', 1);
    input('table').pipeInput('k', 't', 2);
    input('left').pipeInput('k', 'l1', 3);
    input('right').pipeInput('k', 'r1', 4);
    input('left').pipeInput('k', 'l2', 30);
    input('right').pipeInput('k', 'r2', 300);
    const persistent = Object.fromEntries(storeNames(t).map((name) => [name, persistentOf(driver, name) ?? 'missing'] as const));
    const outputs = ['out-ss', 'out-st', 'out-w', 'out-s', 'out-fk'].map((topic) => driver.createOutputTopic(topic, S, S).readRecordsToList().length);
    expect(outputs.every((n) => n > 0)).toBe(true);
    return { persistent: persistent as Record<string, boolean>, files: files(tmp), outputs: outputs.reduce((a, b) => a + b, 0) };
  } finally {
    driver.close();
  }
}

describe('dslStoreSuppliers: the engine of every DSL store', () => {
  it('InMemoryDslStoreSuppliers: no lmdb environment is opened and no file is written, with the same outputs', () => {
    const t = topology();
    const names = storeNames(t);
    // The five operations created their stores (the joins' window and outer stores, FK subscription, buffer, ...).
    expect(names).toEqual(
      expect.arrayContaining(['table-store', 'windowed-counts', 'final-counts', 'final-counts-emit-close-time', 'session-counts', 'orders-store', 'customers-store']),
    );
    expect(names.filter((n) => n.startsWith('ss-'))).toHaveLength(3);
    expect(names.some((n) => n.includes('SUBSCRIPTION-STATE-STORE'))).toBe(true);
    const inMemory = run(t, BuiltInDslStoreSuppliers.InMemoryDslStoreSuppliers);
    expect(opened.dirs).toEqual([]);
    expect(inMemory.files).toEqual([]);
    expect(Object.entries(inMemory.persistent).filter(([, p]) => p !== false)).toEqual([]);
    // An instance works as the class does; the outputs are those of the lmdb default.
    const instance = run(topology(), new BuiltInDslStoreSuppliers.InMemoryDslStoreSuppliers());
    expect(opened.dirs).toEqual([]);
    const lmdb = run(topology());
    expect(instance.outputs).toBe(inMemory.outputs);
    expect(lmdb.outputs).toBe(inMemory.outputs);
  });

  it('the default (LmdbDslStoreSuppliers): every store but the suppression buffer is lmdb', () => {
    const t = topology();
    const result = run(t);
    const buffers = Object.keys(result.persistent).filter((n) => n.includes('SUPPRESS'));
    expect(buffers).toHaveLength(1);
    const others = Object.entries(result.persistent).filter(([n]) => !buffers.includes(n));
    expect(others.filter(([, p]) => p !== true)).toEqual([]);
    // One lmdb environment per persistent store, under the driver's state directory.
    expect(opened.dirs).toHaveLength(others.length);
    expect(opened.dirs.every((d) => d.startsWith(tmp))).toBe(true);
    expect(result.files.length).toBeGreaterThan(0);
  });

  it('Materialized.withStoreType wins over the config, both ways', () => {
    const builder = new StreamsBuilder();
    const s = builder.stream('left', { keySerde: S, valueSerde: S });
    s.groupByKey().count(Materialized.as<string, number>('mem').withStoreType('in_memory'));
    s.groupByKey().count(Materialized.as<string, number>('disk').withStoreType('rocks_db'));
    s.groupByKey().count(Materialized.as<string, number>('lmdb').withStoreType('lmdb'));
    const t = builder.build();
    for (const config of [undefined, BuiltInDslStoreSuppliers.InMemoryDslStoreSuppliers]) {
      const driver = new TopologyTestDriver(t, config === undefined ? {} : { dslStoreSuppliers: config });
      try {
        expect(['mem', 'disk', 'lmdb'].map((name) => persistentOf(driver, name))).toEqual([false, true, true]);
      } finally {
        driver.close();
      }
    }
  });

  it("a helper store of a user-supplied store takes that supplier's engine, whatever the config", () => {
    const helperTopology = (inMemory: boolean): Topology => {
      const windowStore = (name: string, retention: number, size: number, duplicates: boolean) =>
        inMemory ? Stores.inMemoryWindowStore(name, retention, size, duplicates) : Stores.persistentWindowStore(name, retention, size, duplicates);
      const builder = new StreamsBuilder();
      const left = builder.stream('left', { keySerde: S, valueSerde: S });
      const right = builder.stream('right', { keySerde: S, valueSerde: S });
      left
        .outerJoin(
          right,
          (a, b) => `${a}+${b}`,
          JoinWindows.ofTimeDifferenceAndGrace(100, 10),
          StreamJoined.with(S, S, S).withThisStoreSupplier(windowStore('this-side', 210, 200, true)).withOtherStoreSupplier(windowStore('other-side', 210, 200, true)),
        )
        .to('out-ss', { keySerde: S, valueSerde: S });
      left
        .groupByKey()
        .windowedBy(TimeWindows.ofSizeAndGrace(10, 0))
        .emitStrategy(EmitStrategy.onWindowClose())
        .count(Materialized.as(windowStore('given-counts', 10, 10, false)))
        .toStream()
        .map((k, v) => ({ key: k.key, value: String(v) }))
        .to('out-w', { keySerde: S, valueSerde: S });
      return builder.build();
    };
    for (const inMemory of [true, false]) {
      for (const config of [undefined, BuiltInDslStoreSuppliers.InMemoryDslStoreSuppliers, BuiltInDslStoreSuppliers.LmdbDslStoreSuppliers]) {
        const t = helperTopology(inMemory);
        const driver = new TopologyTestDriver(t, config === undefined ? {} : { dslStoreSuppliers: config });
        try {
          const names = storeNames(t);
          const helpers = ['this-side-outer-shared-join-store', 'given-counts-emit-close-time'];
          expect(names).toEqual(expect.arrayContaining([...helpers, 'this-side', 'other-side', 'given-counts']));
          expect(names.map((name) => persistentOf(driver, name))).toEqual(names.map(() => !inMemory));
        } finally {
          driver.close();
        }
      }
    }
  });

  it('a wrong config value is a ConfigError naming the key; a wrong store type names the types', () => {
    expect(() => new TopologyTestDriver(topology(), { dslStoreSuppliers: 'in_memory' as never })).toThrow(/Config 'dslStoreSuppliers' must be a DslStoreSuppliers class or instance/);
    expect(() => Materialized.as('x').withStoreType('memory' as never)).toThrow(/unknown store type "memory"; use 'in_memory', 'rocks_db' or 'lmdb'/);
  });
});
