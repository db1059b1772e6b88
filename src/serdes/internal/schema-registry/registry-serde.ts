/**
 * One Schema Registry serde: the Confluent wire format (magic byte 0, the
 * schema id as a 4-byte big-endian int, the payload) around a format of
 * ./formats.ts, with the registry I/O kept off the per-record path:
 * - `resolve(topic, bytes)` (called by the runtime for a fetched batch
 *   before it is processed) fetches an unknown schema id and returns a
 *   promise only then; `deserialize` reads the cache;
 * - `prepare(topic)` (called when a task starts, per sink topic) registers or
 *   looks up the topic's schema; `serialize` reads the cache.
 * A cache miss on the synchronous path (no resolve/prepare before it: a
 * store, a topic chosen per record) starts the fetch and throws the
 * retriable SCHEMA_NOT_RESOLVED: the task retries once the fetch is done.
 * Failures the registry answers (unknown id, incompatible, invalid) are
 * cached for {@link NEGATIVE_TTL_MS} and thrown per record (record-level).
 */
import { SchemaRegistryError } from '../../../errors.js';
import type { Headers } from '../../../records/types.js';
import type { Serde } from '../../serde.js';
import { RegistryAnswerError } from '../../schema-registry/registry-store.js';
import { parseSchema, type ParsedSchema, type RegistrySchema, type SchemaType } from './formats.js';
import { chain, RegistryUnreachableError, type Maybe, type RegistryClient } from './registry-client.js';
import { answerCode, message } from './registry-errors.js';

/** How long a registry's refusal (unknown id, incompatible schema) is remembered before asking again. */
export const NEGATIVE_TTL_MS = 30_000;

import type { SubjectNameStrategy } from '../../schema-registry/subject-name-strategy.js';

/** The checked settings of one serde. */
export interface SerdeSettings {
  name: string;
  format: SchemaType;
  client: RegistryClient;
  isKey: boolean;
  /** The configured schema (registration text); absent: read-only unless useLatestVersion. */
  schema: RegistrySchema | undefined;
  messageType: string | undefined;
  autoRegister: boolean;
  useLatestVersion: boolean;
  strategy: SubjectNameStrategy;
}

type Entry = { id: number; parsed: ParsedSchema } | { error: SchemaRegistryError; until: number };

const WIRE_HEADER = 5;

/** See the module comment. */
export class RegistrySerde<T> implements Serde<T> {
  readonly name: string;
  readonly #s: SerdeSettings;
  readonly #byId = new Map<number, Entry>();
  readonly #fetching = new Map<number, Promise<void>>();
  readonly #byTopic = new Map<string, Entry>();
  readonly #preparing = new Map<string, Promise<void>>();
  readonly #resolvers = new Map<number, unknown>();
  /** Objects this serde decoded with their writer's schema (no reader schema): written back with that schema and id. */
  readonly #decodedWith = new WeakMap<object, { id: number; parsed: ParsedSchema }>();
  #own: ParsedSchema | undefined;

  constructor(settings: SerdeSettings) {
    this.#s = settings;
    this.name = settings.name;
  }

