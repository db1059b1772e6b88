/**
 * `sluice run app.ts --config app.properties` as a child process against real
 * Kafka (plaintext): bootstrap.servers from `${env:...}`, application.id,
 * exactly_once_v2, the default serdes and state.dir from the file; every
 * input is processed, the consumer group is the file's application.id, and
 * the startup line prints the secret as [hidden].
 */
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { createKafkaCluster } from '../../src/cluster/kafkajs/index.js';
import { describeKafka, readAll, uniqueGroup, uniqueName, waitFor } from '../helpers/index.js';
import { spawnCli, type CliProcess } from '../unit/cli/spawn-cli.js';

const running: CliProcess[] = [];
afterEach(() => {
  for (const p of running.splice(0)) if (p.child.exitCode === null) p.child.kill('SIGKILL');
});

const SECRET = 'sr-S3CR3T-never-printed';

describeKafka('sluice run --config on Kafka', (brokers) => {
  it('runs the module with a Kafka Streams properties file', { timeout: 120_000 }, async () => {
    const prefix = `${uniqueName('cfg')}-`;
    const applicationId = uniqueGroup('cfg-app');
    const dir = mkdtempSync(join(tmpdir(), 'sluice-cli-config-'));
    const stateDir = join(dir, 'state');
    writeFileSync(
      join(dir, 'app.properties'),
      [
        '# Kafka Streams settings, Java properties syntax',
        'bootstrap.servers=${env:TEST_BOOTSTRAP}',
        `application.id=${applicationId}`,
        'processing.guarantee=exactly_once_v2',
        'commit.interval.ms=100',
        'default.key.serde=org.apache.kafka.common.serialization.Serdes$StringSerde',
        'default.value.serde=org.apache.kafka.common.serialization.Serdes$StringSerde',
        `state.dir=${stateDir}`,
        'basic.auth.user.info=${env:SR_USER_INFO}',
      ].join('\n'),
    );
    const env = { TEST_BOOTSTRAP: brokers.join(','), SR_USER_INFO: SECRET, PROPS_PREFIX: prefix, PROPS_SEED_COUNT: '200' };
    const p = spawnCli(['run', 'test/unit/cli/fixtures/props-app.ts', '--config', join(dir, 'app.properties'), '--log-level', 'info', '--no-progress'], env);
    running.push(p);
    const cluster = createKafkaCluster({ bootstrapServers: brokers });
    const admin = cluster.admin();
    try {
      const committed = async (): Promise<number> => (await admin.committedOffsets(applicationId, `${prefix}in`)).reduce((s, o) => s + Math.max(0, o), 0);
      await waitFor(async () => p.child.exitCode !== null || (await committed()) >= 200, { timeoutMs: 90_000, message: `the group ${applicationId} committed all 200 inputs` });
      p.child.kill('SIGTERM');
      expect(await p.exit, p.stderr()).toBe(0);
      const out = await readAll(brokers, `${prefix}out`);
      expect(out.map((r) => r.value?.toString()).sort()).toEqual(Array.from({ length: 200 }, (_, i) => `V${i}`).sort());
      expect(existsSync(join(stateDir, applicationId))).toBe(true);
      expect(p.stdout()).toContain('"basic.auth.user.info":"[hidden]"');
      expect(p.stdout()).not.toContain(SECRET);
      expect(p.stderr()).toBe('');
    } finally {
      await admin.close();
    }
  });
});
