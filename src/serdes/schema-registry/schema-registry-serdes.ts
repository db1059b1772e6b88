/**
 * `SchemaRegistrySerdes`: Avro, JSON Schema and Protobuf serdes in the
 * Confluent wire format, against a registry with Confluent's REST API or
 * `mock://scope` (in memory). The registry I/O happens before records are
 * processed (`resolve`/`prepare`, see ../internal/schema-registry/registry-serde.ts), never
 * per record.
 */
import { ConfigError } from '../../errors.js';
import type { Serde } from '../serde.js';
import type { SchemaReference, SchemaType } from './registry-store.js';
import { dropMockScope, registryClient } from '../internal/schema-registry/registry-client.js';
import { RegistrySerde } from '../internal/schema-registry/registry-serde.js';
import type { SubjectNameStrategy } from './subject-name-strategy.js';

/**
 * Configuration of a Schema Registry serde (Confluent's `schema.registry.url`,
 * `auto.register.schemas`, `use.latest.version`, `*.subject.name.strategy`, ...).
 */
export interface SchemaRegistrySerdeConfig {
  /**
   * The registry: `http(s)://host:port` (Confluent's REST API), or
   * `mock://scope` for an in-memory registry shared by every serde of that
   * scope in the process (Confluent's MockSchemaRegistryClient; no I/O, so
   * the TopologyTestDriver needs nothing else).
   */
  url: string;
  /** The serde reads/writes record keys (subject `<topic>-key`); default false (values, `<topic>-value`). */
  isKey?: boolean;
  /**
   * The schema to write with (and, for Avro, to read into: the reader schema).
   * Avro: the schema as an object or JSON text. JSON Schema: the schema object
   * or text. Protobuf: the `.proto` file text (with `messageType`). Absent: the
   * serde only reads (generic records with the writer's schema), or writes with
   * the subject's latest version when `useLatestVersion` is set.
   */
  schema?: string | object;
  /** Protobuf: the message type to write (full name, e.g. `shop.Order`); default the first message of the file. */
  messageType?: string;
  /** Register the schema under its subject when the task starts (default true); false: look it up (it must be registered). */
  autoRegisterSchemas?: boolean;
  /** Write with the subject's latest version instead of registering `schema` (Confluent's `use.latest.version`). */
  useLatestVersion?: boolean;
  /** How the subject is named: `topic` (`<topic>-value`, default), `record` (the record's full name), `topic-record` (`<topic>-<record name>`). */
  subjectNameStrategy?: SubjectNameStrategy;
  /** Schemas `schema` references (an Avro named type, a JSON Schema `$ref`, a `.proto` import), registered under these subjects. */
  references?: ReadonlyArray<{ name: string; subject: string; version: number }>;
  /** HTTP basic authentication (Confluent's `basic.auth.user.info`); never logged nor put in an error message. */
  auth?: { username: string; password: string };
}

const FORMAT_NAMES: Record<SchemaType, string> = { AVRO: 'Avro', JSON: 'JsonSchema', PROTOBUF: 'Protobuf' };

function schemaText(format: SchemaType, schema: string | object | undefined): string | undefined {
  if (schema === undefined) return undefined;
  if (format === 'PROTOBUF') {
    if (typeof schema !== 'string') throw new ConfigError(`SchemaRegistrySerdes.protobuf: 'schema' must be the .proto file text, got ${typeof schema}`);
    return schema;
  }
  if (typeof schema === 'string') {
    try {
      JSON.parse(schema);
    } catch {
      throw new ConfigError(`SchemaRegistrySerdes.${FORMAT_NAMES[format] === 'Avro' ? 'avro' : 'jsonSchema'}: 'schema' is a string that is not JSON; pass the schema object or its JSON text`);
    }
    return schema;
  }
  return JSON.stringify(schema);
}

/** Hides credentials in a URL for messages. */
function safeUrl(url: string): string {
  return url.replace(/\/\/[^/@]*@/, '//***@');
}

