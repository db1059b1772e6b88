/**
 * Word filter: the same small topology built two ways.
 *
 * Input `sentences` (key: user, value: a sentence). Output `words`: one record
 * per kept word (key: user, value: the word in lower case), where a kept word
 * has at least 3 letters and is no stop word. Output `word-counts`: running
 * count per word (key: word), from a second sub-topology reading `words` keyed
 * by word (an explicit re-keying: `selectKey` + `to` + `stream`).
 *
 * - {@link buildWithDsl}: StreamsBuilder / KStream.
 * - {@link buildWithProcessorApi}: low-level Topology with processors and a state store.
 */
import {
  StreamRecord,
  Serdes,
  Stores,
  StreamsBuilder,
  Topology,
  type KeyValueStore,
  type Processor,
  type ProcessorContext,
} from '../../src/index.js';

/** Topic names of the example. */
export const TOPICS = { sentences: 'sentences', words: 'words', byWord: 'words-by-word', counts: 'word-counts' } as const;

const STOP_WORDS = new Set(['the', 'and', 'for', 'with', 'that', 'this']);

/** The words of a sentence that the filter keeps, in lower case. */
export function keptWords(sentence: string): string[] {
  return sentence
    .toLowerCase()
    .split(/[^a-z]+/)
    .filter((w) => w.length >= 3 && !STOP_WORDS.has(w));
}

const S = Serdes.String();
const N = Serdes.Int32();

/** The word filter with the DSL. */
export function buildWithDsl(): Topology {
  const builder = new StreamsBuilder();
  const words = builder
    .stream<string, string>(TOPICS.sentences, { keySerde: S, valueSerde: S })
    .filter((_user, sentence) => sentence !== null && sentence.trim() !== '')
    .flatMapValues((sentence) => sentence.toLowerCase().split(/[^a-z]+/))
    .filterNot((_user, word) => word.length < 3 || STOP_WORDS.has(word));
  words.to(TOPICS.words, { keySerde: S, valueSerde: S });
  words.selectKey((_user, word) => word).to(TOPICS.byWord, { keySerde: S, valueSerde: S });
  builder
    .stream<string, string>(TOPICS.byWord, { keySerde: S, valueSerde: S })
    .groupByKey()
    .count({ storeName: 'word-counts', valueSerde: N })
    .toStream()
    .to(TOPICS.counts, { keySerde: S, valueSerde: N });
  return builder.build();
}

/** Splits sentences and forwards kept words (key: user). */
class SplitProcessor implements Processor<string, string, string, string> {
  private context!: ProcessorContext<string, string>;
  init(context: ProcessorContext<string, string>): void {
    this.context = context;
  }
  process(record: StreamRecord<string, string>): void {
    if (record.value === null) return;
    for (const word of keptWords(record.value)) this.context.forward(record.withValue(word));
  }
}

/** Counts words in the `word-counts` store and forwards the new count (key: word). */
class CountProcessor implements Processor<string, string, string, number> {
  private context!: ProcessorContext<string, number>;
  private store!: KeyValueStore<string, number>;
  init(context: ProcessorContext<string, number>): void {
    this.context = context;
    this.store = context.getStateStore<KeyValueStore<string, number>>('word-counts');
  }
  process(record: StreamRecord<string, string>): void {
    const count = (this.store.get(record.key) ?? 0) + 1;
    this.store.put(record.key, count);
    this.context.forward(record.withValue(count));
  }
}

/** The word filter with the Processor API. */
export function buildWithProcessorApi(): Topology {
  return new Topology()
    .addSource('sentences-source', TOPICS.sentences, { keyDeserializer: S, valueDeserializer: S })
    .addProcessor('split', () => new SplitProcessor(), 'sentences-source')
    .addSink('words-sink', TOPICS.words, { keySerializer: S, valueSerializer: S }, 'split')
    .addProcessor(
      'rekey',
      () => {
        let context: ProcessorContext<string, string>;
        return {
          init: (c: ProcessorContext<string, string>) => void (context = c),
          process: (r: StreamRecord<string, string>) => context.forward(r.withKey(r.value)),
        };
      },
      'split',
    )
    .addSink('by-word-sink', TOPICS.byWord, { keySerializer: S, valueSerializer: S }, 'rekey')
    .addSource('by-word-source', TOPICS.byWord, { keyDeserializer: S, valueDeserializer: S })
    .addProcessor('count', () => new CountProcessor(), 'by-word-source')
    .addStateStore(Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore('word-counts'), S, N), 'count')
    .addSink('counts-sink', TOPICS.counts, { keySerializer: S, valueSerializer: N }, 'count');
}
