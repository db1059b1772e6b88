/**
 * The table from Kafka Streams' property keys to sluice's `KafkaStreams`
 * config keys, used by `sluice run --config app.properties`.
 *
 * 1. `STREAMS_KEYS`: Streams keys with a sluice key of their own.
 * 2. Consumer and producer keys with a sluice key (`session.timeout.ms`,
 *    `transaction.timeout.ms`, ...), unprefixed or with the client prefix.
 * 3. Client keys without one go to `producerConfig` / `consumerConfig` /
 *    `adminConfig` (Kafka's dotted names kept): unprefixed to every client
 *    whose override table (runtime/config-client-keys.ts) accepts them,
 *    `producer.` / `consumer.` / `main.consumer.` / `admin.` prefixed to that
 *    client; a prefixed key overrides an unprefixed one, `main.consumer.`
 *    overrides `consumer.`. A prefixed key that client's table refuses or does
 *    not hold is an error naming the property. `topic.` keys go to `topicConfig`.
 * 4. Security keys: properties-security.ts.
 * 5. `IGNORED_KEYS`: keys that mean nothing for sluice and change nothing.
 * 6. Every other key is an error naming it and saying sluice has no equivalent
 *    (`NOT_YET`: "no equivalent yet", with the reason).
 *
 * The result is a loosely typed record: it holds keys (`ssl`, `sasl`,
 * `producerConfig`, ...) that `KafkaStreamsConfig` declares elsewhere.
 */
import {
  kafkaHandlerClassNames,
  kafkaHandlerFor,
  kafkaSerdeClassNames,
  kafkaSerdeFor,
  kafkaTimestampExtractorClassNames,
  kafkaTimestampExtractorFor,
  type HandlerSlotKey,
} from '../../runtime/kafka-class-names.js';
import { mapSecurity } from './properties-security.js';
import type { PropertyReader } from './property-reader.js';
import { CLIENT_KEYS as RUNTIME_CLIENT_KEYS, acceptedKeys } from '../../runtime/config-client-keys.js';
import { KEY_RULES, CLIENT_KEYS, IGNORED_KEYS, NO_EQUIVALENT, NOT_YET, type Client } from './properties-table.js';

export { IGNORED_KEYS, NO_EQUIVALENT, NOT_YET } from './properties-table.js';

/** What a properties file maps to. */
export interface MappedProperties {
  /** sluice config keys and their values (loosely typed: see the module comment). */
  config: Record<string, unknown>;
  /** For each sluice key, the property that set it (for messages). */
  sources: Map<string, string>;
  /** For each property that set a sluice key, that key (`producerConfig['linger.ms']` for a client key). */
  targets: Map<string, string>;
  /** Keys accepted without effect, with the reason. */
  ignored: { key: string; reason: string }[];
  /** `topology.optimization`, applied when the CLI builds the module's StreamsBuilder. */
  topologyOptimization?: string;
}

const PREFIXES: readonly { prefix: string; client: Client }[] = [
  { prefix: 'producer.', client: 'producer' },
  { prefix: 'consumer.', client: 'consumer' },
  { prefix: 'admin.', client: 'admin' },
  { prefix: 'main.consumer.', client: 'consumer' },
];
const CONFIG_OF: Readonly<Record<Client, string>> = { producer: 'producerConfig', consumer: 'consumerConfig', admin: 'adminConfig' };
const SECURITY = /^(security\.protocol|ssl\.|sasl\.)/;

function handler(r: PropertyReader, key: string, slot: HandlerSlotKey): object | undefined {
  const name = r.get(key);
  if (name === undefined) return undefined;
  const h = kafkaHandlerFor(slot, name);
  if (h === undefined) {
    throw r.error(key, `sluice has no equivalent of ${name}; it maps ${kafkaHandlerClassNames(slot).join(', ')}. A handler of your own goes in the module's config (defineApp({ config: { ${slot} } }))`);
  }
  return h;
}

function serde(r: PropertyReader, key: string, slot: string): unknown {
  const name = r.get(key);
  if (name === undefined) return undefined;
  const s = kafkaSerdeFor(name);
  if (s === undefined) throw r.error(key, `sluice has no equivalent of ${name}; it maps ${kafkaSerdeClassNames().join(', ')}. Other serdes go in the module's config (${slot})`);
  return s;
}

function extractor(r: PropertyReader, key: string): unknown {
  const name = r.get(key);
  if (name === undefined) return undefined;
  const e = kafkaTimestampExtractorFor(name);
  if (e === undefined) throw r.error(key, `sluice has no equivalent of ${name}; it maps ${kafkaTimestampExtractorClassNames().join(', ')}. An extractor of your own goes in the module's config (defaultTimestampExtractor)`);
  return e;
}

