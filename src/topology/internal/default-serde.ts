/**
 * The late-bound default serde: a serde slot the DSL or the low-level
 * `Topology` leaves empty stands for the runtime's `defaultKeySerde` /
 * `defaultValueSerde`, bound by `toRuntime` (Kafka's `default.key.serde`).
 */
import { TopologyError } from '../../errors.js';
import type { Headers } from '../../records/types.js';
import type { Serde } from '../../serdes/serde.js';
import { Serdes } from '../../serdes/serdes.js';

const DEFAULT_SERDE = Symbol.for('sluice.DefaultSerde');

/**
 * A topology as this module sees it: only its identity, the key its default
 * serdes are tracked under (typed `object` so this module, which topology.ts
 * imports, does not import topology.ts back).
 */
type TopologyKey = object;

/** The default serdes created for a topology's stores and processors (bound by {@link toRuntime} with its sources and sinks). */
const trackedDefaults = new WeakMap<TopologyKey, Set<DefaultSerde>>();

/**
 * The serde of a `builder.stream(topic)` side that names none (and whose
 * builder has no default serde): the app's `defaultKeySerde` /
 * `defaultValueSerde`, bound by {@link toRuntime} when the topology is built
 * for a runtime (as Kafka Streams resolves `default.key.serde` from the
 * config), else `Serdes.Buffer()` (the behaviour without defaults). Sinks,
 * stores and processors that inherit it follow the binding. A topology built
 * for two runtimes uses the defaults of the last one.
 * @internal Created by the StreamsBuilder.
 */
export class DefaultSerde implements Serde<unknown> {
  readonly [DEFAULT_SERDE] = true;
  #bound: Serde<unknown> | undefined;
  /** Set on a store's serde that no Buffer can stand for: {@link toRuntime} then requires the default (a TopologyError naming `requiredBy`). */
  required = false;
  /**
   * @param side which default it stands for.
   * @param requiredBy set where no Buffer fallback is right (a sink after a
   *   type change): what to name in the TopologyError when the runtime has no
   *   default for `side`.
   */
  constructor(
    readonly side: 'key' | 'value',
    readonly requiredBy?: string,
    /** The option that names the serdes at `requiredBy`, for the error message. */
    readonly serdesOption = 'Produced.with(keySerde, valueSerde)',
    /** The topology whose stores or processors may use it: {@link toRuntime} binds it even where no source or sink holds it. */
    topology?: TopologyKey,
  ) {
    if (topology === undefined) return;
    const set = trackedDefaults.get(topology) ?? new Set<DefaultSerde>();
    trackedDefaults.set(topology, set);
    set.add(this);
  }

  get name(): string {
    return this.#target.name ?? 'default';
  }

  get #target(): Serde<unknown> {
    return this.#bound ?? (Serdes.Buffer() as Serde<unknown>);
  }

  /** Binds the runtime's default serde (`undefined`: back to `Serdes.Buffer()`). */
  bind(serde: Serde<unknown> | undefined): void {
    if (serde === undefined && this.requiredBy !== undefined) {
      const config = this.side === 'key' ? 'defaultKeySerde' : 'defaultValueSerde';
      throw new TopologyError(
        `${this.requiredBy}: the ${this.side} serde is unknown (the ${this.side} type changed upstream) and there is no default; ` +
          `pass the serdes (${this.serdesOption}), or set '${config}' in the KafkaStreams / TopologyTestDriver config`,
      );
    }
    this.#bound = serde;
  }

  /** Binds the runtime's default serde where one is set, else falls back to `Serdes.Buffer()` (a store: the values may be Buffers). */
  bindOrBuffer(serde: Serde<unknown> | undefined): void {
    this.#bound = serde;
  }

  serialize(topic: string, data: unknown, headers?: Headers): Buffer | null {
    return this.#target.serialize(topic, data, headers);
  }

  deserialize(topic: string, data: Buffer | null, headers?: Headers): unknown {
    return this.#target.deserialize(topic, data, headers);
  }
}

/** Whether `value` is a {@link DefaultSerde}. */
export function isDefaultSerde(value: unknown): value is DefaultSerde {
  return typeof value === 'object' && value !== null && (value as { [DEFAULT_SERDE]?: unknown })[DEFAULT_SERDE] === true;
}

/** The default serdes created for `topology`'s stores and processors. */
export function trackedDefaultSerdes(topology: TopologyKey): Iterable<DefaultSerde> {
  return trackedDefaults.get(topology) ?? [];
}
