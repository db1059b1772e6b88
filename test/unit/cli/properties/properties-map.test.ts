/**
 * The key mapping of `sluice run --config`: a Confluent Cloud Kafka Streams
 * config with `${env:...}` secrets (fixture), each Streams and client key,
 * the security keys with real PEM and PKCS12 material (made with openssl),
 * and the errors: a key without equivalent, bad values, never a secret in a message.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadConfigFile } from '../../../../src/cli/config-file.js';
import { mapProperties } from '../../../../src/cli/internal/properties-map.js';
import { PropertyReader } from '../../../../src/cli/internal/property-reader.js';
import { parseProperties } from '../../../../src/cli/internal/java-properties.js';
import { ConfigError } from '../../../../src/errors.js';
import { FailExceptionHandler } from '../../../../src/handlers/fail.js';
import { LogAndContinueExceptionHandler } from '../../../../src/handlers/log-and-continue.js';
import { WallclockTimestampExtractor } from '../../../../src/processors/timestamp-extractors.js';
import { Serdes } from '../../../../src/serdes/serdes.js';
import { ROOT } from '../spawn-cli.js';

const SECRET = 'cc-S3CR3T-do-not-print';
const ENV = { CC_API_KEY: 'CCKEY123', CC_API_SECRET: SECRET, SR_API_KEY: 'SRKEY', SR_API_SECRET: 'sr-secret-value' };

function map(text: string, cwd = ROOT): ReturnType<typeof mapProperties> {
  return mapProperties(new PropertyReader(parseProperties(text), 'app.properties'), cwd);
}
function errorOf(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('expected a ConfigError');
}

describe('a Confluent Cloud Kafka Streams config (fixture)', () => {
  it('maps every key, resolves ${env:...}, hides the secrets', () => {
    const file = loadConfigFile('test/unit/cli/fixtures/confluent-cloud.properties', ENV, ROOT);
    const c = file.config;
    expect(c.bootstrapServers).toEqual(['pkc-n00kk.us-east-1.aws.confluent.cloud:9092']);
    expect(c.sasl).toEqual({ mechanism: 'plain', username: 'CCKEY123', password: SECRET });
    expect(c.ssl).toBe(true);
    expect(c.sessionTimeoutMs).toBe(45000);
    expect(c.applicationId).toBe('orders-enricher');
    expect(c.clientId).toBe('orders-enricher-1');
    expect(c.processingGuarantee).toBe('exactly_once_v2');
    expect(c.replicationFactor).toBe(3);
    expect(c.numStandbyReplicas).toBe(1);
    expect(c.commitIntervalMs).toBe(200);
    expect(c.statestoreCacheMaxBytes).toBe(20971520);
    expect(c.stateDir).toBe('/var/lib/kafka-streams');
    expect(c.defaultKeySerde).toBe(Serdes.String());
    expect(c.defaultValueSerde).toBe(Serdes.String());
    expect(c.deserializationExceptionHandler).toBeInstanceOf(LogAndContinueExceptionHandler);
    expect(c.productionExceptionHandler).toBeInstanceOf(FailExceptionHandler);
    expect(c.compressionType).toBe('zstd');
    expect(c.topicConfig).toEqual({ 'min.insync.replicas': '2' });
    expect(c.producerConfig).toEqual({ 'linger.ms': '20' });
    expect(c.consumerConfig).toBeUndefined();
    expect(file.ignored.map((i) => i.key).sort()).toEqual(['basic.auth.credentials.source', 'basic.auth.user.info', 'client.dns.lookup', 'consumer.max.poll.records', 'metrics.recording.level', 'schema.registry.url']);
    expect(file.sources.get('sasl')).toBe('sasl.jaas.config');
    // what may be printed
    expect(file.display['sasl.jaas.config']).toBe('[hidden]');
    expect(file.display['basic.auth.user.info']).toBe('[hidden]');
    expect(file.display['bootstrap.servers']).toBe('pkc-n00kk.us-east-1.aws.confluent.cloud:9092');
    expect(JSON.stringify(file.display)).not.toContain(SECRET);
    expect(JSON.stringify(file.display)).not.toContain('sr-secret-value');
  });

  it('a missing secret variable names the variable and the key', () => {
    const message = errorOf(() => loadConfigFile('test/unit/cli/fixtures/confluent-cloud.properties', { ...ENV, CC_API_SECRET: undefined }, ROOT));
    expect(message).toBe(
      "sasl.jaas.config in test/unit/cli/fixtures/confluent-cloud.properties uses ${env:CC_API_SECRET}, but the environment variable CC_API_SECRET is not set (or not allowed by the provider's allowlist.pattern)",
    );
  });

  it('a missing file and a syntax error are one-line errors naming the file', () => {
    expect(errorOf(() => loadConfigFile('nope.properties', {}, ROOT))).toMatch(/^--config: cannot read .*nope\.properties: ENOENT/);
    const dir = mkdtempSync(join(tmpdir(), 'sluice-props-'));
    writeFileSync(join(dir, 'bad.properties'), 'a=1\nb=\\u12\n');
    expect(errorOf(() => loadConfigFile(join(dir, 'bad.properties'), {}, dir))).toBe('bad.properties:2: Malformed \\uxxxx encoding.');
  });
});

describe('Streams and client keys', () => {
  it('maps the Streams keys with a sluice key', () => {
    const { config } = map(
      [
        'application.id=a',
        'bootstrap.servers=k1:9092, k2:9092',
        'processing.guarantee=at_least_once',
        'auto.offset.reset=latest',
        'state.cleanup.delay.ms=1000',
        'application.server=host-1:7070',
        'acceptable.recovery.lag=5',
        'max.warmup.replicas=3',
        'probing.rebalance.interval.ms=60000',
        'num.stream.threads=1',
        'group.instance.id=pod-1',
        'repartition.purge.interval.ms=0',
        'transaction.timeout.ms=30000',
        'delivery.timeout.ms=90000',
        'heartbeat.interval.ms=3000',
        'cache.max.bytes.buffering=0',
        'processing.exception.handler=org.apache.kafka.streams.errors.LogAndContinueProcessingExceptionHandler',
        'default.timestamp.extractor=org.apache.kafka.streams.processor.WallclockTimestampExtractor',
        'default.key.serde=org.apache.kafka.common.serialization.Serdes$LongSerde',
        'default.value.serde=org.apache.kafka.common.serialization.Serdes.ByteArraySerde',
      ].join('\n'),
    );
    expect(config).toMatchObject({
      applicationId: 'a',
      bootstrapServers: ['k1:9092', 'k2:9092'],
      processingGuarantee: 'at_least_once',
      autoOffsetReset: 'latest',
      stateCleanupDelayMs: 1000,
      applicationServer: 'host-1:7070',
      acceptableRecoveryLag: 5,
      maxWarmupReplicas: 3,
      probingRebalanceIntervalMs: 60000,
      numStreamThreads: 1,
      groupInstanceId: 'pod-1',
      repartitionPurgeIntervalMs: 0,
      transactionTimeoutMs: 30000,
      deliveryTimeoutMs: 90000,
      heartbeatIntervalMs: 3000,
      statestoreCacheMaxBytes: 0,
    });
    expect(config.processingExceptionHandler).toBeInstanceOf(LogAndContinueExceptionHandler);
    expect(config.defaultTimestampExtractor).toBeInstanceOf(WallclockTimestampExtractor);
    expect(config.defaultKeySerde).toBe(Serdes.Long());
    expect(config.defaultValueSerde).toBe(Serdes.ByteArray());
  });

  it('client keys: unprefixed by client, prefixed override, main.consumer over consumer, admin', () => {
    const { config, sources } = map(
      [
        'request.timeout.ms=20000',
        'linger.ms=5',
        'producer.linger.ms=10',
        'max.poll.records=100',
        'consumer.fetch.max.wait.ms=200',
        'main.consumer.fetch.max.wait.ms=100',
        'consumer.session.timeout.ms=10000',
        'main.consumer.session.timeout.ms=12000',
        'admin.retries=7',
        'producer.compression.type=lz4',
        'topic.retention.ms=3600000',
        'producer.acks=all',
        'enable.auto.commit=false',
      ].join('\n'),
    );
    expect(config.producerConfig).toEqual({ 'request.timeout.ms': '20000', 'linger.ms': '10' });
    expect(config.consumerConfig).toEqual({ 'request.timeout.ms': '20000', 'fetch.max.wait.ms': '100' });
    expect(config.adminConfig).toEqual({ 'request.timeout.ms': '20000', retries: '7' });
    expect(config.sessionTimeoutMs).toBe(12000);
    expect(sources.get('sessionTimeoutMs')).toBe('main.consumer.session.timeout.ms');
    expect(config.compressionType).toBe('lz4');
    expect(config.topicConfig).toEqual({ 'retention.ms': '3600000' });
  });

  it('topology.optimization is handed back for the build', () => {
    expect(map('topology.optimization=all').topologyOptimization).toBe('all');
  });

  it('a key without an equivalent is an error naming it', () => {
    expect(errorOf(() => map('rocksdb.config.setter=com.example.Setter'))).toBe(
      "rocksdb.config.setter in app.properties: sluice has no equivalent: sluice's persistent stores have no RocksDB options",
    );
    expect(errorOf(() => map('frobnicate.level=3'))).toBe('frobnicate.level in app.properties: sluice has no equivalent (see docs/migrating-from-kafka-streams.md for the keys it maps)');
    expect(errorOf(() => map('group.id=x'))).toContain('group.id in app.properties: sluice has no equivalent: the consumer group id is application.id');
    expect(errorOf(() => map('producer.transactional.id=x'))).toContain('producer.transactional.id in app.properties: sluice has no equivalent: the transactional ids');
    expect(errorOf(() => map('restore.consumer.max.poll.records=10'))).toContain('one consumerConfig for all its consumers; set consumer.max.poll.records');
    expect(errorOf(() => map('producer.ssl.truststore.location=/x'))).toContain('set ssl.truststore.location without the producer. prefix');
  });

  it('bad values name the key and the allowed ones', () => {
    expect(errorOf(() => map('processing.guarantee=exactly_twice'))).toBe(
      "processing.guarantee in app.properties: must be one of exactly_once, exactly_once_v2, at_least_once, got 'exactly_twice'",
    );
    expect(errorOf(() => map('num.standby.replicas=-1'))).toBe("num.standby.replicas in app.properties: must be a whole number >= 0, got '-1'");
    expect(errorOf(() => map('commit.interval.ms=1.5'))).toContain("commit.interval.ms in app.properties: must be a whole number >= 1, got '1.5'");
    expect(errorOf(() => map('replication.factor=0'))).toContain('must be -1 (the broker default) or at least 1');
    expect(errorOf(() => map('acks=1'))).toContain("acks in app.properties: must be all or -1: sluice's producers are idempotent");
    expect(errorOf(() => map('auto.offset.reset=none'))).toContain('must be one of earliest, latest');
    expect(errorOf(() => map('default.key.serde=io.confluent.kafka.streams.serdes.avro.SpecificAvroSerde'))).toContain(
      "default.key.serde in app.properties: sluice has no equivalent of io.confluent.kafka.streams.serdes.avro.SpecificAvroSerde; it maps org.apache.kafka.common.serialization.Serdes$StringSerde",
    );
    expect(errorOf(() => map('default.production.exception.handler=com.example.MyHandler'))).toContain('A handler of your own goes in the module');
  });
});

describe('security keys', () => {
  let dir: string;
  const pem = (name: string): string => readFileSync(join(dir, name), 'utf8');
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'sluice-tls-'));
    const ssl = (...args: string[]): void => void execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
    ssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '2', '-subj', '/CN=test-ca');
    ssl('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'client.key', '-out', 'client.csr', '-subj', '/CN=client');
    ssl('x509', '-req', '-in', 'client.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'client.pem', '-days', '2');
    ssl('pkcs8', '-topk8', '-in', 'client.key', '-out', 'client-enc.key', '-passout', 'pass:keypass');
    ssl('pkcs12', '-export', '-in', 'client.pem', '-inkey', 'client.key', '-out', 'client.p12', '-passout', 'pass:storepass');
    writeFileSync(join(dir, 'keystore.pem'), pem('client-enc.key') + pem('client.pem'));
    writeFileSync(join(dir, 'fake.jks'), Buffer.from([0xfe, 0xed, 0xfe, 0xed, 0, 0, 0, 2]));
  }, 60_000);

  it('security.protocol decides ssl and sasl', () => {
    expect(map('security.protocol=PLAINTEXT').config).toEqual({});
    expect(map('security.protocol=SSL').config.ssl).toBe(true);
    const sasl = map('security.protocol=SASL_PLAINTEXT\nsasl.mechanism=SCRAM-SHA-512\nsasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required username="u" password="p";').config;
    expect(sasl).toEqual({ sasl: { mechanism: 'scram-sha-512', username: 'u', password: 'p' } });
    expect(errorOf(() => map('security.protocol=TLS'))).toContain('must be one of PLAINTEXT, SSL, SASL_PLAINTEXT, SASL_SSL');
    expect(errorOf(() => map('sasl.mechanism=PLAIN'))).toContain('is set but security.protocol is PLAINTEXT');
  });

  it('SASL errors: GSSAPI default, OAUTHBEARER, module mismatch, extra options; never the password', () => {
    const jaas = 'sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username="u" password="hunter2";';
    expect(errorOf(() => map(`security.protocol=SASL_SSL\n${jaas}`))).toContain("Kafka's default GSSAPI/Kerberos is not supported");
    expect(errorOf(() => map('security.protocol=SASL_SSL\nsasl.mechanism=OAUTHBEARER'))).toContain("set sasl: { mechanism: 'oauthbearer', oauthBearerProvider } in the module's config");
    const mismatch = errorOf(() => map(`security.protocol=SASL_SSL\nsasl.mechanism=SCRAM-SHA-256\n${jaas}`));
    expect(mismatch).toContain('needs org.apache.kafka.common.security.scram.ScramLoginModule');
    expect(mismatch).not.toContain('hunter2');
    const extra = errorOf(() => map('security.protocol=SASL_SSL\nsasl.mechanism=SCRAM-SHA-256\nsasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required username="u" password="hunter2" tokenauth="true";'));
    expect(extra).toContain("option 'tokenauth'");
    expect(extra).not.toContain('hunter2');
    expect(errorOf(() => map(`security.protocol=SASL_SSL\nsasl.mechanism=PLAIN\n${jaas}\nsasl.kerberos.service.name=kafka`))).toContain('sasl.kerberos.service.name in app.properties: sluice has no equivalent');
  });

  it('a PEM trust store (file or inline), no host name check with an empty algorithm, TLS versions', () => {
    const fromFile = map(`security.protocol=SSL\nssl.truststore.type=PEM\nssl.truststore.location=${join(dir, 'ca.pem')}\nssl.endpoint.identification.algorithm=\nssl.enabled.protocols=TLSv1.3,TLSv1.2`).config.ssl as Record<string, unknown>;
    expect(fromFile.ca).toBe(pem('ca.pem'));
    expect((fromFile.checkServerIdentity as () => unknown)()).toBeUndefined();
    expect(fromFile.minVersion).toBe('TLSv1.2');
    expect(fromFile.maxVersion).toBe('TLSv1.3');
    // inline, as a properties file writes it: `\` continuations drop the line breaks
    const lines = pem('ca.pem').trim().split('\n');
    const inline = `ssl.truststore.certificates=${lines.join(' \\\n  ')}`;
    const fromInline = map(`security.protocol=SSL\nssl.truststore.type=PEM\n${inline}`).config.ssl as Record<string, unknown>;
    expect(fromInline.ca).toBe(pem('ca.pem'));
    expect(fromInline.checkServerIdentity).toBeUndefined();
  });

  it('a PEM key store: inline key and chain, or one file; ssl.key.password decrypts', () => {
    const inline = map(
      `security.protocol=SSL\nssl.keystore.type=PEM\nssl.keystore.key=${pem('client-enc.key').trim().split('\n').join('\\n')}\nssl.keystore.certificate.chain=${pem('client.pem').trim().split('\n').join('\\n')}\nssl.key.password=keypass`,
    ).config.ssl as Record<string, unknown>;
    expect(inline.key).toBe(pem('client-enc.key'));
    expect(inline.cert).toBe(pem('client.pem'));
    expect(inline.passphrase).toBe('keypass');
    const file = map(`security.protocol=SSL\nssl.keystore.type=PEM\nssl.keystore.location=${join(dir, 'keystore.pem')}\nssl.key.password=keypass`).config.ssl as Record<string, unknown>;
    expect(file.key).toBe(pem('client-enc.key'));
    const wrong = errorOf(() => map(`security.protocol=SSL\nssl.keystore.type=PEM\nssl.keystore.location=${join(dir, 'keystore.pem')}\nssl.key.password=wrong-pass-xyz`));
    expect(wrong).toContain('the TLS settings cannot be used');
    expect(wrong).not.toContain('wrong-pass-xyz');
  });

  it("a PKCS12 key store goes to Node's pfx; JKS is refused with the conversion command", () => {
    const p12 = map(`security.protocol=SSL\nssl.keystore.type=PKCS12\nssl.keystore.location=${join(dir, 'client.p12')}\nssl.keystore.password=storepass`).config.ssl as Record<string, unknown>;
    expect(Buffer.isBuffer(p12.pfx)).toBe(true);
    expect(p12.passphrase).toBe('storepass');
    expect(errorOf(() => map(`security.protocol=SSL\nssl.keystore.location=${join(dir, 'fake.jks')}\nssl.keystore.password=x`))).toContain('is a JKS key store: sluice (Node.js) reads PEM or PKCS12 key stores: convert it with `keytool -importkeystore');
    expect(errorOf(() => map(`security.protocol=SSL\nssl.truststore.location=${join(dir, 'fake.jks')}\nssl.truststore.type=JKS\nssl.truststore.password=changeit`))).toContain(
      'ssl.truststore.type in app.properties: JKS stores are Java key stores: sluice (Node.js) reads PEM: convert it with `keytool -exportcert -rfc',
    );
    expect(errorOf(() => map('security.protocol=SSL\nssl.cipher.suites=TLS_AES_128_GCM_SHA256'))).toContain("set ssl: { ciphers: '<OpenSSL cipher list>' }");
  });
});

describe('isSecretKey', () => {
  it("hides Kafka's PASSWORD keys and any key naming a secret, through client prefixes", async () => {
    const { isSecretKey } = await import('../../../../src/cli/internal/secret-keys.js');
    for (const key of [
      'sasl.jaas.config',
      'ssl.key.password',
      'ssl.keystore.password',
      'ssl.truststore.password',
      'ssl.keystore.key',
      'ssl.keystore.certificate.chain',
      'ssl.truststore.certificates',
      'producer.sasl.jaas.config',
      'basic.auth.user.info',
      'sasl.oauthbearer.client.credentials.client.secret',
      'my.api.token',
    ]) {
      expect(isSecretKey(key), key).toBe(true);
    }
    for (const key of ['bootstrap.servers', 'default.key.serde', 'ssl.truststore.location', 'sasl.mechanism', 'basic.auth.credentials.source', 'application.id']) {
      expect(isSecretKey(key), key).toBe(false);
    }
  });
});

describe('JVM-only TLS keys', () => {
  it('are accepted and reported as ignored', () => {
    const r = map('security.protocol=SSL\nssl.protocol=TLSv1.3\nssl.keymanager.algorithm=SunX509\nssl.trustmanager.algorithm=PKIX');
    expect(r.config.ssl).toBe(true);
    expect(r.ignored.map((i) => i.key).sort()).toEqual(['ssl.keymanager.algorithm', 'ssl.protocol', 'ssl.trustmanager.algorithm']);
  });
});
