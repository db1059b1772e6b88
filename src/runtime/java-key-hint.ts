/**
 * A hint for a Kafka (Java) style key given to the KafkaStreams config object
 * (`application.id`, `commit.interval.ms`, `max.poll.interval.ms`): the sluice
 * key to write instead, or the client config it belongs in. Used by the
 * "Unknown config key" error (config.ts).
 */
import { CLIENT_KEYS, type ClientKind } from './config-client-keys.js';

/** Kafka keys whose sluice key is not their camelCase form. */
const RENAMED: Readonly<Record<string, string>> = {
  'cache.max.bytes.buffering': 'statestoreCacheMaxBytes',
  'default.key.serde': 'defaultKeySerde',
  'default.value.serde': 'defaultValueSerde',
  'default.timestamp.extractor': 'defaultTimestampExtractor',
  'default.deserialization.exception.handler': 'deserializationExceptionHandler',
  'default.production.exception.handler': 'productionExceptionHandler',
  'processing.exception.handler': 'processingExceptionHandler',
  'deserialization.exception.handler': 'deserializationExceptionHandler',
  'production.exception.handler': 'productionExceptionHandler',
  'group.id': 'applicationId',
};

const PREFIXES: readonly [string, ClientKind][] = [
  ['main.consumer.', 'consumer'],
  ['consumer.', 'consumer'],
  ['producer.', 'producer'],
  ['admin.', 'admin'],
];

const camel = (key: string): string => key.replace(/[._]([a-z0-9])/g, (_, c: string) => c.toUpperCase());

const accepts = (client: ClientKind, name: string): boolean => {
  const spec = CLIENT_KEYS[client][name];
  return spec !== undefined && spec.kind !== 'refused';
};

/**
 * The hint for an unknown key (with a leading space), or '' when the key does
 * not look like a Kafka key.
 * 1. A Kafka Streams key with a sluice key: name it.
 * 2. A client key (prefixed or not) the client overrides take: name the `<client>Config` to put it in.
 * 3. Any other dotted key: say sluice's keys are camelCase.
 */
export function javaKeyHint(key: string, known: ReadonlySet<string>): string {
  if (!key.includes('.')) return '';
  // 1. A Kafka Streams key with a sluice key.
  const sluice = RENAMED[key] ?? camel(key);
  if (known.has(sluice)) return ` (a Kafka property name: sluice's key is '${sluice}', e.g. { ${sluice}: ... })`;
  // 2. A client key, prefixed or not.
  const prefix = PREFIXES.find(([p]) => key.startsWith(p));
  const name = prefix === undefined ? key : key.slice(prefix[0].length);
  const clients = prefix === undefined ? (['consumer', 'producer', 'admin'] as const).filter((c) => accepts(c, name)) : [prefix[1]].filter((c) => accepts(c, name));
  if (clients.length > 0) {
    const where = clients.map((c) => `${c}Config: { '${name}': ... }`).join(' or ');
    return ` (a Kafka client property: put it in ${where})`;
  }
  // 3. Any other dotted key.
  return " (sluice's config keys are camelCase, e.g. applicationId, bootstrapServers, commitIntervalMs; docs/migrating-from-kafka-streams.md lists each Kafka property's sluice key)";
}
