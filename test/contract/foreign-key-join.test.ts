/**
 * Foreign-key join contract: `left.join(right, fk, joiner)` and `leftJoin`
 * run exactly-once through KafkaStreams on the embedded cluster and on real
 * Kafka, the left topic with 3 partitions and the right one with 2, so the
 * subscription-registration topic must be created with 2 partitions (the
 * right table's) and the response topic with 3 (the left table's). Rows are
 * added, re-pointed to another foreign key, deleted on both sides, the app
 * closed and started again (fresh state directory: the subscription store
 * and the tables restore from their changelogs), then more changes; the
 * final output table (last value per key, tombstones removing) equals the
 * join computed from the final inputs. Also Kafka's
 * `KTableKTableForeignKeyInnerJoinCustomPartitionerIntegrationTest.shouldInnerJoinMultiPartitionQueryable`
 * (three instances, both tables repartitioned by custom partitioners, the
 * join told of them through `TableJoined.with`).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { partitionFor } from '../../src/records/partitioner.js';
import { KafkaStreams } from '../../src/runtime/kafka-streams.js';
import { uniqueGroup, uniqueTopic, waitFor } from '../helpers/index.js';
import { foreignKeyJoinTopology } from '../helpers/ktable/foreign-key-join-topology.js';
import { Serdes } from '../../src/serdes/serdes.js';
import { StreamsBuilder } from '../../src/topology/streams-builder.js';
import { Materialized, Named } from '../../src/topology/options.js';
import { Repartitioned } from '../../src/topology/repartitioned.js';
import { TableJoined } from '../../src/topology/table-joined.js';
import { stateConfig } from '../integration/fixtures/state-api.js';
import type { BackendContext } from './backends.js';
import { describeOnEachBackend } from './support/handler-suite.js';

type Row = [key: string, value: string | null];

/** Java's `String.hashCode()` (the Kafka test's partitioners use it). */
function javaHashCode(s: string): number {
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (Math.imul(31, h) + s.charCodeAt(i)) | 0;
  return h;
}

/** The Kafka test's `getKeyB`: the part before the first `-`. */
const getKeyB = (value: string): string => value.substring(0, value.indexOf('-'));

/** Kafka's `Math.abs(x) % n` (Math.abs of Integer.MIN_VALUE stays negative in Java; not reached by these keys). */
const javaAbsMod = (x: number, n: number): number => Math.abs(x) % n;

/** The join of the final tables: `(leftValue,rightValue)` per left row whose foreign key has a right row (left join: `(leftValue,null)` otherwise). */
function truth(left: Map<string, string>, right: Map<string, string>, leftJoin: boolean): Map<string, string> {
  const result = new Map<string, string>();
  for (const [key, value] of left) {
    const other = right.get(value.split('|')[1] ?? '') ?? null;
    if (other !== null || leftJoin) result.set(key, `(${value},${other})`);
  }
  return result;
}

/** Applies rows to a table (null deletes). */
function apply(table: Map<string, string>, rows: readonly Row[]): void {
  for (const [key, value] of rows) {
    if (value === null) table.delete(key);
    else table.set(key, value);
  }
}

const first = {
  right: [['rhs0', 'r0'], ['rhs1', 'r1'], ['rhs2', 'r2'], ['rhs3', 'r3'], ['rhs4', 'r4']] as Row[],
  left: Array.from({ length: 20 }, (_, i): Row => [`lhs${i}`, `v${i}|rhs${i % 6}`]), // rhs5 never exists
};
const changes1 = {
  left: [['lhs0', 'v0b|rhs1'], ['lhs1', null], ['lhs2', 'v2b|rhs2'], ['lhs7', 'v7b|rhs5']] as Row[],
  right: [['rhs3', 'r3b'], ['rhs4', null]] as Row[],
};
const afterRestart = {
  right: [['rhs5', 'r5'], ['rhs4', 'r4c'], ['rhs0', null]] as Row[],
  left: [['lhs1', 'v1c|rhs4'], ['lhs3', 'v3c|rhs0'], ['lhs8', null], ['lhs20', 'v20|rhs2']] as Row[],
};

