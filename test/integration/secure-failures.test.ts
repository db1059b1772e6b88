/**
 * Issue 27 acceptance ("Join a real company's Kafka"), the failure paths, on the
 * secure test broker: each misconfiguration fails fast (start() rejects or the app
 * reaches ERROR) with a message that names the cause, never a secret, and a denied
 * write leaves nothing visible to read_committed readers.
 * - connection problems (wrong password, plaintext client on the SASL_SSL port,
 *   broker certificate from a CA the client does not trust): within 30 s;
 * - authorization problems (no WRITE on the output topic, no WRITE on the
 *   transactional ids): within 60 s, naming the missing permission.
 */
import { afterEach, expect, it } from 'vitest';
import type { KafkaStreamsConfig } from '../../src/index.js';
import { uniqueGroup, uniqueTopic } from '../helpers/index.js';
import { createSecureTopic, describeSecureKafka, grantStreamsAcls, produceSecure, readCommittedSecure, type StreamsGrant } from '../helpers/secure-kafka.js';
import { SecureApps, startUntilFailure, upperTopology } from './secure-support.js';

const apps = new SecureApps();
afterEach(() => apps.closeAll());

describeSecureKafka('secure Kafka: misconfigurations fail fast, naming the cause', (info) => {
  /** Fresh input (with 3 records) and output topics and an application id. */
  async function topics(name: string) {
    const input = await createSecureTopic(uniqueTopic(`secure-${name}-in`));
    const output = await createSecureTopic(uniqueTopic(`secure-${name}-out`));
    await produceSecure(input, [{ key: 'a', value: 'x' }, { key: 'b', value: 'y' }, { key: 'c', value: 'z' }]);
    return { input, output, applicationId: uniqueGroup(`secure-${name}`) };
  }

  async function failureOf(name: string, connection: Pick<KafkaStreamsConfig, 'bootstrapServers' | 'ssl' | 'sasl'>, timeoutMs: number) {
    const { input, output, applicationId } = await topics(name);
    const app = apps.create(upperTopology(input, output), { applicationId, processingGuarantee: 'exactly_once_v2', ...connection });
    const failure = await startUntilFailure(app, timeoutMs);
    console.info(`[secure-failure ${name}] ${failure.state} after ${failure.ms} ms: ${failure.message}`);
    expect(failure.state).toBe('ERROR');
    expect(failure.ms).toBeLessThan(timeoutMs);
    return { ...failure, output };
  }

  it('a wrong password: fails within 30 s naming the authentication failure, without the password', async () => {
    const wrong = 'not-the-password-4711';
    const f = await failureOf('wrong-password', { bootstrapServers: info.bootstrap, ssl: { ca: info.caPem }, sasl: { mechanism: 'scram-sha-512', username: 'app', password: wrong } }, 30_000);
    expect(f.message).toMatch(/authenticat/i);
    expect(f.message).toMatch(/password|credential/i);
    expect(f.message).not.toContain(wrong);
    expect(f.message).not.toContain(info.users.app!.password);
  });

  it('a plaintext client on the SASL_SSL port: fails within 30 s naming TLS/SASL as the likely fix', async () => {
    const f = await failureOf('plaintext', { bootstrapServers: info.bootstrap }, 30_000);
    expect(f.message).toMatch(/\bssl\b|\btls\b|\bsasl\b|security protocol/i);
  });

  it('a broker certificate from an untrusted CA: fails within 30 s naming the certificate problem', async () => {
    const f = await failureOf('untrusted-ca', { bootstrapServers: info.bootstrap, ssl: { ca: info.untrustedCaPem }, sasl: { mechanism: 'scram-sha-512', username: 'app', password: info.users.app!.password } }, 30_000);
    expect(f.message).toMatch(/certificate/i);
    expect(f.message).toMatch(/\bca\b|trust|self-signed|issuer/i);
  });

  /** An app as `user` holding every least-privilege ACL except `omit`: fails within 60 s, writes nothing. */
  async function deniedWrite(name: string, user: string, omit: StreamsGrant[]) {
    const { input, output, applicationId } = await topics(name);
    await grantStreamsAcls(user, { applicationId, inputTopics: [input], outputTopics: [output], omit });
    const app = apps.create(upperTopology(input, output), {
      applicationId,
      processingGuarantee: 'exactly_once_v2',
      bootstrapServers: info.bootstrap,
      ssl: { ca: info.caPem },
      sasl: { mechanism: 'scram-sha-512', username: user, password: info.users[user]!.password },
    });
    const f = await startUntilFailure(app, 60_000);
    console.info(`[secure-failure ${name}] ${f.state} after ${f.ms} ms: ${f.message}`);
    expect(f.state).toBe('ERROR');
    expect(f.ms).toBeLessThan(60_000);
    expect(await readCommittedSecure(output)).toEqual([]); // nothing written
    return { ...f, output, applicationId };
  }

  it('a principal without WRITE on the output topic: fails within 60 s naming WRITE on that topic; nothing is written', async () => {
    const f = await deniedWrite('no-output-write', 'alice', ['write-output']);
    expect(f.message).toMatch(/authoriz|not allowed|denied/i);
    expect(f.message).toMatch(/\bWRITE\b/);
    expect(f.message).toContain(f.output);
  });

  it('a principal without WRITE on the transactional ids: fails within 60 s naming the transactional id permission; nothing is written', async () => {
    const f = await deniedWrite('no-txn-write', 'bob', ['transactional-id-write']);
    expect(f.message).toMatch(/authoriz|not allowed|denied/i);
    expect(f.message).toMatch(/transactional.?id/i);
    expect(f.message).toMatch(/\bWRITE\b/);
  });
});
