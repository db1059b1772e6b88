/**
 * The security error messages on the real secure broker, beyond the acceptance
 * cases of secure-failures.test.ts: each misconfiguration makes the app fail
 * (start() rejects or ERROR) within the bound, with a message naming what to
 * change, and no secret in the message or in any log line (kafkajs debug logs
 * included).
 * - TLS to a plaintext port, a hostname mismatch (servername), the mTLS listener
 *   without a client certificate, TLS without SASL on the SASL_SSL listener: 30 s;
 * - no READ on the group, no ACL on the transactional ids (kafkajs hides
 *   that refusal behind "Failed to find group coordinator"), no READ on the
 *   input topic: 60 s, naming the resource, the operation and the principal.
 */
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterEach, expect, it } from 'vitest';
import type { KafkaStreamsConfig } from '../../src/index.js';
import { kafkaBrokers, uniqueGroup, uniqueTopic } from '../helpers/index.js';
import kafkajs, { type AclEntry } from 'kafkajs';
import { createSecureTopic, describeSecureKafka, grantStreamsAcls, produceSecure, readCommittedSecure, secureAdmin, type StreamsGrant } from '../helpers/secure-kafka.js';
import { SecureApps, startUntilFailure, upperTopology } from './secure-support.js';

const { AclOperationTypes, AclPermissionTypes, AclResourceTypes, ResourcePatternTypes } = kafkajs;
const apps = new SecureApps();
afterEach(() => apps.closeAll());

