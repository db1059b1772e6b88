/**
 * Calls a serde and turns any failure into a {@link SerializationError} naming
 * the origin (key or value), the topic and the serde. Used by source nodes,
 * state stores and record collectors (the runtime's collector should use it
 * too, so every serialization failure reads the same).
 */
import type { Headers } from '../records/types.js';
import { SerializationError } from '../errors.js';
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

function wrap(
  error: unknown,
  verb: 'serialize' | 'deserialize',
  origin: 'KEY' | 'VALUE',
  topic: string,
  serde: unknown,
): SerializationError {
  const part = origin === 'KEY' ? 'key' : 'value';
  return new SerializationError(
    `Failed to ${verb} ${part} for topic '${topic}' with serde ${serdeName(serde)}: ${describe(error)}`,
    { origin, topic, cause: error },
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
  try {
    const bytes = serializer.serialize(topic, data, headers);
    return bytes ?? null;
  } catch (error) {
    throw wrap(error, 'serialize', origin, topic, serializer);
  }
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
