/**
 * StreamsBuilder: the entry point of the DSL.
 */
import { TopologyError } from '../errors.js';
import type { StateStore, StoreBuilder } from '../processors/state/state-store.js';
import type { Serde } from '../serdes/serde.js';
import { Serdes } from '../serdes/serdes.js';
import { nameOr, type BuilderContext } from './internal/builder-context.js';
import { KStream } from './kstream.js';
import type { Consumed } from './options.js';
import { Topology } from './topology.js';

/** Options of a {@link StreamsBuilder}. */
export interface StreamsBuilderOptions {
  /** Key serde when a stream or sink names none (default: `Serdes.Buffer()` for sources, none for sinks after a key change). */
  defaultKeySerde?: Serde<unknown>;
  /** Value serde when a stream or sink names none. */
  defaultValueSerde?: Serde<unknown>;
}

/**
 * Builds a topology with the DSL. Node names are generated as Kafka Streams
 * does (`KSTREAM-SOURCE-0000000000`, `KSTREAM-FILTER-0000000001`, ...) unless
 * a `Named` / `name` is given.
 */
export class StreamsBuilder {
  private readonly topology = new Topology();
  private index = 0;
  private readonly ctx: BuilderContext;

  constructor(options: StreamsBuilderOptions = {}) {
    this.ctx = {
      topology: this.topology,
      newName: (prefix) => `${prefix}${String(this.index++).padStart(10, '0')}`,
      defaultKeySerde: options.defaultKeySerde,
      defaultValueSerde: options.defaultValueSerde,
    };
  }

  /** A stream of the records of `topics`, deserialized with `consumed`'s serdes. */
  stream<K = Buffer, V = Buffer>(topics: string | readonly string[], consumed: Consumed<K, V> = {}): KStream<K, V> {
    const list = typeof topics === 'string' ? [topics] : [...topics];
    const name = nameOr(this.ctx, consumed.name, 'KSTREAM-SOURCE-');
    const keySerde = consumed.keySerde ?? (this.ctx.defaultKeySerde as Serde<K> | undefined) ?? (Serdes.Buffer() as unknown as Serde<K>);
    const valueSerde = consumed.valueSerde ?? (this.ctx.defaultValueSerde as Serde<V> | undefined) ?? (Serdes.Buffer() as unknown as Serde<V>);
    this.topology.addSource<K, V>(name, list, { keyDeserializer: keySerde, valueDeserializer: valueSerde });
    return new KStream<K, V>(this.ctx, name, { key: keySerde, value: valueSerde }, false);
  }

  /** Adds a state store for `stream.process(supplier, storeName)`. */
  addStateStore(storeBuilder: StoreBuilder<StateStore>): this {
    this.topology.addStateStore(storeBuilder);
    return this;
  }

  /** The built topology, validated (a TopologyError names what is wrong). */
  build(): Topology {
    if (this.index === 0) throw new TopologyError('StreamsBuilder.build(): the topology is empty; add a stream with builder.stream(topic)');
    this.topology.validate();
    return this.topology;
  }
}
