/**
 * Kafka's `KTableKTableForeignKeyJoinIntegrationTest` cases (ported on the
 * TopologyTestDriver in `test/unit/topology/kafka/join/foreign-key-join.test.ts`)
 * run again through a real `KafkaStreams` app, exactly_once, on the embedded
 * cluster and on real Kafka. Same inputs, same expected outputs (the cases
 * are data in `test/helpers/ktable/foreign-key-join-cases.ts`, each naming
 * its Java method).
 *
 * One app per parameter combination (join/leftJoin × materialized or not)
 * holds all six cases, each on topics and a store of its own; the cases run
 * side by side. After each input step the test waits until the app has
 * consumed and committed everything (the group's committed offsets reach the
 * end of the case's input topics, and of the app's internal topics, whose
 * last offset may be a transaction marker) and the output has settled, then
 * compares the output read since the previous step as Kafka's
 * `readKeyValuesToMap` does (last value per key, a tombstone kept as
 * `key -> null`) and, when materialized, the join's store read through
 * `app.store(...)`. Timestamps are the wall clock's (not the Java test's fixed
 * ones, which real Kafka's retention would delete); the cases assert none.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { partitionFor } from '../../src/records/partitioner.js';
import { KafkaStreams } from '../../src/runtime/kafka-streams.js';
import { QueryableStoreTypes, type ReadOnlyKeyValueStore } from '../../src/runtime/interactive-queries.js';
import { StreamsBuilder } from '../../src/topology/streams-builder.js';
import { uniqueGroup, uniqueTopic, waitFor } from '../helpers/index.js';
import { FK_CASES, type FkCase, type FkInput, type FkStep } from '../helpers/ktable/foreign-key-join-cases.js';
import { addForeignKeyJoin } from '../helpers/ktable/foreign-key-join-topology.js';
import { stateConfig } from '../integration/fixtures/state-api.js';
import type { BackendContext } from './backends.js';
import { describeOnEachBackend } from './support/handler-suite.js';

const PARTITIONS = 2;
type Topics = { left: string; right: string; output: string; rejoinOutput: string };
type Table = Map<string, string | null>;

await describeOnEachBackend('KTableKTableForeignKeyJoinIntegrationTest through KafkaStreams, exactly once', (backend, fx) => {
  const timeout = backend.name === 'kafka' ? 120_000 : 60_000;
  const ctx = (): BackendContext => fx.ctx;

  /** Writes one step's inputs, each keyed as the Java producer partitions it. */
  async function produce(topics: Topics, inputs: readonly FkInput[]): Promise<void> {
    const producer = ctx().cluster.producer({});
    await producer.connect();
    try {
      for (const [side, key, value] of inputs) {
        const keyBytes = Buffer.from(key);
        await producer.produce({
          topic: side === 'left' ? topics.left : topics.right,
          partition: partitionFor(keyBytes, PARTITIONS),
          records: [{ key: keyBytes, value: value === null ? null : Buffer.from(value), headers: {}, timestamp: Date.now() }],
        });
      }
    } finally {
      await producer.close();
    }
  }

  /**
   * True when the group has committed everything: the case's inputs up to
   * their end, the internal topics up to their end or the commit marker
   * before it. Checked stage by stage in flow order (inputs, subscriptions,
   * responses, anything else): once a stage is committed the next one's
   * end no longer moves, so the topics of one stage are read in parallel.
   */
  async function caughtUp(applicationId: string, topics: Topics): Promise<boolean> {
    const internal = (await ctx().admin.listTopics()).filter((t) => t.startsWith(`${applicationId}-`) && !t.endsWith('-changelog'));
    const stage = (name: string) => internal.filter((t) => (name === 'other' ? !/REGISTRATION|RESPONSE/.test(t) : t.includes(name)));
    const stages: Array<{ names: string[]; markerSlack: number }> = [
      { names: [topics.right, topics.left], markerSlack: 0 },
      { names: stage('REGISTRATION'), markerSlack: 1 },
      { names: stage('RESPONSE'), markerSlack: 1 },
      { names: stage('other'), markerSlack: 1 },
    ];
    for (const { names, markerSlack } of stages) {
      const done = await Promise.all(names.map(async (topic) => {
        const [committed, end] = await Promise.all([ctx().admin.committedOffsets(applicationId, topic), ctx().admin.endOffsets(topic)]);
        return end.every((e, i) => e === 0 || (committed[i] ?? -1) >= e - markerSlack);
      }));
      if (!done.every(Boolean)) return false;
    }
    return true;
  }

  for (const leftJoin of [false, true]) {
    for (const materialized of [false, true]) {
      const title = `leftJoin=${leftJoin} materialized=${materialized}`;
      it(`[${title}] ${FK_CASES.map((c) => c.name).join(', ')}`, { timeout }, async () => {
        const stateDir = mkdtempSync(join(tmpdir(), 'sluice-fk-it-'));
        let app: KafkaStreams | undefined;
        try {
          // 1. topics per case, one app holding every case's join
          const applicationId = uniqueGroup(`fk-it-${backend.name}`);
          const builder = new StreamsBuilder();
          const cases: Array<{ fkCase: FkCase; topics: Topics; storeName: string }> = [];
          for (const [index, fkCase] of FK_CASES.entries()) {
            const topics: Topics = {
              left: uniqueTopic(`fk-it-left${index}`),
              right: uniqueTopic(`fk-it-right${index}`),
              output: uniqueTopic(`fk-it-out${index}`),
              rejoinOutput: uniqueTopic('fk-it-unused'),
            };
            for (const t of [topics.left, topics.right, topics.output]) await ctx().admin.createTopic(t, { partitions: PARTITIONS });
            const storeName = `store-${index}`;
            addForeignKeyJoin(builder, { queryableStoreName: materialized ? storeName : null, leftJoin, rejoin: false, topics });
            cases.push({ fkCase, topics, storeName });
          }
          app = new KafkaStreams(builder.build(), {
            cluster: ctx().cluster,
            ...ctx().consumerTiming,
            applicationId,
            processingGuarantee: 'exactly_once_v2',
            commitIntervalMs: 100,
            ...stateConfig({ stateDir, statestoreCacheMaxBytes: 0 }),
          });
          await app.start();
          const running = app;

          // 2. every case runs its steps: produce, wait until committed and settled, compare
          const runCase = async ({ fkCase, topics, storeName }: (typeof cases)[number]) => {
            const seen = new Map<number, number>(); // partition -> last offset read
            const readSinceLastStep = async (): Promise<Table> => {
              const map: Table = new Map();
              for (const r of await ctx().read(topics.output, 'read_committed')) {
                if (r.offset <= (seen.get(r.partition) ?? -1)) continue;
                seen.set(r.partition, r.offset);
                map.set(r.key!.toString(), r.value === null ? null : r.value.toString());
              }
              return map;
            };
            const storeContents = (): Table => {
              const store = running.store<ReadOnlyKeyValueStore<string, string>>({ storeName, queryableStoreType: QueryableStoreTypes.keyValueStore<string, string>() });
              return new Map(store.all().map(({ key, value }) => [key, value]));
            };
            const steps: FkStep[] = fkCase.steps(leftJoin);
            for (const [i, step] of steps.entries()) {
              const where = `${fkCase.name} [${title}] step ${i + 1}`;
              await produce(topics, step.inputs);
              const endsBefore = async () => JSON.stringify(await ctx().admin.endOffsets(topics.output));
              // settled: caught up twice in a row with the output's end unchanged between
              await waitFor(async () => {
                if (!(await caughtUp(applicationId, topics))) return false;
                const before = await endsBefore();
                await new Promise((r) => setTimeout(r, 150));
                return (await caughtUp(applicationId, topics)) && before === (await endsBefore());
              }, { timeoutMs: ctx().patienceMs * 2, intervalMs: 100, message: `${where}: input committed and output settled` });
              expect(await readSinceLastStep(), `${where}: output`).toEqual(step.output);
              if (materialized) expect(storeContents(), `${where}: store`).toEqual(step.store);
            }
          };
          const results = await Promise.allSettled(cases.map(runCase));
          const failures = results.flatMap((r) => (r.status === 'rejected' ? [r.reason as Error] : []));
          if (failures.length > 0) throw new AggregateError(failures, failures.map((e) => e.message).join('\n---\n'));
          expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(FK_CASES.length);
        } finally {
          await app?.close();
          rmSync(stateDir, { recursive: true, force: true });
        }
      });
    }
  }
});
