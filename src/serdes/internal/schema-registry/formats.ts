/**
 * The three schema formats of the Confluent registry, each on its library:
 * Avro on `avsc`, JSON Schema on `ajv`, Protobuf on `protobufjs`. A parsed
 * schema encodes a value to the payload that follows the 5-byte header
 * (Protobuf: the message indexes, then the message) and decodes it back.
 */
import avro from 'avsc';
import { parseProtobuf } from './protobuf-format.js';
import { parseJsonSchema } from './json-format.js';
import type { ParsedSchema, RegistrySchema, ResolvedReference } from './schema-types.js';

export type { ParsedSchema, RegistrySchema, ResolvedReference, SchemaReference, SchemaType } from './schema-types.js';

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
