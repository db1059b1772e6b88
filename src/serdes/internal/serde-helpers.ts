/** The shared shape of the built-in serdes: null maps to null both ways; failures are SerializationErrors naming the serde. */
import type { Headers } from '../../records/types.js';
import { SerializationError } from '../../errors.js';
import type { Serde } from '../serde.js';

export function named<T>(
  name: string,
  serialize: (topic: string, data: T, headers?: Headers) => Buffer | null,
  deserialize: (topic: string, data: Buffer, headers?: Headers) => T,
): Serde<T> {
  return {
    name,
    serialize(topic: string, data: T | null, headers?: Headers): Buffer | null {
      if (data === null || data === undefined) return null;
      return serialize(topic, data, headers);
    },
    deserialize(topic: string, data: Buffer | null, headers?: Headers): T {
      if (data === null || data === undefined) return null as T;
      return deserialize(topic, data, headers);
    },
  };
}

export function fail(name: string, message: string, topic: string): never {
  throw new SerializationError(`${name} serde: ${message}`, { topic });
}

export function expectLength(name: string, data: Buffer, length: number, topic: string): void {
  if (data.length !== length) fail(name, `expected ${length} bytes, got ${data.length}`, topic);
}
