/**
 * Kafka Streams' WordCountDemo (streams/examples/.../wordcount/WordCountDemo.java),
 * ported: counts the words of the lines in `streams-plaintext-input` and writes
 * every updated count to `streams-wordcount-output` (key: the word, value: its
 * count as an 8-byte big-endian long, readable by Java's LongDeserializer).
 *
 * The count lives in a state store (a persistent one by default, as in Kafka)
 * that is changelogged to `<applicationId>-<storeName>-changelog`, so a
 * restarted application continues its counts.
 */
import { readFileSync } from 'node:fs';
import { Serdes, StreamsBuilder, type KafkaStreamsConfig, type Materialized } from '../../src/index.js';

/** The input topic: values are lines of text. */
export const INPUT_TOPIC = 'streams-plaintext-input';
/** The output topic: one record per updated count. */
export const OUTPUT_TOPIC = 'streams-wordcount-output';

/**
 * The demo's configuration. `statestoreCacheMaxBytes: 0` (Kafka's
 * `statestore.cache.max.bytes=0`) makes every count update visible downstream;
 * `stateDir` says where persistent stores keep their files.
 */
export type WordCountConfig = KafkaStreamsConfig & { statestoreCacheMaxBytes?: number; stateDir?: string };

/** Maps Java property names of a properties file to sluice config keys. */
const PROPERTY_KEYS: Readonly<Record<string, keyof WordCountConfig>> = {
  'application.id': 'applicationId',
  'bootstrap.servers': 'bootstrapServers',
  'state.dir': 'stateDir',
  'auto.offset.reset': 'autoOffsetReset',
};

/** Reads `key=value` lines of a Java properties file (`#`/`!` comments, blank lines skipped). */
function readProperties(path: string): Map<string, string> {
  const properties = new Map<string, string>();
  for (const raw of readFileSync(path, 'utf8').split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith('!')) continue;
    const at = line.search(/[=:]/);
    if (at < 0) properties.set(line, '');
    else properties.set(line.slice(0, at).trim(), line.slice(at + 1).trim());
  }
  return properties;
}

/**
 * The config of the demo, as `WordCountDemo.streamsConfig(args)`: an optional
 * properties file (`args[0]`; `application.id`, `bootstrap.servers`,
 * `state.dir`, `auto.offset.reset`) over the demo's defaults. Extra arguments
 * are ignored with a warning.
 */
export function streamsConfig(args: readonly string[] | null): WordCountConfig {
  const fromFile: Record<string, string> = {};
  if (args !== null && args.length > 0) {
    for (const [key, value] of readProperties(args[0]!)) {
      const mapped = PROPERTY_KEYS[key];
      if (mapped !== undefined) fromFile[mapped] = value;
    }
    if (args.length > 1) console.log('Warning: Some command line arguments were ignored. This demo only accepts an optional configuration file.');
  }
  return {
    applicationId: fromFile.applicationId ?? 'streams-wordcount',
    bootstrapServers: fromFile.bootstrapServers ?? 'localhost:9092',
    statestoreCacheMaxBytes: 0,
    defaultKeySerde: Serdes.String(),
    defaultValueSerde: Serdes.String(),
    // earliest, so that the demo can be re-run with the same pre-loaded data
    autoOffsetReset: fromFile.autoOffsetReset === 'latest' ? 'latest' : 'earliest',
    ...(fromFile.stateDir === undefined ? {} : { stateDir: fromFile.stateDir }),
  };
}

/** Java's `String.split(regex)`: like JS `split`, but trailing empty strings are removed. */
function javaSplit(text: string, separator: RegExp): string[] {
  const parts = text.split(separator);
  while (parts.length > 0 && parts[parts.length - 1] === '') parts.pop();
  return parts;
}

/** Options of {@link createWordCountStream} (not in Kafka's demo, which has fixed topics and a generated store). */
export interface WordCountOptions {
  /** Default {@link INPUT_TOPIC}. */
  inputTopic?: string;
  /** Default {@link OUTPUT_TOPIC}. */
  outputTopic?: string;
  /** Names or chooses the count's store; by default its name is generated and it is persistent. */
  materialized?: Materialized<string, number>;
}

/**
 * Adds the word count to `builder`, as `WordCountDemo.createWordCountStream`:
 * lines → lower-cased words (split on `\W+`) → grouped by word → count → output.
 * The builder is typed `StreamsBuilder<string, string>` because the config's
 * default serdes are String (Kafka's `default.key/value.serde`). Returns the
 * name of the count's store.
 */
export function createWordCountStream(builder: StreamsBuilder<string, string>, options: WordCountOptions = {}): string {
  const source = builder.stream(options.inputTopic ?? INPUT_TOPIC); // the config's default serdes: String, String
  const counts = source
    .flatMapValues((value) => javaSplit(value.toLowerCase(), /\W+/))
    .groupBy((_key, value) => value)
    .count(options.materialized ?? {});
  // the value serde is overridden to Long
  counts.toStream().to(options.outputTopic ?? OUTPUT_TOPIC, { keySerde: Serdes.String(), valueSerde: Serdes.Long() });
  if (counts.queryableStoreName === undefined) throw new Error('a count is always materialized');
  return counts.queryableStoreName;
}
