/**
 * Port of Kafka's `JoinGracePeriodDurabilityIntegrationTest.shouldRecoverBufferAfterShutdown`
 * (KIP-923), on the embedded cluster and on real Kafka: a stream–table join
 * with a grace period of 5 ms over a versioned table (history 1000 ms) holds
 * stream records in its buffer `Grace-Buffer`; the app is closed while records
 * are held and restarted on a fresh stateDir (everything comes back from the
 * changelogs), and the held records are joined once stream time passes them,
 * each once. Inputs and expected outputs are Kafka's (`scaledTime(t)` =
 * now + 2 × commit interval × t; topics of two partitions, records produced
 * to partition 0 as a trap for a buffer forgetting the record's partition).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { Joined, Materialized, Serdes, Stores, StreamsBuilder } from '../../src/index.js';
import { KafkaStreams } from '../../src/runtime/kafka-streams.js';
import { stateConfig } from '../integration/fixtures/state-api.js';
import { uniqueGroup, uniqueTopic, waitFor } from '../helpers/index.js';
import type { BackendContext } from './backends.js';
import { describeOnEachBackend } from './support/handler-suite.js';

const S = Serdes.String();
const COMMIT_INTERVAL = 100;

await describeOnEachBackend('stream-table join with a grace period: the buffer survives a restart (JoinGracePeriodDurabilityIntegrationTest)', (backend, fx) => {
  const apps: KafkaStreams[] = [];
  const dirs: string[] = [];
  const ctx = (): BackendContext => fx.ctx;
  const eventually = <T>(f: () => T | Promise<T>, message: string) => waitFor(f, { timeoutMs: ctx().patienceMs, intervalMs: 100, message });
  const timeout = backend.name === 'kafka' ? 180_000 : 60_000;
  const NOW = Math.floor(Date.now() / 1000) * 1000;
  const scaledTime = (unscaledTime: number): number => NOW + COMMIT_INTERVAL * 2 * unscaledTime;

  async function produceSynchronouslyToPartitionZero(topic: string, records: Array<[string, string, number]>): Promise<void> {
    const producer = ctx().cluster.producer({});
    await producer.connect();
    try {
      await producer.produce({ topic, partition: 0, records: records.map(([key, value, timestamp]) => ({ key: Buffer.from(key), value: Buffer.from(value), headers: {}, timestamp })) });
    } finally {
      await producer.close();
    }
  }

  async function getStartedStreams(applicationId: string, streamInput: string, tableInput: string, output: string, events: string[]): Promise<KafkaStreams> {
    const builder = new StreamsBuilder();
    const stream = builder.stream(streamInput, { keySerde: S, valueSerde: S });
    const table = builder.table(tableInput, { keySerde: S, valueSerde: S }, Materialized.as<string, string>(Stores.persistentVersionedKeyValueStore('grace', 1000)));
    const joinedStream = stream.join(table, (v1, v2) => `${v1}+${v2}`, Joined.with(S, S, S, 'Grace', 5));
    joinedStream.foreach((key, value) => void events.push(`${key}=${value}`));
    joinedStream.to(output, { keySerde: S, valueSerde: S });
    const dir = mkdtempSync(join(tmpdir(), 'sluice-join-grace-'));
    dirs.push(dir);
    const app = new KafkaStreams(builder.build(), {
      cluster: ctx().cluster,
      ...ctx().consumerTiming,
      applicationId,
      commitIntervalMs: COMMIT_INTERVAL,
      ...stateConfig({ stateDir: dir }),
    });
    apps.push(app);
    await app.start();
    return app;
  }

  const outputs = async (topic: string) =>
    (await ctx().read(topic)).sort((a, b) => a.timestamp - b.timestamp).map((r) => `${r.key?.toString()}=${r.value?.toString()}@${(r.timestamp - NOW) / (2 * COMMIT_INTERVAL)}`);
  const committedEqualsEnd = async (groupId: string, topic: string) => {
    const [committed, end] = [await ctx().admin.committedOffsets(groupId, topic), await ctx().admin.endOffsets(topic)];
    // a partition nothing was produced to may have no committed offset
    return end.every((e, i) => e === 0 || committed[i] === e);
  };

  it('shouldRecoverBufferAfterShutdown', { timeout }, async () => {
    try {
      const [streamInput, tableInput, output] = [uniqueTopic(`grace-stream-${backend.name}`), uniqueTopic(`grace-table-${backend.name}`), uniqueTopic(`grace-out-${backend.name}`)];
      // create multiple partitions as a trap, in case the buffer doesn't properly set the
      // partition on the records, but instead relies on the default key partitioner
      for (const topic of [streamInput, tableInput, output]) await ctx().admin.createTopic(topic, { partitions: 2 });
      const applicationId = uniqueGroup(`grace-${backend.name}`);
      const events: string[] = [];
      const first = await getStartedStreams(applicationId, streamInput, tableInput, output, events);
      await produceSynchronouslyToPartitionZero(tableInput, [
        ['k1', 'v1', scaledTime(0)],
        ['k2', 'v2', scaledTime(0)],
        ['k3', 'v3', scaledTime(0)],
        ['k4', 'v4', scaledTime(0)],
        ['k5', 'v5', scaledTime(0)],
        ['k6', 'v6', scaledTime(0)],
      ]);
      await eventually(() => committedEqualsEnd(applicationId, tableInput), 'first run: the table read');
      await produceSynchronouslyToPartitionZero(streamInput, [
        ['k1', 'v1', scaledTime(1)],
        ['k2', 'v2', scaledTime(2)],
        ['k3', 'v3', scaledTime(7)],
      ]);
      await eventually(async () => (await outputs(output)).length >= 2, 'first run: k1 and k2 joined');
      expect(await outputs(output)).toEqual(['k1=v1+v1@1', 'k2=v2+v2@2']);
      expect(events).toHaveLength(2);

      await produceSynchronouslyToPartitionZero(streamInput, [
        ['k4', 'v4', scaledTime(4)],
        ['k5', 'v5', scaledTime(5)],
      ]);
      await eventually(() => committedEqualsEnd(applicationId, streamInput), 'first run: the stream read');
      // k3 waits in the buffer (stream time 7 < 7 + grace); its entry is in the buffer's changelog
      const logged = await ctx().read(`${applicationId}-Grace-Buffer-changelog`);
      expect(logged.some((r) => r.value !== null && r.key?.includes(Buffer.from('k3')) === true)).toBe(true);

      // bounce to ensure that the history, including retractions,
      // get restored properly. (i.e., we shouldn't see those first events again)
      await first.close();
      await getStartedStreams(applicationId, streamInput, tableInput, output, events);

      // flush those recovered buffered events out.
      await produceSynchronouslyToPartitionZero(streamInput, [['k6', 'v6', scaledTime(20)]]);
      await eventually(async () => (await outputs(output)).length >= 5, 'second run: the buffered k3 joined');
      await eventually(() => committedEqualsEnd(applicationId, streamInput), 'second run: input committed');
      expect(await outputs(output)).toEqual(['k1=v1+v1@1', 'k2=v2+v2@2', 'k4=v4+v4@4', 'k5=v5+v5@5', 'k3=v3+v3@7']);
      // There should only be 5 output events.
      expect(events).toEqual(['k1=v1+v1', 'k2=v2+v2', 'k4=v4+v4', 'k5=v5+v5', 'k3=v3+v3']);
    } finally {
      await Promise.all(apps.splice(0).map((a) => a.close()));
      for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
    }
  });
});
