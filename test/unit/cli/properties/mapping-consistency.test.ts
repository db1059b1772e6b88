/**
 * The properties mapping (src/cli/internal/properties-table.ts, properties-map.ts)
 * against the runtime's config validation (resolveConfig, the client override
 * tables of src/runtime/config-client-keys.ts): every sluice key the mapping can
 * produce is accepted by resolveConfig; every client key it hands to
 * `producerConfig` / `consumerConfig` / `adminConfig` (as a string, as a file's
 * values are) is accepted by the client validation; keys sluice has no equivalent
 * of yet are an error naming the property, never a key resolveConfig refuses
 * later under another name. The docs' properties tables name every such key.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfigFile } from '../../../../src/cli/config-file.js';
import { IGNORED_KEYS, NOT_YET, mapProperties } from '../../../../src/cli/internal/properties-map.js';
import { CLIENT_KEYS, KEY_RULES } from '../../../../src/cli/internal/properties-table.js';
import { PropertyReader } from '../../../../src/cli/internal/property-reader.js';
import { parseProperties } from '../../../../src/cli/internal/java-properties.js';
import { ConfigError } from '../../../../src/errors.js';
import { resolveConfig } from '../../../../src/runtime/config.js';
import { CLIENT_KEYS as RUNTIME_CLIENT_KEYS, type ClientKey, type ClientKind } from '../../../../src/runtime/config-client-keys.js';
import { ROOT } from '../spawn-cli.js';

const BASE = ['application.id=a', 'bootstrap.servers=k1:9092'];
const CLIENTS: ClientKind[] = ['producer', 'consumer', 'admin'];
const PREFIXES: Record<ClientKind, string[]> = { producer: ['producer.'], consumer: ['consumer.', 'main.consumer.'], admin: ['admin.'] };

/** A valid value for each Kafka key with a sluice key of its own (KEY_RULES, without client prefix). */
const SAMPLES: Record<string, string> = {
  'application.id': 'orders',
  'bootstrap.servers': 'k1:9092,k2:9092',
  'client.id': 'orders-1',
  'processing.guarantee': 'exactly_once_v2',
  'replication.factor': '3',
  'num.standby.replicas': '1',
  'state.dir': '/var/lib/kafka-streams',
  'commit.interval.ms': '200',
  'statestore.cache.max.bytes': '0',
  'cache.max.bytes.buffering': '1048576',
  'state.cleanup.delay.ms': '600000',
  'application.server': 'host-1:7070',
  'acceptable.recovery.lag': '10000',
  'max.warmup.replicas': '2',
  'probing.rebalance.interval.ms': '600000',
  'num.stream.threads': '1',
  'max.task.idle.ms': '0',
  'buffered.records.per.partition': '1000',
  'async.call.timeout.ms': '30000',
  'repartition.purge.interval.ms': '0',
  'default.dsl.store': 'rocksDB',
  'session.timeout.ms': '45000',
  'heartbeat.interval.ms': '3000',
  'auto.offset.reset': 'latest',
  'group.instance.id': 'pod-1',
  'enable.auto.commit': 'false',
  'group.protocol': 'classic',
  'isolation.level': 'read_committed',
  'allow.auto.create.topics': 'false',
  'transaction.timeout.ms': '60000',
  'delivery.timeout.ms': '120000',
  'compression.type': 'zstd',
  acks: 'all',
  'enable.idempotence': 'true',
};

