import kafkajsModule, { type Kafka, type KafkaConfig } from 'kafkajs';
import pino from 'pino';
import { pinoLogCreator } from '../../../src/cluster/kafkajs/internal/kafkajs-logger.js';
import { afterEach, describe, expect, it } from 'vitest';
import { KafkaJsCluster } from '../../../src/cluster/kafkajs/index.js';
import { createReaderCluster } from '../../../src/cluster/kafkajs/internal/reader-cluster.js';
import { sluiceKafkaJs } from '../../../src/cluster/kafkajs/internal/patches.js';
import { ConfigError } from '../../../src/errors.js';
import { hideSecrets } from '../../../src/cluster/kafkajs/connection-security.js';
import { resolveConfig } from '../../../src/runtime/config.js';
import { TransactionalProducer } from '../../../src/runtime/transactional-producer.js';
import { EmbeddedKafkaCluster } from '../../../src/testing.js';

const base = { applicationId: 'secure-config', bootstrapServers: 'localhost:9092' };
const SECRET = 'p4ss-w0rd-never-printed';

describe('config: ssl and sasl', () => {
  it('are optional, and resolve to what was given (sasl copied, mechanism lower-cased)', () => {
    expect(resolveConfig(base)).toMatchObject({ ssl: undefined, sasl: undefined });
    const given = { mechanism: 'SCRAM-SHA-512', username: 'alice', password: SECRET };
    const c = resolveConfig({ ...base, ssl: true, sasl: given as never });
    expect(c.ssl).toBe(true);
    expect(c.sasl).toEqual({ mechanism: 'scram-sha-512', username: 'alice', password: SECRET });
    expect(c.sasl).not.toBe(given);
    const ssl = { ca: ['-----BEGIN CERTIFICATE-----'], cert: Buffer.from('c'), key: Buffer.from('k'), servername: 'kafka', rejectUnauthorized: true };
    expect(resolveConfig({ ...base, ssl }).ssl).toBe(ssl);
    expect(resolveConfig({ ...base, ssl: false }).ssl).toBeUndefined();
    const provider = () => Promise.resolve({ value: 'token' });
    expect(resolveConfig({ ...base, sasl: { mechanism: 'oauthbearer', oauthBearerProvider: provider } }).sasl).toEqual({ mechanism: 'oauthbearer', oauthBearerProvider: provider });
  });

  it.each([
    [{ ssl: 'yes' }, /Config 'ssl' must be true .* or an object of Node's tls.ConnectionOptions .*got a string/],
    [{ ssl: 1 }, /Config 'ssl' must be true/],
    [{ ssl: [] }, /Config 'ssl' must be true .*got an array/],
    [{ ssl: { ca: 5 } }, /Config 'ssl.ca' must be PEM text or a Buffer/],
    [{ ssl: { rejectUnauthorized: 'no' } }, /Config 'ssl.rejectUnauthorized' must be a boolean/],
    [{ ssl: { cert: 'PEM' } }, /mutual TLS needs both 'ssl.cert' .* and 'ssl.key'.*only cert is set/],
    [{ sasl: 'plain' }, /Config 'sasl' must be an object \{ mechanism, username, password \}/],
    [{ sasl: { mechanism: 'gssapi', username: 'a', password: SECRET } }, /Config 'sasl.mechanism' must be one of 'plain', 'scram-sha-256', 'scram-sha-512', 'oauthbearer', got "gssapi"/],
    [{ sasl: { mechanism: 'aws', username: 'a', password: SECRET } }, /'sasl.mechanism' must be one of/],
    [{ sasl: { username: 'a', password: SECRET } }, /'sasl.mechanism' must be one of .*got undefined/],
    [{ sasl: { mechanism: 'plain', password: SECRET } }, /Config 'sasl.username' must be a non-empty string \(the SASL PLAIN user\), got undefined/],
    [{ sasl: { mechanism: 'scram-sha-256', username: 'bob' } }, /Config 'sasl.password' must be a non-empty string \(the password of SASL user 'bob'\), got undefined/],
    [{ sasl: { mechanism: 'scram-sha-256', username: 'bob', password: '' } }, /'sasl.password' must be a non-empty string .*got an empty string/],
    [{ sasl: { mechanism: 'oauthbearer' } }, /Config 'sasl.oauthBearerProvider' must be a function/],
    [{ cluster: new EmbeddedKafkaCluster(), bootstrapServers: undefined, ssl: true }, /Config 'ssl' applies to 'bootstrapServers' only/],
  ])('rejects %o with a ConfigError naming the key', (extra, message) => {
    const attempt = () => resolveConfig({ ...base, ...extra } as never);
    expect(attempt).toThrow(ConfigError);
    expect(attempt).toThrow(message);
  });

  it('never echoes a password, even a mistyped one', () => {
    for (const sasl of [{ mechanism: 'bogus', username: 'u', password: SECRET }, { mechanism: 'plain', username: 5, password: SECRET }, { mechanism: 'plain', username: 'u', password: [SECRET] }]) {
      const error = (() => {
        try {
          resolveConfig({ ...base, sasl } as never);
        } catch (e) {
          return e as Error;
        }
        throw new Error('expected a ConfigError');
      })();
      expect(error).toBeInstanceOf(ConfigError);
      expect(error.message).not.toContain(SECRET);
    }
  });

  it('TransactionalProducer and createKafkaCluster validate them too', () => {
    expect(() => new TransactionalProducer({ bootstrapServers: ['localhost:9092'], sasl: { mechanism: 'plain', username: 'u' } as never })).toThrow(/'sasl.password' must be a non-empty string/);
    expect(() => new TransactionalProducer({ cluster: new EmbeddedKafkaCluster(), sasl: { mechanism: 'plain', username: 'u', password: SECRET } })).toThrow(/apply to 'bootstrapServers' only/);
    expect(() => new KafkaJsCluster({ bootstrapServers: ['localhost:9092'], ssl: 'on' as never })).toThrow(/Config 'createKafkaCluster: ssl' must be true/);
  });
});

describe('kafkajs clients: one sasl object each', () => {
  const kafkajs = sluiceKafkaJs().kafkajs;
  const original = kafkajs.Kafka;
  afterEach(() => {
    (kafkajs as { Kafka: typeof original }).Kafka = original;
  });

  /** Records the config of every kafkajs `Kafka` the cluster creates, and the instance. */
  function spyOnKafka(): Array<{ config: KafkaConfig; kafka: Kafka }> {
    const made: Array<{ config: KafkaConfig; kafka: Kafka }> = [];
    (kafkajs as { Kafka: typeof original }).Kafka = class extends original {
      constructor(config: KafkaConfig) {
        super(config);
        made.push({ config, kafka: this });
      }
    };
    return made;
  }

  /** The sasl object kafkajs' connections of `kafka` will log in with (its connection pool builder's). */
  function saslInsideKafkaJs(kafka: Kafka): unknown {
    const cluster = createReaderCluster(kafka, 1) as unknown as { connectionPoolBuilder: { build(o: { host: string; port: number }): Promise<{ sasl: unknown }> } };
    return cluster.connectionPoolBuilder.build({ host: 'localhost', port: 9092 });
  }

  it('every client (admin, producers, consumer, readers) gets its own copy; the user’s object is never handed to kafkajs', async () => {
    const made = spyOnKafka();
    const userSasl = { mechanism: 'scram-sha-512' as const, username: 'alice', password: SECRET };
    const cluster = new KafkaJsCluster({ bootstrapServers: ['localhost:9092'], sasl: userSasl, ssl: true });
    cluster.admin();
    cluster.admin();
    cluster.producer({ transactionalId: 'app-0_0', clientId: 'app-0_0' });
    cluster.producer({ transactionalId: 'app-0_0', clientId: 'app-0_0' }); // same client id: still its own copy
    cluster.consumer({ groupId: 'app', clientId: 'app-consumer' });
    cluster.reader({ clientId: 'app-restore' });
    expect(made).toHaveLength(6);
    const objects = made.map((m) => m.config.sasl);
    expect(new Set(objects).size).toBe(6);
    for (const sasl of objects) {
      expect(sasl).toEqual(userSasl);
      expect(sasl).not.toBe(userSasl);
    }
    expect(made.every((m) => m.config.ssl === true)).toBe(true);
    // what kafkajs' connections actually hold is that client's copy
    const inside = await Promise.all(made.map((m) => saslInsideKafkaJs(m.kafka)));
    inside.forEach((pool, i) => expect((pool as { sasl: unknown }).sasl).toBe(objects[i]));
    // kafkajs writes its login closure on the object (broker/saslAuthenticator/index.js): it stays on that client's copy
    (objects[0] as { authenticationProvider?: unknown }).authenticationProvider = () => 'stale login';
    cluster.admin();
    expect((made[6]?.config.sasl as { authenticationProvider?: unknown }).authenticationProvider).toBeUndefined();
    expect(userSasl).not.toHaveProperty('authenticationProvider');
  });

  it('no sasl and no ssl: kafkajs gets neither', () => {
    const made = spyOnKafka();
    new KafkaJsCluster({ bootstrapServers: ['localhost:9092'] }).admin();
    expect(made[0]?.config).not.toHaveProperty('sasl');
    expect(made[0]?.config).not.toHaveProperty('ssl');
  });
});

describe('hideSecrets', () => {
  it('hides passwords, private keys, passphrases, pfx and token providers at any depth; keeps the rest', () => {
    const config = {
      applicationId: 'app',
      sasl: { mechanism: 'plain', username: 'api-key', password: SECRET },
      ssl: { ca: ['-----BEGIN CERTIFICATE-----\nabc'], cert: Buffer.from('cert'), key: Buffer.from(SECRET), passphrase: SECRET, servername: 'broker' },
      nested: { sasl: { mechanism: 'oauthbearer', oauthBearerProvider: () => Promise.resolve({ value: SECRET }) }, password: SECRET, key: 'record-key' },
    };
    const shown = hideSecrets(config);
    expect(JSON.stringify(shown)).not.toContain(SECRET);
    expect(shown).toEqual({
      applicationId: 'app',
      sasl: { mechanism: 'plain', username: 'api-key', password: '[hidden]' },
      ssl: { ca: '<1 PEM item(s), 31 bytes>', cert: '<1 PEM item(s), 4 bytes>', key: '[hidden]', passphrase: '[hidden]', servername: 'broker' },
      nested: { sasl: { mechanism: 'oauthbearer', oauthBearerProvider: '[hidden]' }, password: '[hidden]', key: 'record-key' },
    });
    expect(config.sasl.password).toBe(SECRET); // the original is untouched
  });
});

describe('kafkajs log lines', () => {
  it('every field kafkajs logs goes through hideSecrets', () => {
    const lines: string[] = [];
    const logger = pino({ level: 'trace' }, { write: (line: string) => void lines.push(line) });
    const log = pinoLogCreator(logger)(kafkajsModule.logLevel.DEBUG);
    log({
      namespace: 'Connection',
      level: kafkajsModule.logLevel.DEBUG,
      label: 'DEBUG',
      log: { message: 'Connecting', timestamp: 'now', logger: 'kafkajs', broker: 'b:9096', sasl: { mechanism: 'plain', username: 'u', password: SECRET }, ssl: { key: SECRET } },
    });
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toContain(SECRET);
    expect(JSON.parse(lines[0]!)).toMatchObject({ namespace: 'Connection', broker: 'b:9096', sasl: { username: 'u', password: '[hidden]' }, ssl: { key: '[hidden]' }, msg: 'Connecting' });
  });
});
