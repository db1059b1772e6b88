/**
 * The three schema formats of the Confluent registry, each on its library:
 * Avro on `avsc`, JSON Schema on `ajv`, Protobuf on `protobufjs`. A parsed
 * schema encodes a value to the payload that follows the 5-byte header
 * (Protobuf: the message indexes, then the message) and decodes it back.
 */
import avro from 'avsc';
import { parseProtobuf } from './protobuf-format.js';
import { parseJsonSchema } from './json-format.js';

/** The registry's `schemaType` (absent in the REST API means AVRO). */
export type SchemaType = 'AVRO' | 'JSON' | 'PROTOBUF';

/** A reference of a schema to another subject's version (Confluent's `references`). */
export interface SchemaReference {
  /** The name the referencing schema uses: an Avro full name, a JSON Schema `$ref` URL, a `.proto` import path. */
  name: string;
  subject: string;
  version: number;
}

/** A schema as the registry stores it. */
export interface RegistrySchema {
  schema: string;
  schemaType: SchemaType;
  references: SchemaReference[];
}

/** A referenced schema with the name it is referenced by, resolved from the registry. */
export interface ResolvedReference {
  name: string;
  schema: RegistrySchema;
}

/** A schema ready to encode and decode payloads. */
export interface ParsedSchema {
  readonly type: SchemaType;
  /** The record name the `record` and `topic-record` subject strategies use (Avro full name, JSON Schema `title`, Protobuf message full name). */
  readonly recordName: string | undefined;
  /** The text the registry compares for identity (normalized). */
  readonly canonical: string;
  /** The payload after the 5-byte header; throws on a value the schema does not accept. */
  encode(value: unknown): Buffer;
  /** The value of a payload; throws when the bytes do not match the schema. */
  decode(payload: Buffer): unknown;
  /** Avro only: the avsc type (for reader/writer resolution). */
  readonly avroType?: avro.Type;
}

/** Options of {@link parseSchema}. */
export interface ParseOptions {
  /** Protobuf: the message type to encode (full name, without leading dot); default the first message of the file. */
  messageType?: string;
}

/** Parses `schema` (its references already resolved, dependencies first); throws the library's error on an invalid one. */
export function parseSchema(schema: RegistrySchema, references: readonly ResolvedReference[], options: ParseOptions = {}): ParsedSchema {
  switch (schema.schemaType) {
    case 'AVRO':
      return parseAvro(schema.schema, references);
    case 'JSON':
      return parseJsonSchema(schema.schema, references);
    case 'PROTOBUF':
      return parseProtobuf(schema.schema, references, options.messageType);
  }
}

function parseAvro(text: string, references: readonly ResolvedReference[]): ParsedSchema {
  const registry: { [name: string]: avro.Type } = {};
  for (const ref of references) avro.Type.forSchema(JSON.parse(ref.schema.schema) as avro.Schema, { registry });
  const type = avro.Type.forSchema(JSON.parse(text) as avro.Schema, { registry });
  return {
    type: 'AVRO',
    recordName: type.name,
    canonical: JSON.stringify(type.schema({ exportAttrs: true })),
    avroType: type,
    encode: (value) => type.toBuffer(value),
    decode: (payload) => type.fromBuffer(payload),
  };
}

/** Why the reader Avro schema `next` cannot read data written with `previous` (BACKWARD), or undefined when it can. */
export function avroBackwardProblem(next: ParsedSchema, previous: ParsedSchema): string | undefined {
  if (next.avroType === undefined || previous.avroType === undefined) return undefined;
  try {
    next.avroType.createResolver(previous.avroType);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}