await describeOnEachBackend('foreign-key join, exactly once, with a restart', (backend, fx) => {
  const timeout = backend.name === 'kafka' ? 240_000 : 60_000;
  const ctx = (): BackendContext => fx.ctx;
  const eventually = <T>(f: () => T | Promise<T>, message: string) => waitFor(f, { timeoutMs: ctx().patienceMs * 2, intervalMs: 200, message });

  /** Writes rows keyed as the Java producer partitions them (the join relies on the default partitioning of both tables). */
  async function produce(topic: string, partitions: number, rows: readonly Row[]): Promise<void> {
    const producer = ctx().cluster.producer({});
    await producer.connect();
    try {
      for (const [key, value] of rows) {
        const keyBytes = Buffer.from(key);
        await producer.produce({
          topic,
          partition: partitionFor(keyBytes, partitions),
          records: [{ key: keyBytes, value: value === null ? null : Buffer.from(value), headers: {}, timestamp: Date.now() }],
        });
      }
    } finally {
      await producer.close();
    }
  }

  /** The committed output as a table: last value per key, a tombstone removes the key. */
  async function outputTable(output: string): Promise<Map<string, string>> {
    const table = new Map<string, string>();
    for (const r of await ctx().read(output, 'read_committed')) {
      const key = r.key!.toString();
      if (r.value === null) table.delete(key);
      else table.set(key, r.value.toString());
    }
    return table;
  }

  const sorted = (m: Map<string, string>) => [...m].sort(([a], [b]) => a.localeCompare(b));

  for (const leftJoin of [false, true]) {
    it(`${leftJoin ? 'leftJoin' : 'join'}: subscription topic sized as the right table, response topic as the left; final table = truth across a restart`, { timeout }, async () => {
      const dirs: string[] = [];
      const apps: KafkaStreams[] = [];
      try {
        const topics = { left: uniqueTopic(`fk-left-${backend.name}`), right: uniqueTopic(`fk-right-${backend.name}`), output: uniqueTopic(`fk-out-${backend.name}`), rejoinOutput: uniqueTopic('fk-unused') };
        await ctx().admin.createTopic(topics.left, { partitions: 3 });
        await ctx().admin.createTopic(topics.right, { partitions: 2 });
        await ctx().admin.createTopic(topics.output, { partitions: 3 });
        const applicationId = uniqueGroup(`fk-${backend.name}`);
        const start = async () => {
          const stateDir = mkdtempSync(join(tmpdir(), 'sluice-fk-'));
          dirs.push(stateDir);
          const app = new KafkaStreams(foreignKeyJoinTopology({ queryableStoreName: null, leftJoin, rejoin: false, topics }), {
            cluster: ctx().cluster,
            ...ctx().consumerTiming,
            applicationId,
            processingGuarantee: 'exactly_once_v2',
            commitIntervalMs: 100,
            ...stateConfig({ stateDir, statestoreCacheMaxBytes: 0 }),
          });
          apps.push(app);
          await app.start();
          return app;
        };
        const leftTable = new Map<string, string>();
        const rightTable = new Map<string, string>();
        const produceBoth = async (rows: { left: readonly Row[]; right: readonly Row[] }) => {
          await produce(topics.right, 2, rows.right);
          await produce(topics.left, 3, rows.left);
          apply(rightTable, rows.right);
          apply(leftTable, rows.left);
        };

        // 1. first run: rows, then changes (re-pointed foreign keys, deletes on both sides)
        const app = await start();
        const internal = await ctx().admin.listTopics();
        const subscription = internal.find((t) => t.startsWith(`${applicationId}-KTABLE-FK-JOIN-SUBSCRIPTION-REGISTRATION-`));
        const response = internal.find((t) => t.startsWith(`${applicationId}-KTABLE-FK-JOIN-SUBSCRIPTION-RESPONSE-`));
        expect(subscription, 'subscription topic created').toMatch(/-topic$/);
        expect(response, 'response topic created').toMatch(/-topic$/);
        expect((await ctx().admin.describeTopic(subscription!)).partitions).toBe(2);
        expect((await ctx().admin.describeTopic(response!)).partitions).toBe(3);
        await produceBoth(first);
        await eventually(async () => JSON.stringify(sorted(await outputTable(topics.output))) === JSON.stringify(sorted(truth(leftTable, rightTable, leftJoin))), 'first rows joined');
        await produceBoth(changes1);
        const expected1 = truth(leftTable, rightTable, leftJoin);
        await eventually(async () => JSON.stringify(sorted(await outputTable(topics.output))) === JSON.stringify(sorted(expected1)), 'changes joined');
        expect(sorted(await outputTable(topics.output))).toEqual(sorted(expected1));

        // 2. close; start again with a fresh state directory (restores from the changelogs), more changes
        await app.close();
        expect(app.state).toBe('NOT_RUNNING');
        const again = await start();
        expect(again.state).toBe('RUNNING');
        await produceBoth(afterRestart);
        const expected2 = truth(leftTable, rightTable, leftJoin);
        await eventually(async () => JSON.stringify(sorted(await outputTable(topics.output))) === JSON.stringify(sorted(expected2)), 'changes after the restart joined');
        // 3. the final table equals the truth (and the restart changed it: rhs0 deleted, rhs5 added)
        expect(sorted(await outputTable(topics.output))).toEqual(sorted(expected2));
        expect(expected2).not.toEqual(expected1);
      } finally {
        await Promise.all(apps.map((a) => a.close()));
        for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
      }
    });
  }

  // KTableKTableForeignKeyInnerJoinCustomPartitionerIntegrationTest.shouldInnerJoinMultiPartitionQueryable
  it('shouldInnerJoinMultiPartitionQueryable: custom partitioners through TableJoined.with, three instances', { timeout }, async () => {
    const dirs: string[] = [];
    const apps: KafkaStreams[] = [];
    try {
      const S = Serdes.String();
      const [table1Topic, table2Topic, output] = [uniqueTopic(`fk-table1-${backend.name}`), uniqueTopic(`fk-table2-${backend.name}`), uniqueTopic(`fk-output-${backend.name}`)];
      for (const t of [table1Topic, table2Topic, output]) await ctx().admin.createTopic(t, { partitions: 4 });
      const table1: Row[] = [['ID123-1', 'ID123-A1'], ['ID123-2', 'ID123-A2'], ['ID123-3', 'ID123-A3'], ['ID123-4', 'ID123-A4']];
      const table2: Row[] = [['ID123', 'BBB']];
      await produce(table1Topic, 4, table1);
      await produce(table2Topic, 4, table2);
      const applicationId = uniqueGroup(`fk-partitioner-${backend.name}`);
      const prepareTopology = () => {
        const builder = new StreamsBuilder();
        const repartitionA = Repartitioned.as<string, string>('a').withKeySerde(S).withValueSerde(S)
          .withStreamPartitioner((_topic, key: string, _value: string, numPartitions) => javaAbsMod(javaHashCode(getKeyB(key)), numPartitions))
          .withNumberOfPartitions(4);
        const repartitionB = Repartitioned.as<string, string>('b').withKeySerde(S).withValueSerde(S)
          .withStreamPartitioner((_topic, key: string, _value: string, numPartitions) => javaAbsMod(javaHashCode(key), numPartitions))
          .withNumberOfPartitions(4);
        const t1 = builder.stream<string, string>(table1Topic, { keySerde: S, valueSerde: S }).repartition(repartitionA).toTable(Named.as('table.a'));
        const t2 = builder.stream<string, string>(table2Topic, { keySerde: S, valueSerde: S }).repartition(repartitionB).toTable(Named.as('table.b'));
        const materialized = Materialized.as<string, string>('INNER-store1').withKeySerde(S).withValueSerde(S).withCachingDisabled();
        const joiner = (value1: string, value2: string): string => `value1=${value1},value2=${value2}`;
        const tableJoined = TableJoined.with<string, string>(
          (_topic, key, _value, numPartitions) => javaAbsMod(javaHashCode(getKeyB(key)), numPartitions),
          (_topic, key, _value, numPartitions) => javaAbsMod(javaHashCode(key), numPartitions),
        );
        t1.join(t2, getKeyB, joiner, tableJoined, materialized).toStream().to(output, { keySerde: S, valueSerde: S });
        return builder.build();
      };
      for (let i = 0; i < 3; i++) {
        const stateDir = mkdtempSync(join(tmpdir(), 'sluice-fk-'));
        dirs.push(stateDir);
        const app = new KafkaStreams(prepareTopology(), {
          cluster: ctx().cluster,
          ...ctx().consumerTiming,
          applicationId,
          autoOffsetReset: 'earliest',
          commitIntervalMs: 100,
          ...stateConfig({ stateDir, statestoreCacheMaxBytes: 0 }),
        });
        apps.push(app);
      }
      // One after the other: three concurrent first starts on real Kafka race on creating the changelog
      // topics (one sees a topic just created whose partition count the broker does not report yet).
      for (const app of apps) await app.start();
      const expectedOne = new Set(['ID123-1', 'ID123-2', 'ID123-3', 'ID123-4'].map((k, i) => `${k}=value1=ID123-A${i + 1},value2=BBB`));
      const result = async () => new Set((await ctx().read(output)).map((r) => `${r.key!.toString()}=${r.value!.toString()}`));
      await eventually(async () => (await result()).size >= expectedOne.size, 'four join results');
      expect(await result()).toEqual(expectedOne);
    } finally {
      await Promise.all(apps.map((a) => a.close()));
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    }
  });
});