/** Maps the properties `r` holds; `cwd` resolves relative file locations. Throws ConfigError naming the first key it cannot map. */
export function mapProperties(r: PropertyReader, cwd: string): MappedProperties {
  const config: Record<string, unknown> = {};
  const sources = new Map<string, string>();
  const ignored: { key: string; reason: string }[] = [];
  const targets = new Map<string, string>();
  const set = (sluiceKey: string, kafkaKey: string, value: unknown, target = sluiceKey): void => {
    if (value === undefined) return;
    config[sluiceKey] = value;
    sources.set(sluiceKey, kafkaKey);
    targets.set(kafkaKey, target);
  };
  const client = (c: Client, name: string, kafkaKey: string): void => {
    const target = CONFIG_OF[c];
    const map = (config[target] as Record<string, string> | undefined) ?? {};
    map[name] = r.get(kafkaKey) ?? '';
    set(target, kafkaKey, map, targets.has(kafkaKey) ? `${targets.get(kafkaKey) ?? ''}, ${target}['${name}']` : `${target}['${name}']`);
  };
  for (const key of r.keys()) if (key === 'config.providers' || key.startsWith('config.providers.')) r.use(key);

  // 1.-2. Keys with a sluice key of their own, unprefixed first, then prefixed (which override).
  for (const [kafkaKey, rule] of Object.entries(KEY_RULES)) if (r.has(kafkaKey)) set(rule.sluice, kafkaKey, rule.parse(r, kafkaKey));
  set('deserializationExceptionHandler', 'default.deserialization.exception.handler', handler(r, 'default.deserialization.exception.handler', 'deserializationExceptionHandler'));
  set('deserializationExceptionHandler', 'deserialization.exception.handler', handler(r, 'deserialization.exception.handler', 'deserializationExceptionHandler'));
  set('productionExceptionHandler', 'default.production.exception.handler', handler(r, 'default.production.exception.handler', 'productionExceptionHandler'));
  set('productionExceptionHandler', 'production.exception.handler', handler(r, 'production.exception.handler', 'productionExceptionHandler'));
  set('processingExceptionHandler', 'processing.exception.handler', handler(r, 'processing.exception.handler', 'processingExceptionHandler'));
  set('defaultKeySerde', 'default.key.serde', serde(r, 'default.key.serde', 'defaultKeySerde'));
  set('defaultValueSerde', 'default.value.serde', serde(r, 'default.value.serde', 'defaultValueSerde'));
  set('defaultTimestampExtractor', 'default.timestamp.extractor', extractor(r, 'default.timestamp.extractor'));
  const topologyOptimization = r.get('topology.optimization');

  // 3. Client keys: unprefixed by the clients that know them, then the prefixed ones.
  for (const key of r.unused()) {
    const clients = CLIENT_KEYS[key];
    if (clients !== undefined && !SECURITY.test(key)) for (const c of clients) client(c, key, key);
  }
  for (const { prefix, client: c } of PREFIXES) {
    for (const key of r.unused()) {
      if (!key.startsWith(prefix)) continue;
      const name = key.slice(prefix.length);
      if (SECURITY.test(name) || name === 'bootstrap.servers' || name === 'client.id') {
        throw r.error(key, `sluice uses one ${name.split('.')[0] === 'bootstrap' || name === 'client.id' ? name : 'security setting'} for all its clients: set ${name} without the ${prefix} prefix`);
      }
      const rule = KEY_RULES[`${c}:${name}`];
      if (rule !== undefined) set(rule.sluice, key, rule.parse(r, key));
      else if (!(name in NO_EQUIVALENT) && !(name in NOT_YET) && IGNORED_KEYS[key] === undefined) {
        const spec = Object.hasOwn(RUNTIME_CLIENT_KEYS[c], name) ? RUNTIME_CLIENT_KEYS[c][name] : undefined;
        if (spec === undefined) throw r.error(key, `sluice has no equivalent of the ${c} setting ${name}; the ${c} settings it maps: ${acceptedKeys(c).join(', ')}`);
        if (spec.kind === 'refused') throw r.error(key, `cannot be set: ${spec.why}`);
        client(c, name, key);
      }
    }
  }
  for (const key of r.unused()) {
    if (key.startsWith('topic.') && key.length > 6) {
      const topic = (config.topicConfig as Record<string, string> | undefined) ?? {};
      topic[key.slice(6)] = r.get(key) ?? '';
      set('topicConfig', key, topic, `topicConfig['${key.slice(6)}']`);
    }
  }

  // 4. Security.
  const security = mapSecurity(r, cwd);
  set('ssl', 'security.protocol', security.ssl);
  set('sasl', 'sasl.jaas.config', security.sasl);

  // 5. Ignored keys.
  for (const key of r.unused()) {
    const reason = IGNORED_KEYS[key] ?? (/^schema\.registry\.|^basic\.auth\./.test(key) ? IGNORED_KEYS['schema.registry.url'] : undefined);
    if (reason !== undefined) {
      r.use(key);
      ignored.push({ key, reason });
    }
  }

  // 6. Whatever is left has no equivalent.
  const left = r.unused()[0];
  if (left !== undefined) {
    const bare = left.replace(/^(main\.consumer|restore\.consumer|global\.consumer|consumer|producer|admin)\./, '');
    const why = NO_EQUIVALENT[left] ?? NO_EQUIVALENT[bare];
    if (/^(restore|global)\.consumer\./.test(left)) {
      throw r.error(left, `sluice has no equivalent: it has one consumerConfig for all its consumers; set consumer.${bare} (every consumer) instead`);
    }
    const notYet = NOT_YET[left] ?? NOT_YET[bare];
    if (notYet !== undefined) throw r.error(left, `sluice has no equivalent yet: ${notYet}`);
    throw r.error(left, `sluice has no equivalent${why ? `: ${why}` : ' (see docs/migrating-from-kafka-streams.md for the keys it maps)'}`);
  }
  if (topologyOptimization !== undefined) targets.set('topology.optimization', 'builder.build({ topologyOptimization })');
  return { config, sources, targets, ignored, ...(topologyOptimization === undefined ? {} : { topologyOptimization }) };
}
