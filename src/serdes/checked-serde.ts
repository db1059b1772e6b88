/**
 * Calls a serde and turns any failure into a {@link SerializationError} naming
 * the origin (key or value), the topic and the serde. A serializer must return
 * a Buffer or `null` (a null key, a tombstone value): `undefined` (it would
 * be written as a tombstone and delete the key on a compacted topic), a
 * Uint8Array, a string, a number or an object are SerializationErrors too.
 * Used by source nodes, state stores, the test driver, and every sink output
 * (through {@link checkedSerializer}), so the runtime and the driver check the same.
 */
import type { Headers } from '../records/types.js';
import { SerializationError, bypassesRecordHandlers } from '../errors.js';
import type { Deserializer, Serializer } from './serde.js';

/** The display name of a serde: its `name`, its class name, or `anonymous`. */
export function serdeName(serde: unknown): string {
  if (serde && typeof serde === 'object') {
    const named = (serde as { name?: unknown }).name;
    if (typeof named === 'string' && named !== '') return named;
    const ctor = (serde as { constructor?: { name?: string } }).constructor;
    if (ctor?.name && ctor.name !== 'Object') return ctor.name;
  }
  return 'anonymous';
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Errors made here: passed on unchanged when a checked serde wraps another one (no doubled message). */
const made = new WeakSet<Error>();

function mark(error: SerializationError): SerializationError {
  made.add(error);
  return error;
}

function wrap(
  error: unknown,
  verb: 'serialize' | 'deserialize',
  origin: 'KEY' | 'VALUE',
  topic: string,
  serde: unknown,
): SerializationError {
  if (error instanceof SerializationError && made.has(error)) return error;
  // A registry that is down, a schema not fetched yet, refused credentials: no handler may drop the record, the task fails.
  if (bypassesRecordHandlers(error)) return error as SerializationError;
  const part = origin === 'KEY' ? 'key' : 'value';
  return mark(
    new SerializationError(`Failed to ${verb} ${part} for topic '${topic}' with serde ${serdeName(serde)}: ${describe(error)}`, {
      origin,
      topic,
      cause: error,
    }),
  );
}

/** Serializes `data`; a failure becomes a SerializationError with origin, topic and serde name. */
export function checkedSerialize<T>(
  serializer: Serializer<T>,
  topic: string,
  data: T | null,
  headers: Headers | undefined,
  origin: 'KEY' | 'VALUE',
): Buffer | null {
  if (data === null || data === undefined) return null;
  let bytes: unknown;
  try {
    bytes = serializer.serialize(topic, data, headers);
  } catch (error) {
    throw wrap(error, 'serialize', origin, topic, serializer);
  }
  if (bytes === null || Buffer.isBuffer(bytes)) return bytes;
  const part = origin === 'KEY' ? 'key' : 'value';
  throw mark(
    new SerializationError(
      `Failed to serialize ${part} for topic '${topic}' with serde ${serdeName(serializer)}: the serializer returned ${badOutput(bytes)}; ` +
        `a serializer must return a Buffer, or null for a null ${part}${origin === 'VALUE' ? ' (a tombstone)' : ''}`,
      { origin, topic },
    ),
  );
}

function badOutput(bytes: unknown): string {
  if (bytes === undefined) return 'undefined (it would be written as null, a tombstone deleting the key on a compacted topic)';
  if (bytes instanceof Uint8Array) return 'a Uint8Array, not a Buffer (wrap it: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength))';
  if (typeof bytes === 'object') return `an object (${(bytes as object).constructor?.name ?? 'Object'}), not a Buffer`;
  return `a ${typeof bytes} (${String(bytes)}), not a Buffer (e.g. Buffer.from(String(value)))`;
}

const checkedKeys = new WeakMap<Serializer<unknown>, Serializer<unknown>>();
const checkedValues = new WeakMap<Serializer<unknown>, Serializer<unknown>>();

/**
 * `serializer` wrapped in {@link checkedSerialize} (cached per serializer and
 * origin): what a sink hands to a record collector, so every collector gets a
 * Buffer or null, or a SerializationError naming the serde and the topic.
 */
export function checkedSerializer<T>(serializer: Serializer<T>, origin: 'KEY' | 'VALUE'): Serializer<T> {
  const cache = origin === 'KEY' ? checkedKeys : checkedValues;
  const raw = serializer as Serializer<unknown>;
  let checked = cache.get(raw);
  if (checked === undefined) {
    checked = {
      serialize: (topic: string, data: unknown, headers?: Headers) => checkedSerialize(raw, topic, data, headers, origin),
    };
    Object.defineProperty(checked, 'name', { value: serdeName(raw) });
    cache.set(raw, checked);
  }
  return checked as Serializer<T>;
}

/** Deserializes `data`; a failure becomes a SerializationError with origin, topic and serde name. */
export function checkedDeserialize<T>(
  deserializer: Deserializer<T>,
  topic: string,
  data: Buffer | null,
  headers: Headers | undefined,
  origin: 'KEY' | 'VALUE',
): T | null {
  if (data === null || data === undefined) return null;
  try {
    return deserializer.deserialize(topic, data, headers);
  } catch (error) {
    throw wrap(error, 'deserialize', origin, topic, deserializer);
  }
}
