/**
 * `sluice run` as a child process against real Kafka: SIGTERM mid-stream, a
 * restart, and every output exactly once for a read_committed reader.
 */
import { afterEach, expect, it } from 'vitest';
import { createKafkaCluster } from '../../src/cluster/kafkajs/index.js';
import { generateOrders } from '../../examples/orders/generator.js';
import { produceRecords } from '../../examples/orders/io.js';
import { createOrdersTopics, ordersTopics } from '../../examples/orders/topics.js';
import { describeKafka, readAll, uniqueGroup, uniqueName, waitFor } from '../helpers/index.js';
import { spawnCli, type CliProcess } from '../unit/cli/spawn-cli.js';

const running: CliProcess[] = [];
afterEach(() => {
  for (const p of running.splice(0)) if (p.child.exitCode === null) p.child.kill('SIGKILL');
});

describeKafka('sluice run on Kafka', (brokers) => {
  it('survives SIGTERM mid-stream and a restart with every output exactly once', { timeout: 240_000 }, async () => {
    const prefix = `${uniqueName('cli-run')}-`;
    const applicationId = uniqueGroup('cli-run-app');
    const topics = ordersTopics(prefix);
    const cluster = createKafkaCluster({ bootstrapServers: brokers });
    const admin = cluster.admin();
    const { records, expected } = generateOrders({ count: 3000, seed: 5, idPrefix: prefix });
    const waves = [records.slice(0, 1000), records.slice(1000, 2000), records.slice(2000)];
    try {
      await createOrdersTopics(admin, topics);
      await produceRecords(cluster, topics.input, waves[0]!);

      const env = { KAFKA_BROKERS: brokers.join(','), ORDERS_TOPIC_PREFIX: prefix, ORDERS_SEED_COUNT: '0' };
      const args = ['run', 'examples/orders/app.ts', '--application-id', applicationId, '--log-level', 'warn', '--commit-interval-ms', '50'];
      const start = (): CliProcess => {
        const p = spawnCli(args, env);
        running.push(p);
        return p;
      };
      const committedTotal = async (): Promise<number> => (await admin.committedOffsets(applicationId, topics.input)).reduce((s, o) => s + Math.max(0, o), 0);

      // Run 1: consume part of the input, then SIGTERM while the next wave is in flight.
      const first = start();
      await waitFor(async () => (await committedTotal()) > 0, { timeoutMs: 60_000, message: 'first commits of run 1' });
      await produceRecords(cluster, topics.input, waves[1]!);
      first.child.kill('SIGTERM');
      expect(await first.exit, first.stderr()).toBe(0);
      expect(first.stderr()).toBe('');
      const afterFirst = await committedTotal();
      if (process.env.SLUICE_TEST_DEBUG) console.log(`run 1 committed ${afterFirst} of 2000 produced so far`);
      expect(afterFirst).toBeGreaterThan(0);

      // Run 2: the rest, from the committed offsets.
      await produceRecords(cluster, topics.input, waves[2]!);
      const second = start();
      await waitFor(async () => (await committedTotal()) >= 3000, { timeoutMs: 90_000, message: 'run 2 consumed all 3000 orders' });
      second.child.kill('SIGTERM');
      expect(await second.exit, second.stderr()).toBe(0);

      // Exactly once: every expected order once per topic, nothing else.
      const seqsOf = async (topic: string): Promise<number[]> =>
        (await readAll(brokers, topic)).map((r) => (JSON.parse(r.value!.toString()) as { seq?: number; orderId?: string }).seq ?? -1);
      for (const region of ['eu', 'na', 'apac'] as const) {
        const seqs = await waitFor(async () => {
          const s = await seqsOf(topics.regions[region]);
          return s.length >= expected.regions[region] && s;
        }, { timeoutMs: 30_000, message: `${region} outputs` });
        expect([...seqs].sort((a, b) => a - b)).toEqual(expected.seqs.regions[region]);
      }
      const status = await readAll(brokers, topics.status);
      const ids = status.map((r) => r.key!.toString());
      expect(ids).toHaveLength(expected.status);
      expect(new Set(ids).size).toBe(ids.length);
      const dlq = await readAll(brokers, topics.deadLetter);
      expect(dlq).toHaveLength(expected.deadLettered);
      const offsets = dlq.map((r) => `${r.headers['sluice.input.partition']?.toString()}@${r.headers['sluice.input.offset']?.toString()}:${r.headers['sluice.error.class']?.toString()}`);
      expect(new Set(offsets).size).toBe(offsets.length);
    } finally {
      await admin.close();
    }
  });
});
