/**
 * The serde of a store builder given `null` (Kafka: the context's default
 * serde, resolved when the store is initialised). The runtime binds it to its
 * `defaultKeySerde` / `defaultValueSerde` when the topology is built for it.
 */
import type { Headers } from '../../records/types.js';
import type { Serde } from '../../serdes/serde.js';

/** Stands for the runtime's default key or value serde in a store builder. */
export class ContextDefaultSerde implements Serde<unknown> {
  #bound: Serde<unknown> | undefined;

  constructor(
    readonly side: 'key' | 'value',
    /** The store, for the error when it is used unbound. */
    readonly storeName: string,
  ) {}

  get name(): string {
    return this.#bound?.name ?? 'default';
  }

  /** Binds the runtime's default serde. */
  bind(serde: Serde<unknown>): void {
    this.#bound = serde;
  }

  get #target(): Serde<unknown> {
    if (this.#bound !== undefined) return this.#bound;
    const key = this.side === 'key' ? 'defaultKeySerde' : 'defaultValueSerde';
    throw new TypeError(`Store '${this.storeName}' was built without a ${this.side} serde and has no default; give one to its builder, or set '${key}' in the config`);
  }

  serialize(topic: string, data: unknown, headers?: Headers): Buffer | null {
    return this.#target.serialize(topic, data, headers);
  }

  deserialize(topic: string, data: Buffer | null, headers?: Headers): unknown {
    return this.#target.deserialize(topic, data, headers);
  }
}

const byBuilder = new WeakMap<object, ContextDefaultSerde[]>();

/** `serde`, or (null / undefined) a {@link ContextDefaultSerde} recorded for `builder`. */
export function serdeOrContextDefault<T>(builder: object, storeName: string, side: 'key' | 'value', serde: Serde<T> | null | undefined): Serde<T> {
  if (serde !== null && serde !== undefined) return serde;
  const fallback = new ContextDefaultSerde(side, storeName);
  const list = byBuilder.get(builder) ?? [];
  byBuilder.set(builder, list);
  list.push(fallback);
  return fallback as Serde<T>;
}

/** The default serdes a store builder stands for (none when it was given both serdes). */
export function contextDefaultSerdes(builder: object): readonly ContextDefaultSerde[] {
  return byBuilder.get(builder) ?? [];
}
