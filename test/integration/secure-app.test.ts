/**
 * Issue 27 acceptance ("Join a real company's Kafka"), the working paths, on the
 * secure test broker (SASL_SSL + mTLS + StandardAuthorizer, no ACL = no access):
 * - a stateful exactly-once app (selectKey → groupByKey → count: a repartition
 *   topic and a changelog) run as a principal holding only the least-privilege
 *   ACLs Kafka Streams documents processes every record exactly once;
 * - the same ACLs with a PLAIN login (Confluent Cloud style), an OAUTHBEARER token
 *   provider and mutual TLS (principal from the client certificate) run an app.
 * The ACLs are exactly Kafka Streams' documented least privilege (test/helpers
 * secure-kafka.ts `streamsAcls`): no DESCRIBE_CONFIGS on the input or output
 * topics, no CREATE on the cluster, no DESCRIBE on other groups. An app must not
 * need more (measured: with DESCRIBE_CONFIGS added on input and output, the
 * stateful case passes, 300 records in 4.6 s).
 */
import { afterEach, expect, it } from 'vitest';
import { uniqueGroup, uniqueTopic, waitFor } from '../helpers/index.js';
import { createSecureTopic, describeSecureKafka, grantStreamsAcls, produceSecure, readCommittedSecure, secureAdmin } from '../helpers/secure-kafka.js';
import { SecureApps, upperTopology, wordCountTopology } from './secure-support.js';

/** An unsigned JWT (`alg: none`) for `sub`, valid for an hour: what Kafka's unsecured OAUTHBEARER validator accepts. */
function unsignedToken(sub: string): string {
  const part = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const now = Math.floor(Date.now() / 1000);
  return `${part({ alg: 'none' })}.${part({ sub, iat: now, exp: now + 3600 })}.`;
}

const WORDS = ['apple', 'banana', 'cherry', 'date', 'elder', 'fig', 'grape'];
const RECORDS = 300;
const apps = new SecureApps();
afterEach(() => apps.closeAll());