  /** The subject of `topic` under the configured strategy. */
  subjectOf(topic: string, recordName: string | undefined): string {
    const part = this.#s.isKey ? 'key' : 'value';
    if (this.#s.strategy === 'topic') return `${topic}-${part}`;
    if (recordName === undefined) {
      throw this.#error(`subjectNameStrategy '${this.#s.strategy}' needs a record name: the schema has none (Avro: a named record; JSON Schema: a "title")`, 'SCHEMA_INVALID', { topic });
    }
    return this.#s.strategy === 'record' ? recordName : `${topic}-${recordName}`;
  }

  // ---- serializer ----

  /** Registers or looks up the schema of `topic` ahead of `serialize`; a promise only for an HTTP registry that was not asked yet. */
  prepare(topic: string): Promise<void> | undefined {
    if (this.#fresh(this.#byTopic.get(topic))) return undefined;
    const running = this.#preparing.get(topic);
    if (running) return running;
    const done = this.#settle(this.#byTopic, topic, () => this.#prepareNow(topic), { topic });
    if (!(done instanceof Promise)) return undefined;
    const tracked = done.finally(() => this.#preparing.delete(topic));
    this.#preparing.set(topic, tracked);
    return tracked;
  }

  serialize(topic: string, data: T | null, _headers?: Headers): Buffer | null {
    if (data === null || data === undefined) return null;
    // a generic record this serde read (e.g. a table's store writing what its source read): its own schema and id, no I/O
    const decoded = typeof data === 'object' && !this.#s.useLatestVersion && this.#s.schema === undefined ? this.#decodedWith.get(data) : undefined;
    if (decoded !== undefined) return this.#encode(topic, decoded, data);
    const entry = this.#byTopic.get(topic);
    if (!this.#fresh(entry)) this.#startOrThrow(this.prepare(topic), `the schema of topic '${topic}' is being registered/looked up`, { topic });
    const ready = this.#byTopic.get(topic);
    if (ready === undefined) throw this.#error(`no schema for topic '${topic}'`, 'SCHEMA_NOT_RESOLVED', { topic });
    if ('error' in ready) throw ready.error;
    return this.#encode(topic, ready, data);
  }

  #encode(topic: string, schema: { id: number; parsed: ParsedSchema }, data: unknown): Buffer {
    let payload: Buffer;
    try {
      payload = schema.parsed.encode(data);
    } catch (error) {
      throw this.#error(`the value does not match schema ${schema.id}: ${message(error)}`, 'SERIALIZATION', { topic, schemaId: schema.id, cause: error });
    }
    const header = Buffer.alloc(WIRE_HEADER);
    header.writeInt32BE(schema.id, 1);
    return Buffer.concat([header, payload]);
  }

  // ---- deserializer ----

  /** Fetches the schema of `data`'s id when not cached; a promise only for an HTTP registry. */
  resolve(_topic: string, data: Buffer | null, _headers?: Headers): Promise<void> | undefined {
    if (data === null || data.length < WIRE_HEADER || data[0] !== 0) return undefined;
    const fetching = this.#fetchId(data.readInt32BE(1));
    // an Avro reader schema with references: fetch them too (once)
    const own = this.#s.format === 'AVRO' && this.#s.schema !== undefined && this.#own === undefined ? this.#parseOwn() : undefined;
    if (!(own instanceof Promise)) return fetching;
    return fetching === undefined ? own.then(() => undefined) : Promise.all([fetching, own]).then(() => undefined);
  }

  deserialize(topic: string, data: Buffer | null, _headers?: Headers): T {
    if (data === null || data === undefined) return null as T;
    if (data.length < WIRE_HEADER || data[0] !== 0) {
      throw this.#error(
        `Unknown magic byte: the ${data.length}-byte ${this.#s.isKey ? 'key' : 'value'} is not in the Confluent wire format (magic byte 0, 4-byte schema id, payload)`,
        'SERIALIZATION',
        { topic },
      );
    }
    const id = data.readInt32BE(1);
    if (!this.#fresh(this.#byId.get(id))) this.#startOrThrow(this.#fetchId(id), `schema id ${id} is being fetched`, { topic, schemaId: id });
    const entry = this.#byId.get(id);
    if (entry === undefined) throw this.#error(`schema id ${id} is not known`, 'SCHEMA_NOT_RESOLVED', { topic, schemaId: id });
    if ('error' in entry) throw entry.error;
    if (entry.parsed.type !== this.#s.format) {
      throw this.#error(`schema id ${id} is a ${entry.parsed.type} schema; this ${this.name} serde reads ${this.#s.format}`, 'SERIALIZATION', { topic, schemaId: id });
    }
    const payload = data.subarray(WIRE_HEADER);
    try {
      return this.#decode(id, entry.parsed, payload) as T;
    } catch (error) {
      if (error instanceof SchemaRegistryError) throw error;
      throw this.#error(`the payload does not match schema ${id}: ${message(error)}`, 'SERIALIZATION', { topic, schemaId: id, cause: error });
    }
  }

  // ---- internals ----

  #decode(id: number, writer: ParsedSchema, payload: Buffer): unknown {
    const reader = this.#s.format === 'AVRO' && this.#s.schema !== undefined ? this.#ownSync() : undefined;
    if (reader?.avroType === undefined || writer.avroType === undefined) {
      const value = writer.decode(payload);
      if (value !== null && typeof value === 'object') this.#decodedWith.set(value, { id, parsed: writer });
      return value;
    }
    let resolver = this.#resolvers.get(id);
    if (resolver === undefined) this.#resolvers.set(id, (resolver = reader.avroType.createResolver(writer.avroType)));
    return reader.avroType.fromBuffer(payload, resolver as Parameters<typeof reader.avroType.fromBuffer>[1]);
  }

  #fetchId(id: number): Promise<void> | undefined {
    if (this.#fresh(this.#byId.get(id))) return undefined;
    const running = this.#fetching.get(id);
    if (running) return running;
    const { client } = this.#s;
    const done = this.#settle(
      this.#byId,
      id,
      () => chain(client.schemaById(id), (schema) => chain(client.references(schema.references), (refs) => ({ id, parsed: parseSchema(schema, refs) }))),
      { schemaId: id },
    );
    if (!(done instanceof Promise)) return undefined;
    const tracked = done.finally(() => this.#fetching.delete(id));
    this.#fetching.set(id, tracked);
    return tracked;
  }

  /** The topic's entry: latest version, or the configured schema registered / looked up under its subject. */
  #prepareNow(topic: string): Maybe<{ id: number; parsed: ParsedSchema }> {
    const { client, useLatestVersion, autoRegister, messageType } = this.#s;
    if (useLatestVersion) {
      const subject = this.subjectOf(topic, this.#s.schema === undefined ? undefined : this.#ownSync().recordName);
      return chain(client.version(subject, 'latest'), (found) =>
        chain(client.references(found.schema.references), (refs) => ({ id: found.id, parsed: parseSchema(found.schema, refs, messageType === undefined ? {} : { messageType }) })),
      );
    }
    const schema = this.#s.schema;
    if (schema === undefined) {
      throw this.#error(`${this.name} needs a schema to serialize: set 'schema' (or useLatestVersion: true) in its config`, 'SCHEMA_INVALID', { topic });
    }
    return chain(this.#own ?? this.#parseOwn(), (own) => {
      const subject = this.subjectOf(topic, own.recordName);
      return chain(autoRegister ? client.register(subject, schema) : client.lookup(subject, schema), (id) => ({ id, parsed: own }));
    });
  }

  #parseOwn(): Maybe<ParsedSchema> {
    const schema = this.#s.schema;
    if (schema === undefined) throw new Error('no schema configured');
    return chain(schema.references.length === 0 ? [] : this.#s.client.references(schema.references), (refs) => {
      try {
        this.#own = parseSchema(schema, refs, this.#s.messageType === undefined ? {} : { messageType: this.#s.messageType });
      } catch (error) {
        throw this.#error(`the configured schema is invalid: ${message(error)}`, 'SCHEMA_INVALID', { cause: error });
      }
      return this.#own;
    });
  }

  /** The configured schema parsed (a reader schema without references, or one prepared already). */
  #ownSync(): ParsedSchema {
    if (this.#own !== undefined) return this.#own;
    const parsed = this.#parseOwn();
    if (parsed instanceof Promise) {
      parsed.catch(() => undefined);
      throw this.#error('the configured schema\'s references are being fetched', 'SCHEMA_NOT_RESOLVED', {});
    }
    return parsed;
  }

  /**
   * Runs `load` and stores its outcome in `cache` under `key`: the entry, or a
   * record-level refusal (kept {@link NEGATIVE_TTL_MS}); any other failure
   * (retriable: the registry is down; fatal: it refused the credentials) is
   * not stored and is rethrown (a promise rejects).
   */
  #settle<K>(cache: Map<K, Entry>, key: K, load: () => Maybe<{ id: number; parsed: ParsedSchema }>, where: Where): Maybe<void> {
    const fail = (error: unknown): void => {
      const failure = this.#classify(error, where);
      if (failure.kind !== 'record') throw failure; // retriable (down) or fatal (refused): the task fails, no handler decides
      cache.set(key, { error: failure, until: Date.now() + NEGATIVE_TTL_MS });
    };
    let result: Maybe<{ id: number; parsed: ParsedSchema }>;
    try {
      result = load();
    } catch (error) {
      return fail(error);
    }
    // a schema this serde writes with is one it can read too (a store reading back what it wrote)
    const keep = (entry: { id: number; parsed: ParsedSchema }): void => {
      cache.set(key, entry);
      if (!this.#byId.has(entry.id)) this.#byId.set(entry.id, entry);
    };
    if (!(result instanceof Promise)) return keep(result);
    return result.then(keep, fail);
  }

  #fresh(entry: Entry | undefined): boolean {
    return entry !== undefined && (!('error' in entry) || entry.until > Date.now());
  }

  /** A fetch that is a promise is running: let it run, throw the retriable SCHEMA_NOT_RESOLVED now. */
  #startOrThrow(started: Promise<void> | undefined, what: string, where: Where): void {
    if (started === undefined) return;
    started.catch(() => undefined);
    throw this.#error(`${what} (registry ${this.#s.client.display}); the task retries the record once it is there`, 'SCHEMA_NOT_RESOLVED', where);
  }

  #classify(error: unknown, where: Where): SchemaRegistryError {
    if (error instanceof SchemaRegistryError) return error;
    const registry = this.#s.client.display;
    if (error instanceof RegistryUnreachableError) return this.#error(error.message, 'SCHEMA_REGISTRY_UNAVAILABLE', { ...where, cause: error });
    if (error instanceof RegistryAnswerError) {
      const code = answerCode(error);
      const what = where.schemaId !== undefined ? `schema id ${where.schemaId}` : `the schema of topic '${where.topic ?? ''}'`;
      return this.#error(`registry ${registry} answered ${error.status} (${error.errorCode}) for ${what}: ${error.message}`, code, { ...where, registryErrorCode: error.errorCode, cause: error });
    }
    return this.#error(`schema ${where.schemaId ?? ''} cannot be used: ${message(error)}`, 'SCHEMA_INVALID', { ...where, cause: error });
  }

  #error(text: string, code: string, where: Where & { cause?: unknown; registryErrorCode?: number }): SchemaRegistryError {
    return new SchemaRegistryError(`${this.name}: ${text}`, {
      code,
      origin: this.#s.isKey ? 'KEY' : 'VALUE',
      ...(where.topic === undefined ? {} : { topic: where.topic }),
      ...(where.schemaId === undefined ? {} : { schemaId: where.schemaId }),
      ...(where.registryErrorCode === undefined ? {} : { registryErrorCode: where.registryErrorCode }),
      ...(where.cause === undefined ? {} : { cause: where.cause }),
    });
  }
}

interface Where {
  topic?: string;
  schemaId?: number;
}