function create<T>(format: SchemaType, config: SchemaRegistrySerdeConfig): Serde<T> {
  const method = `SchemaRegistrySerdes.${format === 'AVRO' ? 'avro' : format === 'JSON' ? 'jsonSchema' : 'protobuf'}`;
  if (config === null || typeof config !== 'object' || typeof config.url !== 'string') {
    throw new ConfigError(`${method}: pass { url: 'http://host:8081' } (or 'mock://scope')`);
  }
  const client = registryClient(config.url, config.auth);
  if (client === undefined) throw new ConfigError(`${method}: url '${safeUrl(config.url)}' is neither http(s)://host:port nor mock://scope`);
  const strategy = config.subjectNameStrategy ?? 'topic';
  if (strategy !== 'topic' && strategy !== 'record' && strategy !== 'topic-record') {
    throw new ConfigError(`${method}: subjectNameStrategy '${String(strategy)}' is not one of 'topic', 'record', 'topic-record'`);
  }
  const text = schemaText(format, config.schema);
  const references: SchemaReference[] = (config.references ?? []).map((r) => ({ name: r.name, subject: r.subject, version: r.version }));
  return new RegistrySerde<T>({
    name: FORMAT_NAMES[format],
    format,
    client,
    isKey: config.isKey ?? false,
    schema: text === undefined ? undefined : { schema: text, schemaType: format, references },
    messageType: config.messageType,
    autoRegister: config.autoRegisterSchemas ?? true,
    useLatestVersion: config.useLatestVersion ?? false,
    strategy,
  });
}

/**
 * Schema Registry serdes (Confluent's `KafkaAvroSerde`, `KafkaJsonSchemaSerde`,
 * `KafkaProtobufSerde`): the Confluent wire format (magic byte 0, the 4-byte
 * big-endian schema id, the payload; Protobuf adds the message indexes), so
 * Java producers and consumers with Confluent's serializers read what sluice
 * writes and the other way round.
 *
 * Values are generic records: plain objects (Avro: avsc records; Protobuf:
 * field names as in the `.proto`, enums by name, 64-bit integers as strings,
 * defaults filled in). A protobufjs message instance is written as it is.
 *
 * Registry I/O never runs per record: a task looks its sink topics' schemas
 * up (or registers them) when it starts, and the runtime fetches the unknown
 * schema ids of a fetched batch before processing it. An unknown id or a
 * payload that does not match is a deserialization error of that record
 * (the dead letter carries the id in `sluice.error.schema.id`); a registry
 * that is down is retriable (the task retries, nothing is lost); a schema the
 * registry refuses as incompatible is a record-level production error.
 *
 * @example
 * ```ts
 * const orders = SchemaRegistrySerdes.avro<Order>({ url: 'http://localhost:8081', schema: orderSchema });
 * builder.stream('orders', { keySerde: Serdes.String(), valueSerde: orders });
 * ```
 */
export const SchemaRegistrySerdes = {
  /** An Avro serde (avsc). `schema`: the Avro schema (object or JSON text); with it, records are read into it (schema resolution). */
  avro<T = unknown>(config: SchemaRegistrySerdeConfig): Serde<T> {
    return create<T>('AVRO', config);
  },
  /** A JSON Schema serde (ajv): the value as UTF-8 JSON, validated against the schema when written and when read. */
  jsonSchema<T = unknown>(config: SchemaRegistrySerdeConfig): Serde<T> {
    return create<T>('JSON', config);
  },
  /** A Protobuf serde (protobufjs): `schema` is the `.proto` text, `messageType` the message written. */
  protobuf<T = unknown>(config: SchemaRegistrySerdeConfig): Serde<T> {
    return create<T>('PROTOBUF', config);
  },
  /** Forgets the in-memory registry `mock://scope` (Confluent's `MockSchemaRegistry.dropScope`); its next use starts empty. */
  dropMockScope(scope: string): void {
    dropMockScope(scope);
  },
};
