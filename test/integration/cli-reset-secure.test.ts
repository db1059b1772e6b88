/**
 * `sluice reset --config app.properties` on the secure test broker (SASL_SSL, SCRAM-SHA-512): the
 * properties file's security settings reach the reset's admin client (issue 29 item 10), and the
 * password (from `${env:...}`) never shows in the output.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, expect, it } from 'vitest';
import { uniqueGroup, uniqueTopic } from '../helpers/index.js';
import { createSecureTopic, describeSecureKafka, produceSecure, secureAdmin } from '../helpers/secure-kafka.js';
import { spawnCli, type CliProcess } from '../unit/cli/spawn-cli.js';

const USER = 'admin';
const running: CliProcess[] = [];
const dirs: string[] = [];
afterEach(() => {
  for (const p of running.splice(0)) if (p.child.exitCode === null) p.child.kill('SIGKILL');
});
afterAll(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describeSecureKafka('sluice reset --config on the secure broker', (info) => {
  it('resets the committed offsets through SASL_SSL from a properties file; the secret never printed', { timeout: 90_000 }, async () => {
    const input = uniqueTopic('reset-secure-in');
    const applicationId = uniqueGroup('reset-secure');
    await createSecureTopic(input, { partitions: 1 });
    await produceSecure(input, [{ key: 'a', value: '1' }, { key: 'b', value: '2' }, { key: 'c', value: '3' }]);
    const admin = await secureAdmin(info);
    try {
      await admin.setOffsets({ groupId: applicationId, topic: input, partitions: [{ partition: 0, offset: '3' }] });
      const dir = mkdtempSync(join(tmpdir(), 'sluice-reset-secure-'));
      dirs.push(dir);
      const path = join(dir, 'app.properties');
      writeFileSync(
        path,
        [
          `bootstrap.servers=${info.bootstrap.join(',')}`,
          `application.id=${applicationId}`,
          'security.protocol=SASL_SSL',
          'sasl.mechanism=SCRAM-SHA-512',
          `sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required username="${info.users[USER]!.username}" password="\${env:SLUICE_TEST_SASL_PASSWORD}";`,
          'ssl.truststore.type=PEM',
          `ssl.truststore.location=${info.state.caPath}`,
        ].join('\n'),
      );
      const p = spawnCli(['reset', '--config', path, '--input-topics', input, '--to-offset', '1'], { SLUICE_TEST_SASL_PASSWORD: info.users[USER]!.password });
      running.push(p);
      expect(await p.exit, p.stderr()).toBe(0);
      expect(p.stdout()).toContain(`Topic: ${input} Partition: 0 Offset: 1`);
      expect(p.stdout()).toContain('Done.');
      const [offsets] = await admin.fetchOffsets({ groupId: applicationId, topics: [input] });
      expect(offsets!.partitions.map((x) => x.offset)).toEqual(['1']);
      expect(p.stdout() + p.stderr()).not.toContain(info.users[USER]!.password);
    } finally {
      await admin.disconnect();
    }
  });
});