describeSecureKafka('secure Kafka: apps as least-privilege principals', (info) => {
  it(`stateful exactly-once app (repartition + changelog) over SASL_SSL/SCRAM-SHA-512 with only the Kafka Streams ACLs: ${RECORDS} records counted exactly once`, async () => {
    const started = Date.now();
    const [input, output] = [uniqueTopic('secure-wc-in'), uniqueTopic('secure-wc-out')];
    await createSecureTopic(input, { partitions: 2 });
    await createSecureTopic(output, { partitions: 2 });
    const applicationId = uniqueGroup('secure-wc');
    await grantStreamsAcls('app', { applicationId, inputTopics: [input], outputTopics: [output] });
    const expected = new Map<string, number>();
    const records = Array.from({ length: RECORDS }, (_, i) => {
      const word = WORDS[(i * 5 + Math.floor(i / 7)) % WORDS.length]!;
      expected.set(word, (expected.get(word) ?? 0) + 1);
      return { key: `r${i}`, value: word, partition: i % 2 };
    });
    await produceSecure(input, records);

    const app = apps.create(wordCountTopology(input, output), {
      applicationId,
      bootstrapServers: info.bootstrap,
      ssl: { ca: info.caPem },
      sasl: { mechanism: 'scram-sha-512', username: 'app', password: info.users.app!.password },
      processingGuarantee: 'exactly_once_v2',
      statestoreCacheMaxBytes: 0, // every count update is emitted: a duplicate shows as a repeated n
    });
    await app.start();
    expect(app.state).toBe('RUNNING');
    await waitFor(async () => (await readCommittedSecure(output)).length >= RECORDS, { timeoutMs: 90_000, message: `${RECORDS} committed count updates` });
    const seen = new Map<string, number[]>();
    for (const r of await readCommittedSecure(output)) {
      const word = r.key!.toString();
      seen.set(word, [...(seen.get(word) ?? []), Number(r.value!.toString())]);
    }
    // Exactly once: each word's committed updates are 1..n, no gap, no repeat.
    expect([...seen.keys()].sort()).toEqual([...expected.keys()].sort());
    for (const [word, n] of expected) expect(seen.get(word), word).toEqual(Array.from({ length: n }, (_, i) => i + 1));
    // The internal topics exist under the application's prefix (created by the app principal, ALL on `<applicationId>-`).
    const admin = await secureAdmin();
    try {
      const internal = (await admin.listTopics()).filter((t) => t.startsWith(`${applicationId}-`));
      expect(internal.some((t) => t.endsWith('-repartition')), internal.join(', ')).toBe(true);
      expect(internal.some((t) => t.endsWith('-changelog')), internal.join(', ')).toBe(true);
    } finally {
      await admin.disconnect();
    }
    expect(app.state).toBe('RUNNING');
    console.info(`[secure-eos] ${RECORDS} records counted exactly once as User:app in ${Date.now() - started} ms`);
  });

  it('a PLAIN login (Confluent Cloud style) with the same least-privilege ACLs runs an app', async () => {
    const [input, output] = [await createSecureTopic(uniqueTopic('secure-plain-in')), await createSecureTopic(uniqueTopic('secure-plain-out'))];
    const applicationId = uniqueGroup('secure-plain');
    await grantStreamsAcls('carol', { applicationId, inputTopics: [input], outputTopics: [output] });
    await produceSecure(input, [{ key: 'a', value: 'one' }, { key: 'b', value: 'two' }]);
    const app = apps.create(upperTopology(input, output), {
      applicationId,
      bootstrapServers: info.bootstrap,
      ssl: { ca: info.caPem },
      sasl: { mechanism: 'plain', username: 'carol', password: info.users.carol!.password },
    });
    await app.start();
    await waitFor(async () => (await readCommittedSecure(output)).length === 2, { timeoutMs: 45_000, message: 'two outputs' });
    expect((await readCommittedSecure(output)).map((r) => r.value?.toString()).sort()).toEqual(['ONE', 'TWO']);
  });

  it('an OAUTHBEARER login (token provider) with the same least-privilege ACLs runs an app as the token subject', async () => {
    // The broker validates with Kafka's unsecured validator: an unsigned JWT whose `sub` is the principal.
    const [input, output] = [await createSecureTopic(uniqueTopic('secure-oauth-in')), await createSecureTopic(uniqueTopic('secure-oauth-out'))];
    const applicationId = uniqueGroup('secure-oauth');
    await grantStreamsAcls('dave', { applicationId, inputTopics: [input], outputTopics: [output] });
    await produceSecure(input, [{ key: 'a', value: 'token' }]);
    let calls = 0;
    const app = apps.create(upperTopology(input, output), {
      applicationId,
      bootstrapServers: info.bootstrap,
      ssl: { ca: info.caPem },
      sasl: { mechanism: 'oauthbearer', oauthBearerProvider: async () => (calls++, { value: unsignedToken('dave') }) },
    });
    await app.start();
    await waitFor(async () => (await readCommittedSecure(output)).length === 1, { timeoutMs: 45_000, message: 'one output' });
    expect((await readCommittedSecure(output)).map((r) => r.value?.toString())).toEqual(['TOKEN']);
    expect(calls).toBeGreaterThan(0);
  });

  it('mTLS: an app connecting with ssl { ca, cert, key } to the client-certificate listener runs as the certificate principal', async () => {
    const [input, output] = [await createSecureTopic(uniqueTopic('secure-mtls-in')), await createSecureTopic(uniqueTopic('secure-mtls-out'))];
    const applicationId = uniqueGroup('secure-mtls');
    await grantStreamsAcls(info.clientPrincipal, { applicationId, inputTopics: [input], outputTopics: [output] });
    await produceSecure(input, [{ key: 'a', value: 'x' }, { key: 'b', value: 'y' }, { key: 'c', value: 'z' }]);
    const app = apps.create(upperTopology(input, output), {
      applicationId,
      bootstrapServers: info.mtlsBootstrap,
      ssl: { ca: info.caPem, cert: info.clientCertPem, key: info.clientKeyPem },
    });
    await app.start();
    await waitFor(async () => (await readCommittedSecure(output)).length === 3, { timeoutMs: 45_000, message: 'three outputs' });
    expect((await readCommittedSecure(output)).map((r) => r.value?.toString()).sort()).toEqual(['X', 'Y', 'Z']);
    expect(app.state).toBe('RUNNING');
  });
});