function map(lines: string[]): ReturnType<typeof mapProperties> {
  return mapProperties(new PropertyReader(parseProperties([...BASE, ...lines].join('\n')), 'app.properties'), ROOT);
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
/** resolveConfig of what a file maps to; throws what resolveConfig throws. */
function resolveMapped(config: Record<string, unknown>) {
  return resolveConfig(config as never);
}
/** A value the runtime's table accepts for `key` (a string, as a properties file gives it). */
function sample(key: string, spec: ClientKey): string {
  if (SAMPLES[key] !== undefined) return SAMPLES[key];
  if (spec.kind === 'int') return String(Math.max(spec.min, 1));
  if (spec.kind === 'choice') return Object.entries(spec.values).find(([, v]) => !('refuse' in v))![0];
  throw new Error('refused keys have no sample');
}
/** The Kafka key of a KEY_RULES entry (`producer:linger.ms` → `producer.linger.ms`). */
const kafkaKey = (rule: string): string => rule.replace(/^(producer|consumer):/, '$1.');
const bare = (rule: string): string => rule.replace(/^(producer|consumer):/, '');

describe('every sluice key the mapping produces is accepted by resolveConfig', () => {
  it('has a sample value for every key with a sluice key of its own', () => {
    for (const rule of Object.keys(KEY_RULES)) expect(SAMPLES, rule).toHaveProperty([bare(rule)]);
  });

  it.each(Object.keys(KEY_RULES))('%s', (rule) => {
    const { config } = map([`${kafkaKey(rule)}=${SAMPLES[bare(rule)]}`]);
    if (KEY_RULES[rule]!.sluice !== '') expect(config).toHaveProperty([KEY_RULES[rule]!.sluice]);
    expect(() => resolveMapped(config)).not.toThrow();
  });

  it('all of them at once', () => {
    const lines = Object.keys(KEY_RULES).filter((r) => !r.includes(':')).map((r) => `${r}=${SAMPLES[r]}`);
    const { config } = map(lines);
    const resolved = resolveMapped(config);
    expect(resolved.compressionType).toBe('zstd');
    expect(resolved.repartitionPurgeIntervalMs).toBe(0);
  });

  it('compression.type and producer.compression.type map to compressionType (the prefixed one wins)', () => {
    expect(map(['compression.type=gzip']).config.compressionType).toBe('gzip');
    expect(map(['producer.compression.type=lz4']).config.compressionType).toBe('lz4');
    const both = map(['compression.type=gzip', 'producer.compression.type=snappy']);
    expect(both.config.compressionType).toBe('snappy');
    expect(both.config.producerConfig).toBeUndefined();
    expect(resolveMapped(both.config).compressionType).toBe('snappy');
  });

  it('repartition.purge.interval.ms maps to repartitionPurgeIntervalMs (0 allowed, as the runtime)', () => {
    expect(resolveMapped(map(['repartition.purge.interval.ms=0']).config).repartitionPurgeIntervalMs).toBe(0);
    expect(resolveMapped(map(['repartition.purge.interval.ms=45000']).config).repartitionPurgeIntervalMs).toBe(45000);
    expect(errorOf(() => map(['repartition.purge.interval.ms=-1']))).toContain('repartition.purge.interval.ms in app.properties: must be a whole number >= 0');
  });
});

describe('client keys: what the mapping puts in <client>Config the client validation accepts', () => {
  const accepted = CLIENTS.flatMap((c) => Object.entries(RUNTIME_CLIENT_KEYS[c]).filter(([, spec]) => spec.kind !== 'refused').flatMap(([key, spec]) => PREFIXES[c].map((p) => [c, `${p}${key}`, key, spec] as const)));

  it.each(accepted.map(([c, prop, key, spec]) => [prop, c, key, spec] as const))('%s', (prop, c, key, spec) => {
    const { config } = map([`${prop}=${sample(key, spec)}`]);
    const rule = KEY_RULES[`${c}:${key}`];
    if (rule === undefined) {
      expect((config[`${c}Config`] as Record<string, unknown>)[key]).toBe(sample(key, spec)); // a string, as the file wrote it
    }
    expect(() => resolveMapped(config)).not.toThrow();
  });

  it.each(Object.entries(CLIENT_KEYS))('unprefixed %s goes to the clients that accept it', (key, clients) => {
    const spec = RUNTIME_CLIENT_KEYS[clients[0]!][key]!;
    const { config } = map([`${key}=${sample(key, spec)}`]);
    for (const c of clients) expect(RUNTIME_CLIENT_KEYS[c][key]?.kind, `${c} ${key}`).not.toBe('refused');
    expect(() => resolveMapped(config)).not.toThrow();
  });

  it('unprefixed retries goes to the admin client only (the producer refuses it)', () => {
    expect(map(['retries=3']).config).toMatchObject({ adminConfig: { retries: '3' } });
    expect(map(['retries=3']).config.producerConfig).toBeUndefined();
  });

  // (a refused key with a sluice key of its own, e.g. consumer.group.instance.id → groupInstanceId, is mapped to that instead)
  const refused = CLIENTS.flatMap((c) =>
    Object.entries(RUNTIME_CLIENT_KEYS[c])
      .filter(([key, spec]) => spec.kind === 'refused' && KEY_RULES[`${c}:${key}`] === undefined)
      .flatMap(([key]) => PREFIXES[c].map((p) => `${p}${key}`)),
  );
  it.each(refused)('%s (refused by the runtime) is an error naming the property', (prop) => {
    expect(errorOf(() => map([`${prop}=x`]))).toMatch(new RegExp(`^${prop.replace(/\./g, '\\.')} in app\\.properties: `));
  });

  it('a prefixed key no client table holds is an error naming the property and the accepted keys', () => {
    expect(errorOf(() => map(['producer.frobnicate.ms=5']))).toMatch(/^producer\.frobnicate\.ms in app\.properties: sluice has no equivalent of the producer setting frobnicate\.ms; the producer settings it maps: .*linger\.ms/);
  });
});

describe('keys sluice has no equivalent of yet', () => {
  const keys = Object.keys(NOT_YET);
  it('no longer include max.task.idle.ms nor buffered.records.per.partition (both map to sluice keys)', () => {
    expect(keys).not.toContain('max.task.idle.ms');
    expect(map(['max.task.idle.ms=-1', 'buffered.records.per.partition=500']).config).toMatchObject({ maxTaskIdleMs: -1, bufferedRecordsPerPartition: 500 });
    expect(errorOf(() => map(['max.task.idle.ms=-2']))).toMatch(/^max\.task\.idle\.ms in app\.properties: /);
    expect(errorOf(() => map(['buffered.records.per.partition=0']))).toMatch(/^buffered\.records\.per\.partition in app\.properties: /);
  });

  it.each(keys)('%s: an error naming the property, unprefixed and prefixed', (key) => {
    expect(errorOf(() => map([`${key}=1`]))).toMatch(new RegExp(`^${key.replace(/\./g, '\\.')} in app\\.properties: sluice has no equivalent yet: `));
    expect(errorOf(() => map([`producer.${key}=1`]))).toContain(`producer.${key} in app.properties: sluice has no equivalent yet`);
  });
});

describe('whole files', () => {
  it('the Confluent Cloud fixture resolves', () => {
    const file = loadConfigFile('test/unit/cli/fixtures/confluent-cloud.properties', { CC_API_KEY: 'k', CC_API_SECRET: 's', SR_API_KEY: 'x', SR_API_SECRET: 'y' }, ROOT);
    const resolved = resolveMapped(file.config);
    expect(resolved.compressionType).toBe('zstd');
    expect(resolved.replicationFactor).toBe(3);
  });
});

describe('docs/migrating-from-kafka-streams.md keeps in step', () => {
  const doc = readFileSync(join(ROOT, 'docs/migrating-from-kafka-streams.md'), 'utf8');
  it('names every key without an equivalent yet and every ignored key', () => {
    for (const key of [...Object.keys(NOT_YET), ...Object.keys(IGNORED_KEYS)]) expect(doc, key).toContain(`\`${key}\``);
  });
  it('maps max.task.idle.ms to maxTaskIdleMs', () => {
    expect(doc).toContain('| `max.task.idle.ms` | `maxTaskIdleMs`');
  });
});
