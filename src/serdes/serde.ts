/**
 * Serde contracts. A serde turns a typed key or value into bytes and back.
 * `null` serializes to `null` (a null key or a tombstone value).
 */
import type { Headers } from '../records/types.js';

/** Turns a typed value into bytes. */
export interface Serializer<T> {
  serialize(topic: string, data: T | null, headers?: Headers): Buffer | null;
  /**
   * Optional: I/O a serializer needs before it can serialize for `topic`
   * synchronously (a Schema Registry serde registers or looks up its schema).
   * Called when a task starts, for each sink topic it knows; returns a promise
   * only when there is I/O to wait for. A rejection fails the task start (a
   * retriable one is retried).
   */
  prepare?(topic: string): Promise<void> | undefined;
}

/** Turns bytes back into a typed value. */
export interface Deserializer<T> {
  deserialize(topic: string, data: Buffer | null, headers?: Headers): T;
  /**
   * Optional: I/O a deserializer needs before it can deserialize `data`
   * synchronously (a Schema Registry serde fetches an unknown schema id). The
   * runtime calls it for the records of a fetched batch before processing
   * them; it returns a promise only when there is I/O to wait for (never per
   * record once the ids are cached). A rejection with a retriable error makes
   * the task retry the batch; nothing is lost.
   */
  resolve?(topic: string, data: Buffer | null, headers?: Headers): Promise<void> | undefined;
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
