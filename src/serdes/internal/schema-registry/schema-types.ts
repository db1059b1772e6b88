/** The types the schema formats and the registry share. */
import type avro from 'avsc';

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

