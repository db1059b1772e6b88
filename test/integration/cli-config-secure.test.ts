/**
 * Issue 27 acceptance, the CLI path: `sluice run app.ts --config app.properties`
 * as a child process against the secure test broker (SASL_SSL, SCRAM-SHA-512,
 * StandardAuthorizer), with a properties file as a Kafka Streams user copies it
 * from their Java app (security.protocol, sasl.jaas.config with the password from
 * `${env:...}`, a PEM truststore, exactly_once_v2, replication.factor,
 * compression.type, topic.* and producer.* keys). The principal holds only the
 * least-privilege ACLs of Kafka Streams (grantStreamsAcls).
 * - a stateful app (repartition + changelog) counts every record exactly once
 *   (read_committed output read as admin: each word's counts are 1..n, no
 *   repeat), the secret never shows in stdout/stderr, SIGTERM ends it with 0;
 * - a wrong password in the environment: the process exits non-zero within 30 s
 *   naming the SASL failure, never the password.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, expect, it } from 'vitest';
import { uniqueGroup, uniqueTopic, waitFor } from '../helpers/index.js';
import { createSecureTopic, describeSecureKafka, grantStreamsAcls, produceSecure, readCommittedSecure, secureAdmin, type SecureKafkaInfo } from '../helpers/secure-kafka.js';
import { spawnCli, type CliProcess } from '../unit/cli/spawn-cli.js';

const APP = 'test/integration/fixtures/secure-count-app.ts';
const WORDS = ['apple', 'banana', 'cherry', 'date', 'elder', 'fig', 'grape'];
const RECORDS = 300;
const USER = 'app';

const running: CliProcess[] = [];
const dirs: string[] = [];
afterEach(() => {
  for (const p of running.splice(0)) if (p.child.exitCode === null) p.child.kill('SIGKILL');
});
afterAll(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** The properties file a Kafka Streams user would copy from their Java app; the password only as `${env:SLUICE_TEST_SASL_PASSWORD}`. */
function writeProperties(info: SecureKafkaInfo, applicationId: string): { path: string; stateDir: string } {
  const dir = mkdtempSync(join(tmpdir(), 'sluice-cli-secure-'));
  dirs.push(dir);
  const stateDir = join(dir, 'state');
  const path = join(dir, 'app.properties');
  writeFileSync(
    path,
    [
      '# copied from the Java app (Kafka Streams), secrets from the environment',
      `bootstrap.servers=${info.bootstrap.join(',')}`,
      `application.id=${applicationId}`,
      'security.protocol=SASL_SSL',
      'sasl.mechanism=SCRAM-SHA-512',
      `sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required \\`,
      `    username="${info.users[USER]!.username}" password="\${env:SLUICE_TEST_SASL_PASSWORD}";`,
      'ssl.truststore.type=PEM',
      `ssl.truststore.location=${info.state.caPath}`,
      'processing.guarantee=exactly_once_v2',
      'replication.factor=1',
      'num.standby.replicas=0',
      `state.dir=${stateDir}`,
      'commit.interval.ms=100',
      'statestore.cache.max.bytes=0',
      'compression.type=zstd',
      'topic.min.insync.replicas=1',
      'producer.linger.ms=5',
      'session.timeout.ms=10000',
      'heartbeat.interval.ms=500',
    ].join('\n'),
  );
  return { path, stateDir };
}

