/**
 * An in-memory schema registry with the semantics of Confluent's: subjects
 * with versions, one id per distinct schema (the same schema under two
 * subjects keeps its id), references, and the BACKWARD compatibility check
 * for Avro (a new version must read data written with the latest one). Used
 * by the `mock://` serdes (synchronously, like Confluent's
 * MockSchemaRegistryClient) and served over HTTP by `InProcessSchemaRegistry`
 * (sluice/testing). Errors carry Confluent's status and error code.
 */
import { avroBackwardProblem, parseSchema, type RegistrySchema, type ResolvedReference, type SchemaReference, type SchemaType } from '../internal/schema-registry/formats.js';

export type { RegistrySchema, SchemaReference, SchemaType } from '../internal/schema-registry/formats.js';

/** An error answer of the registry: HTTP status, Confluent error code and message. */
export class RegistryAnswerError extends Error {
  constructor(
    readonly status: number,
    readonly errorCode: number,
    message: string,
  ) {
    super(message);
    this.name = 'RegistryAnswerError';
  }
}

/** A registered version of a subject. */
export interface SubjectVersion {
  subject: string;
  version: number;
  id: number;
  schema: RegistrySchema;
}

/** Compatibility levels the store checks (`NONE` skips the check). */
export type CompatibilityLevel = 'BACKWARD' | 'NONE';

const subjectNotFound = (subject: string): RegistryAnswerError => new RegistryAnswerError(404, 40401, `Subject '${subject}' not found.`);

/** See the module comment. */
export class RegistryStore {
  readonly #schemas: RegistrySchema[] = [];
  readonly #ids = new Map<string, number>();
  readonly #subjects = new Map<string, SubjectVersion[]>();
  compatibility: CompatibilityLevel = 'BACKWARD';

  /** The schema of `id` (40403 when unknown). */
  schemaById(id: number): RegistrySchema {
    const schema = Number.isInteger(id) && id > 0 ? this.#schemas[id - 1] : undefined;
    if (schema === undefined) throw new RegistryAnswerError(404, 40403, `Schema ${id} not found`);
    return schema;
  }

  /** Version `version` (a number or `latest`) of `subject` (40401 subject, 40402 version not found). */
  version(subject: string, version: number | 'latest'): SubjectVersion {
    const versions = this.#subjects.get(subject);
    if (versions === undefined || versions.length === 0) throw subjectNotFound(subject);
    const found = version === 'latest' ? versions[versions.length - 1] : versions.find((v) => v.version === version);
    if (found === undefined) throw new RegistryAnswerError(404, 40402, `Version ${version} not found.`);
    return found;
  }

  /** The subjects, sorted. */
  subjects(): string[] {
    return [...this.#subjects.keys()].sort();
  }

  /** The versions of `subject` (40401 when unknown). */
  versions(subject: string): number[] {
    const versions = this.#subjects.get(subject);
    if (versions === undefined) throw subjectNotFound(subject);
    return versions.map((v) => v.version);
  }

  /**
   * Registers `schema` under `subject`:
   * 1. parse it with its references (42201 when invalid, 40401/40402 for a missing reference);
   * 2. already a version of the subject: its id;
   * 3. check compatibility with the latest version (409 when incompatible);
   * 4. the id of an equal schema registered elsewhere, or the next id; the next version.
   */
  register(subject: string, schema: RegistrySchema): { id: number } {
    // 1.
    const parsed = this.#parse(schema);
    const key = this.#key(schema, parsed.canonical);
    // 2.
    const versions = this.#subjects.get(subject) ?? [];
    const known = this.#ids.get(key);
    const same = known === undefined ? undefined : versions.find((v) => v.id === known);
    if (same !== undefined) return { id: same.id };
    // 3.
    const latest = versions[versions.length - 1];
    if (latest !== undefined && this.compatibility === 'BACKWARD') {
      if (latest.schema.schemaType !== schema.schemaType) {
        throw new RegistryAnswerError(409, 409, `Schema being registered is incompatible with an earlier schema for subject "${subject}": schema type ${schema.schemaType} differs from ${latest.schema.schemaType}`);
      }
      const problem = avroBackwardProblem(parsed, this.#parse(latest.schema));
      if (problem !== undefined) {
        throw new RegistryAnswerError(409, 409, `Schema being registered is incompatible with an earlier schema for subject "${subject}" (BACKWARD): ${problem}`);
      }
    }
    // 4.
    let id = known;
    if (id === undefined) {
      this.#schemas.push(schema);
      id = this.#schemas.length;
      this.#ids.set(key, id);
    }
    versions.push({ subject, version: (latest?.version ?? 0) + 1, id, schema });
    this.#subjects.set(subject, versions);
    return { id };
  }

  /** The version of `subject` whose schema equals `schema` (40401 subject, 40403 schema not found). */
  lookup(subject: string, schema: RegistrySchema): SubjectVersion {
    const versions = this.#subjects.get(subject);
    if (versions === undefined) throw subjectNotFound(subject);
    const id = this.#ids.get(this.#key(schema, this.#parse(schema).canonical));
    const found = versions.find((v) => v.id === id);
    if (found === undefined) throw new RegistryAnswerError(404, 40403, 'Schema not found');
    return found;
  }

  /** The referenced schemas of `schema`, dependencies first (each once). */
  resolveReferences(references: readonly SchemaReference[], seen = new Set<string>()): ResolvedReference[] {
    const out: ResolvedReference[] = [];
    for (const ref of references) {
      const key = `${ref.subject}/${ref.version}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const found = this.version(ref.subject, ref.version);
      out.push(...this.resolveReferences(found.schema.references, seen), { name: ref.name, schema: found.schema });
    }
    return out;
  }

  #parse(schema: RegistrySchema): ReturnType<typeof parseSchema> {
    const references = this.resolveReferences(schema.references);
    try {
      return parseSchema(schema, references);
    } catch (error) {
      throw new RegistryAnswerError(422, 42201, `Invalid schema: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  #key(schema: RegistrySchema, canonical: string): string {
    return JSON.stringify([schema.schemaType, canonical, schema.references.map((r) => [r.name, r.subject, r.version])]);
  }
}

/** Normalizes a registry request's `schemaType` (absent: AVRO); undefined for an unknown one. */
export function schemaTypeOf(value: unknown): SchemaType | undefined {
  if (value === undefined || value === null) return 'AVRO';
  return value === 'AVRO' || value === 'JSON' || value === 'PROTOBUF' ? value : undefined;
}
