/**
 * Issue 28 item 10 on a real broker: a changelog deleted while the app runs
 * stops it within seconds with CHANGELOG_DELETED naming the changelog (was:
 * RUNNING for 120 s, then an error advising to create an internal topic).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kafka, logLevel } from 'kafkajs';
import { pino } from 'pino';
import { expect, it } from 'vitest';
import { KafkaStreams, Materialized, Serdes, Stores, StreamsBuilder } from '../../src/index.js';
import { describeKafka, waitFor } from '../helpers/index.js';

const S = Serdes.String();

describeKafka('a changelog deleted while the app runs (real broker)', (brokers) => {
  it('stops the app within seconds, naming the changelog and what to do; the input after the deletion is not committed', async () => {
    const id = `changelog-deleted-${Date.now()}`;
    const kafka = new Kafka({ clientId: id, brokers, logLevel: logLevel.NOTHING });
    const admin = kafka.admin();
    await admin.connect();
    const producer = kafka.producer();
    await producer.connect();
    const stateDir = mkdtempSync(join(tmpdir(), 'sluice-changelog-deleted-'));
    const b = new StreamsBuilder();
    b.stream<string, string>(`${id}-in`, { keySerde: S, valueSerde: S })
      .groupByKey()
      .count(Materialized.as<string, number>(Stores.persistentKeyValueStore('counts')))
      .toStream()
      .to(`${id}-out`, { keySerde: S, valueSerde: Serdes.Long() });
    const app = new KafkaStreams(b.build(), { applicationId: id, bootstrapServers: brokers, stateDir, commitIntervalMs: 100, logger: pino({ level: 'silent' }) });
    try {
      await admin.createTopics({ topics: [`${id}-in`, `${id}-out`].map((topic) => ({ topic, numPartitions: 1 })), waitForLeaders: true });
      await producer.send({ topic: `${id}-in`, messages: [{ key: 'a', value: 'x' }] });
      await app.start();
      const committed = async () => Number((await admin.fetchOffsets({ groupId: id, topics: [`${id}-in`] }))[0]?.partitions[0]?.offset ?? -1);
      await waitFor(async () => (await committed()) === 1, { timeoutMs: 60_000 });
      await admin.deleteTopics({ topics: [`${id}-counts-changelog`] });
      const deletedAt = Date.now();
      await producer.send({ topic: `${id}-in`, messages: [{ key: 'a', value: 'x' }] });
      await waitFor(() => app.state === 'ERROR', { timeoutMs: 60_000 });
      const took = Date.now() - deletedAt;
      console.log(`changelog deleted -> ERROR in ${took} ms`);
      expect(app.error?.message).toMatch(new RegExp(`^Changelog topic '${id}-counts-changelog' \\(task 0_0\\) was deleted while the application was running`));
      expect(took).toBeLessThan(30_000);
      expect(await committed()).toBe(1);
    } finally {
      await app.close();
      await producer.disconnect();
      await admin.deleteTopics({ topics: [`${id}-in`, `${id}-out`, `${id}-counts-changelog`] }).catch(() => undefined);
      await admin.disconnect();
      rmSync(stateDir, { recursive: true, force: true });
    }
  }, 120_000);
});