describeSecureKafka('sluice run --config on the secure broker (SASL_SSL, least-privilege ACLs)', (info) => {
  const password = (): string => info.users[USER]!.password;

  it(`a stateful exactly-once app from a Kafka Streams properties file counts ${RECORDS} records exactly once; the secret never printed`, { timeout: 150_000 }, async () => {
    // 1. Topics (as admin) and the least-privilege ACLs of the app's principal.
    const [input, output] = [uniqueTopic('cli-secure-in'), uniqueTopic('cli-secure-out')];
    await createSecureTopic(input, { partitions: 2 });
    await createSecureTopic(output, { partitions: 2 });
    const applicationId = uniqueGroup('cli-secure');
    await grantStreamsAcls(USER, { applicationId, inputTopics: [input], outputTopics: [output] });
    const expected = new Map<string, number>();
    const records = Array.from({ length: RECORDS }, (_, i) => {
      const word = WORDS[(i * 5 + Math.floor(i / 7)) % WORDS.length]!;
      expected.set(word, (expected.get(word) ?? 0) + 1);
      return { key: `r${i}`, value: word, partition: i % 2 };
    });
    await produceSecure(input, records);

    // 2. The CLI with the file; the password only in the environment.
    const { path } = writeProperties(info, applicationId);
    const p = spawnCli(['run', APP, '--config', path, '--log-level', 'info', '--no-progress'], {
      SLUICE_TEST_SASL_PASSWORD: password(),
      SECURE_IN: input,
      SECURE_OUT: output,
    });
    running.push(p);

    // 3. Every count update committed (read_committed, as admin), then SIGTERM.
    await waitFor(async () => p.child.exitCode !== null || (await readCommittedSecure(output)).length >= RECORDS, {
      timeoutMs: 120_000,
      message: `${RECORDS} committed count updates`,
    });
    expect(p.child.exitCode, `the CLI exited early:\n${p.stdout()}\n${p.stderr()}`).toBeNull();
    p.child.kill('SIGTERM');
    expect(await p.exit, p.stderr()).toBe(0);

    // 4. Exactly once: each word's counts are 1..n in order per word, no repeat, none missing.
    const seen = new Map<string, number[]>();
    const committed = await readCommittedSecure(output);
    for (const r of committed) {
      const word = r.key!.toString();
      seen.set(word, [...(seen.get(word) ?? []), Number(r.value!.toString())]);
    }
    expect(committed.length).toBe(RECORDS);
    for (const [word, n] of expected) expect(seen.get(word), word).toEqual(Array.from({ length: n }, (_, i) => i + 1));

    // 5. The internal topics are the app's own (repartition + changelog), made with the file's topic settings.
    const admin = await secureAdmin(info);
    try {
      const internal = (await admin.listTopics()).filter((t) => t.startsWith(`${applicationId}-`));
      expect(internal.some((t) => t.endsWith('-repartition')), internal.join(', ')).toBe(true);
      expect(internal.some((t) => t.endsWith('-changelog')), internal.join(', ')).toBe(true);
      const changelog = internal.find((t) => t.endsWith('-changelog'))!;
      const { resources } = await admin.describeConfigs({ resources: [{ type: 2, name: changelog, configNames: ['min.insync.replicas'] }], includeSynonyms: false });
      expect(resources[0]!.configEntries.find((e) => e.configName === 'min.insync.replicas')?.configValue).toBe('1');
    } finally {
      await admin.disconnect();
    }

    // 6. The secret: never in the output; the startup line hides the JAAS config.
    const all = p.stdout() + p.stderr();
    expect(all).not.toContain(password());
    expect(p.stdout()).toContain('"sasl.jaas.config":"[hidden]"');
    expect(p.stderr()).toBe('');
  });

  it('a wrong password from the environment: exits non-zero within 30 s naming the SASL failure, not the password', { timeout: 60_000 }, async () => {
    const applicationId = uniqueGroup('cli-secure-badpw');
    const { path } = writeProperties(info, applicationId);
    const wrong = `wrong-${password()}-Pw`;
    const began = Date.now();
    const p = spawnCli(['run', APP, '--config', path, '--no-progress'], {
      SLUICE_TEST_SASL_PASSWORD: wrong,
      SECURE_IN: uniqueTopic('cli-secure-badpw-in'),
      SECURE_OUT: uniqueTopic('cli-secure-badpw-out'),
    });
    running.push(p);
    const code = await Promise.race([p.exit, new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), 30_000))]);
    const ms = Date.now() - began;
    const all = p.stdout() + p.stderr();
    expect(code, `still running after 30 s:\n${all}`).not.toBe('timeout');
    expect(code).not.toBe(0);
    expect(ms).toBeLessThan(30_000);
    expect(all).toMatch(/SASL|SaslAuthenticate|authentication/i);
    expect(all).toMatch(/SCRAM-SHA-512|scram-sha-512/i);
    expect(all).not.toContain(wrong);
    expect(all).not.toContain(password());
    console.log(`wrong password: exit ${String(code)} after ${ms} ms; stderr: ${p.stderr().trim().split('\n').slice(-3).join(' | ')}`);
  });
});
