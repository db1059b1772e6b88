/**
 * `sluice reset` on real Kafka (issue 29 item 10), the flow of Kafka's ResetIntegrationTest
 * (streams/src/test/java/org/apache/kafka/streams/integration/AbstractResetIntegrationTest):
 * run an app, a reset while it runs is refused, stop it, a dry run changes nothing, reset to
 * earliest (internal topics and local state deleted), run again: the input is reprocessed and
 * the outputs are those of the first run again.
 */
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { createKafkaCluster } from '../../src/cluster/kafkajs/index.js';
import { KafkaStreams, Serdes, StreamsBuilder } from '../../src/index.js';
import { describeKafka, readAll, uniqueGroup, uniqueName, waitFor } from '../helpers/index.js';
import { spawnCli, type CliProcess } from '../unit/cli/spawn-cli.js';

const S = Serdes.String();
const running: CliProcess[] = [];
afterEach(() => {
  for (const p of running.splice(0)) if (p.child.exitCode === null) p.child.kill('SIGKILL');
});

describeKafka('sluice reset on Kafka', (brokers) => {
  it('refuses while running; dry run changes nothing; after a reset the app reprocesses its input', { timeout: 180_000 }, async () => {
    const applicationId = uniqueGroup('reset-app');
    const input = uniqueName('reset-words');
    const output = uniqueName('reset-counts');
    const stateDir = mkdtempSync(join(tmpdir(), 'sluice-reset-it-'));
    const cluster = createKafkaCluster({ bootstrapServers: brokers });
    const admin = cluster.admin();
    const producer = cluster.producer({});
    const app = (): KafkaStreams => {
      const builder = new StreamsBuilder();
      builder
        .stream(input, { keySerde: S, valueSerde: S })
        .groupBy((_k, v) => v, { keySerde: S, valueSerde: S })
        .count()
        .toStream()
        .mapValues((n) => String(n))
        .to(output, { keySerde: S, valueSerde: S });
      return new KafkaStreams(builder.build(), { applicationId, bootstrapServers: brokers, stateDir, statestoreCacheMaxBytes: 0, commitIntervalMs: 50 });
    };
    const counts = async (): Promise<string[]> => (await readAll(brokers, output)).map((r) => `${r.key?.toString()}=${r.value?.toString()}`);
    const committed = async (): Promise<number> => (await admin.committedOffsets(applicationId, input))[0] ?? -1;
    const internalTopics = async (): Promise<string[]> => (await admin.listTopics()).filter((t) => t.startsWith(`${applicationId}-`)).sort();
    const reset = async (...extra: string[]): Promise<CliProcess> => {
      const p = spawnCli(['reset', '--application-id', applicationId, '--bootstrap-servers', brokers.join(','), '--input-topics', input, ...extra]);
      running.push(p);
      await p.exit;
      return p;
    };
    try {
      await admin.createTopic(input, { partitions: 1 });
      await admin.createTopic(output, { partitions: 1 });
      await producer.connect();
      await producer.produce({ topic: input, partition: 0, records: ['a', 'b', 'a', 'c'].map((v, i) => ({ key: Buffer.from(`k${i}`), value: Buffer.from(v), headers: {}, timestamp: Date.now() })) });

      // Run 1.
      const first = app();
      await first.start();
      await waitFor(async () => (await committed()) === 4 && (await counts()).length === 4, { timeoutMs: 60_000, message: 'run 1 processed the input' });
      const firstCounts = await counts();
      expect(firstCounts).toEqual(['a=1', 'b=1', 'a=2', 'c=1']);
      const internal = await internalTopics();
      expect(internal.length).toBe(2); // the repartition and the changelog topic

      // A reset while the app runs is refused, naming the group; nothing changes.
      const refused = await reset('--to-earliest');
      expect(refused.child.exitCode).toBe(1);
      expect(refused.stderr()).toMatch(new RegExp(`^sluice: StreamsError: Consumer group '${applicationId}' is still active and has following members: \\[.+\\]\\. Make sure to stop all running application instances`));
      expect(await committed()).toBe(4);
      await first.close();

      // A dry run prints the plan and changes nothing.
      const dry = await reset('--to-earliest', '--state-dir', stateDir, '--dry-run');
      expect(dry.child.exitCode, dry.stderr()).toBe(0);
      expect(dry.stdout()).toContain('----Dry run displays the actions which will be performed when running Streams Reset Tool----');
      expect(dry.stdout()).toContain(`Topic: ${input} Partition: 0 Offset: 0`);
      expect(dry.stdout()).toContain(`Deleting inferred internal topics [${internal.join(', ')}]`);
      expect(await committed()).toBe(4);
      expect(await internalTopics()).toEqual(internal);
      expect(existsSync(join(stateDir, applicationId))).toBe(true);

      // The reset.
      const done = await reset('--to-earliest', '--state-dir', stateDir);
      expect(done.child.exitCode, done.stderr()).toBe(0);
      expect(done.stdout()).toContain('Done.');
      expect(await committed()).toBe(0);
      await waitFor(async () => (await internalTopics()).length === 0, { timeoutMs: 30_000, message: 'the internal topics deleted' });
      expect(existsSync(join(stateDir, applicationId))).toBe(false);

      // Run 2 reprocesses the input from scratch: the same counts again (not a=3, a=4).
      const second = app();
      await second.start();
      await waitFor(async () => (await committed()) === 4 && (await counts()).length === 8, { timeoutMs: 60_000, message: 'run 2 reprocessed the input' });
      await second.close();
      expect((await counts()).slice(4)).toEqual(firstCounts);
    } finally {
      await producer.close().catch(() => undefined);
      await admin.close();
    }
  });
});
