/**
 * Serde contracts. A serde turns a typed key or value into bytes and back.
 * `null` serializes to `null` (a null key or a tombstone value).
 */
import type { Headers } from '../records/types.js';

/** Turns a typed value into bytes. */
export interface Serializer<T> {
  serialize(topic: string, data: T | null, headers?: Headers): Buffer | null;
}

/** Turns bytes back into a typed value. */
export interface Deserializer<T> {
  deserialize(topic: string, data: Buffer | null, headers?: Headers): T;
}

/** A serializer and deserializer pair, as in Kafka Streams. */
export interface Serde<T> extends Serializer<T>, Deserializer<T> {
  /** A short name used in error messages, e.g. `String`. */
  readonly name?: string;
}

/**
 * The type of `Serdes.Json<T>()`: a {@link Serde} of `T` (assignable both ways)
 * whose `T` is inferred only from the deserializing side. So
 * `const s: Serde<Order> = Serdes.Json()` infers `Order` from the annotation,
 * and `driver.createInputTopic('t', Serdes.String(), Serdes.Json())`, where
 * only a serializer is expected, gives `TestInputTopic<string, unknown>`
 * instead of inferring `null` from the serializer's `T | null` parameter.
 */
export type JsonSerde<T> = Serializer<NoInfer<T>> & Deserializer<T> & { readonly name?: string };
