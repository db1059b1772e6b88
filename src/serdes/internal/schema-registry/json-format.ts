/**
 * JSON Schema on `ajv`: the payload is the value as UTF-8 JSON, validated
 * against the schema on both sides (Confluent's `json.fail.invalid.schema`).
 * A reference is added to ajv under its name, which `$ref` uses.
 */
import { Ajv } from 'ajv';
import type { ParsedSchema, ResolvedReference } from './schema-types.js';

function describeErrors(validate: { errors?: Array<{ instancePath: string; message?: string }> | null }): string {
  return (validate.errors ?? []).map((e) => `${e.instancePath === '' ? '(root)' : e.instancePath} ${e.message ?? 'is invalid'}`).join('; ');
}

/** Parses a JSON Schema text with its references. */
export function parseJsonSchema(text: string, references: readonly ResolvedReference[]): ParsedSchema {
  const ajv = new Ajv({ strict: false, allErrors: false, validateFormats: false });
  for (const ref of references) ajv.addSchema(JSON.parse(ref.schema.schema) as object, ref.name);
  const schema = JSON.parse(text) as { title?: unknown };
  const validate = ajv.compile(schema);
  const check = (value: unknown): void => {
    if (!validate(value)) throw new Error(`the value does not match the JSON Schema: ${describeErrors(validate)}`);
  };
  return {
    type: 'JSON',
    recordName: typeof schema.title === 'string' ? schema.title : undefined,
    canonical: JSON.stringify(schema),
    encode: (value) => {
      check(value);
      return Buffer.from(JSON.stringify(value), 'utf8');
    },
    decode: (payload) => {
      const value: unknown = JSON.parse(payload.toString('utf8'));
      check(value);
      return value;
    },
  };
}