describeSecureKafka('secure Kafka: the error messages name the fix', (info) => {
  const password = (user: string) => info.users[user]!.password;
  const login = (user: string) => ({ mechanism: 'scram-sha-512' as const, username: user, password: password(user) });

  async function topics(name: string) {
    const input = await createSecureTopic(uniqueTopic(`sec-err-${name}-in`));
    const output = await createSecureTopic(uniqueTopic(`sec-err-${name}-out`));
    await produceSecure(input, [{ key: 'a', value: 'x' }]);
    return { input, output, applicationId: uniqueGroup(`sec-err-${name}`) };
  }

  /** Starts an app with `connection` (and `logger`), waits for its failure, checks the bound; returns it. */
  async function failureOf(name: string, connection: Partial<KafkaStreamsConfig>, timeoutMs: number, acl?: { user: string; omit: StreamsGrant[]; extra?: (output: string) => AclEntry[] }) {
    const { input, output, applicationId } = await topics(name);
    if (acl) await grantStreamsAcls(acl.user, { applicationId, inputTopics: [input], outputTopics: [output], omit: acl.omit });
    if (acl?.extra) {
      const admin = await secureAdmin(info);
      await admin.createAcls({ acl: acl.extra(output) }).finally(() => admin.disconnect());
    }
    const app = apps.create(upperTopology(input, output), { applicationId, ...connection });
    const f = await startUntilFailure(app, timeoutMs);
    console.info(`[secure-error ${name}] ${f.state} after ${f.ms} ms: ${f.message}`);
    expect(f.state).toBe('ERROR');
    expect(f.ms).toBeLessThan(timeoutMs);
    for (const user of Object.values(info.users)) expect(f.message).not.toContain(user.password);
    expect(await readCommittedSecure(output)).toEqual([]);
    return { ...f, input, output, applicationId };
  }

  it('TLS to a plaintext listener: SECURITY_PROTOCOL_MISMATCH, remove ssl', async (ctx) => {
    const plaintext = kafkaBrokers();
    if (!plaintext) return ctx.skip();
    const f = await failureOf('tls-on-plain', { bootstrapServers: plaintext, ssl: { ca: info.caPem } }, 30_000);
    expect((f.error as { code?: string }).code).toBe('SECURITY_PROTOCOL_MISMATCH');
    expect(f.message).toMatch(/does not speak TLS. Remove ssl/);
  });

  it('a certificate for another name (hostname mismatch): SSL_HANDSHAKE_FAILED naming ssl.servername', async () => {
    const f = await failureOf('hostname', { bootstrapServers: info.bootstrap, ssl: { ca: info.caPem, servername: 'kafka.wrong.example' }, sasl: login('app') }, 30_000);
    expect((f.error as { code?: string }).code).toBe('SSL_HANDSHAKE_FAILED');
    expect(f.message).toMatch(/hostname mismatch.*ssl.servername/);
  });

  it('the mTLS listener without a client certificate: SSL_HANDSHAKE_FAILED, set ssl.cert and ssl.key', async () => {
    const f = await failureOf('no-client-cert', { bootstrapServers: info.mtlsBootstrap, ssl: { ca: info.caPem } }, 30_000);
    expect((f.error as { code?: string }).code).toBe('SSL_HANDSHAKE_FAILED');
    expect(f.message).toMatch(/requires a client certificate \(mutual TLS\): set ssl.cert and ssl.key/);
  });

  it('TLS without SASL on the SASL_SSL listener: SECURITY_PROTOCOL_MISMATCH, set sasl', async () => {
    const f = await failureOf('no-sasl', { bootstrapServers: info.bootstrap, ssl: { ca: info.caPem } }, 30_000);
    expect((f.error as { code?: string }).code).toBe('SECURITY_PROTOCOL_MISMATCH');
    expect(f.message).toMatch(/requires a SASL login: set sasl/);
  });

  it('no READ on the group: GROUP_AUTHORIZATION_FAILED naming the group, READ and the user', async () => {
    const f = await failureOf('no-group', { bootstrapServers: info.bootstrap, ssl: { ca: info.caPem }, sasl: login('carol') }, 60_000, { user: 'carol', omit: ['group'] });
    expect(f.message).toMatch(/GROUP_AUTHORIZATION_FAILED \(30\): User:carol is not allowed READ on group/);
    expect(f.message).toContain(`'${f.applicationId}'`);
  });

  it('no ACL on the transactional ids: the FindCoordinator refusal (53) is surfaced, not "Failed to find group coordinator"', async () => {
    // (WRITE implies DESCRIBE: without both, FindCoordinator itself answers 53, which kafkajs swallows)
    const f = await failureOf('no-txn-acl', { bootstrapServers: info.bootstrap, ssl: { ca: info.caPem }, sasl: login('dave') }, 60_000, {
      user: 'dave',
      omit: ['transactional-id-write', 'transactional-id-describe'],
    });
    expect(f.message).toMatch(/TRANSACTIONAL_ID_AUTHORIZATION_FAILED \(53\): User:dave is not allowed WRITE on transactional id/);
    expect(f.message).not.toMatch(/Failed to find group coordinator/);
  });

  it('an output topic the principal sees (READ) but may not WRITE: the task producer is refused, names WRITE on it, writes nothing', async () => {
    const f = await failureOf('no-write-visible', { bootstrapServers: info.bootstrap, ssl: { ca: info.caPem }, sasl: login('alice') }, 60_000, {
      user: 'alice',
      omit: ['write-output'],
      extra: (output) => [{ principal: 'User:alice', host: '*', permissionType: AclPermissionTypes.ALLOW, resourceType: AclResourceTypes.TOPIC, resourceName: output, resourcePatternType: ResourcePatternTypes.LITERAL, operation: AclOperationTypes.READ }],
    });
    expect(f.message).toMatch(/TOPIC_AUTHORIZATION_FAILED \(29\): User:alice is not allowed WRITE on topic/);
    expect(f.message).toContain(`'${f.output}'`);
  });

  it('no READ on the input topic: the source topic is invisible to the principal, and the message says so', async () => {
    const f = await failureOf('no-input-read', { bootstrapServers: info.bootstrap, ssl: { ca: info.caPem }, sasl: login('contract') }, 60_000, { user: 'contract', omit: ['read-input'] });
    expect(f.message).toContain(`Source topic '${f.input}' does not exist`);
    expect(f.message).toMatch(/or User:contract may not see it .*DESCRIBE/);
  });

  it('no secret in any log line, kafkajs debug logs included, on a failed login and on a working app', async () => {
    const lines: string[] = [];
    const sink = new Writable({ write: (chunk: Buffer, _enc, done) => void (lines.push(chunk.toString()), done()) });
    const logger = pino({ level: 'trace' }, sink);
    const wrong = 'wrong-pass-0815';
    await failureOf('log-secrets', { bootstrapServers: info.bootstrap, ssl: { ca: info.caPem, key: info.clientKeyPem, cert: info.clientCertPem }, sasl: { mechanism: 'plain', username: 'app', password: wrong }, logger }, 30_000);
    const { input, output, applicationId } = await topics('log-secrets-ok');
    await grantStreamsAcls('app', { applicationId, inputTopics: [input], outputTopics: [output] });
    const app = apps.create(upperTopology(input, output), { applicationId, bootstrapServers: info.bootstrap, ssl: { ca: info.caPem }, sasl: login('app'), logger });
    await app.start();
    await app.close();
    const all = lines.join('');
    expect(lines.length).toBeGreaterThan(20); // kafkajs debug lines were written
    expect(all).toMatch(/"component":"kafkajs"/);
    for (const secret of [wrong, password('app'), info.clientKeyPem.split('\n')[1]!]) expect(all).not.toContain(secret);
  });
});
