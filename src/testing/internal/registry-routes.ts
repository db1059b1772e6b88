/**
 * The Confluent Schema Registry REST subset `InProcessSchemaRegistry` serves,
 * over a {@link RegistryStore}: each route parses its path and body and
 * answers JSON; failures answer Confluent's `{ error_code, message }`.
 */
import { RegistryAnswerError, schemaTypeOf, type CompatibilityLevel, type RegistryStore, type RegistrySchema, type SchemaReference } from '../../serdes/schema-registry/registry-store.js';

/** An answer: HTTP status and JSON body. */
export interface RouteAnswer {
  status: number;
  body: unknown;
}

const fail = (status: number, errorCode: number, message: string): never => {
  throw new RegistryAnswerError(status, errorCode, message);
};

function segment(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return fail(400, 400, `Malformed path segment '${raw.slice(0, 100)}'`);
  }
}

function versionOf(raw: string): number | 'latest' {
  if (raw === 'latest' || raw === '-1') return 'latest';
  const n = /^[0-9]{1,9}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isInteger(n) || n < 1) fail(422, 42202, `The specified version '${raw.slice(0, 50)}' is not a valid version id. Allowed values are between [1, 2^31-1] and the string "latest"`);
  return n;
}

function referencesOf(value: unknown): SchemaReference[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) return fail(422, 42201, 'Invalid schema: references must be an array');
  return value.map((r: unknown) => {
    const { name, subject, version } = (r ?? {}) as Record<string, unknown>;
    if (typeof name !== 'string' || typeof subject !== 'string' || typeof version !== 'number' || !Number.isInteger(version)) {
      fail(422, 42201, 'Invalid schema: a reference needs name, subject and an integer version');
    }
    return { name: name as string, subject: subject as string, version: version as number };
  });
}

function schemaOfBody(body: unknown): RegistrySchema {
  const { schema, schemaType, references } = (body ?? {}) as Record<string, unknown>;
  if (typeof schema !== 'string') return fail(422, 42201, 'Invalid schema: the body needs "schema" as a string');
  const type = schemaTypeOf(schemaType);
  if (type === undefined) return fail(422, 42201, `Invalid schema: unknown schemaType ${JSON.stringify(schemaType).slice(0, 50)}`);
  return { schema, schemaType: type, references: referencesOf(references) };
}

function describe(schema: RegistrySchema): Record<string, unknown> {
  return {
    schema: schema.schema,
    ...(schema.schemaType === 'AVRO' ? {} : { schemaType: schema.schemaType }),
    ...(schema.references.length > 0 ? { references: schema.references } : {}),
  };
}

/** Answers `method path` with `body` (already parsed JSON, or undefined); throws RegistryAnswerError for an error answer. */
export function route(store: RegistryStore, method: string, path: string, body: unknown): RouteAnswer {
  const parts = path.split('/').filter((p) => p !== '');
  const [head, a, b, c, d] = parts;
  const ok = (value: unknown): RouteAnswer => ({ status: 200, body: value });
  if (head === 'schemas' && a === 'ids' && b !== undefined && parts.length === 3 && method === 'GET') {
    const id = /^[0-9]{1,9}$/.test(b) ? Number(b) : -1;
    return ok(describe(store.schemaById(id)));
  }
  if (head === 'subjects' && parts.length === 1 && method === 'GET') return ok(store.subjects());
  if (head === 'subjects' && a !== undefined) {
    const subject = segment(a);
    if (parts.length === 2 && method === 'POST') {
      const found = store.lookup(subject, schemaOfBody(body));
      return ok({ subject, id: found.id, version: found.version, ...describe(found.schema) });
    }
    if (b === 'versions' && parts.length === 3 && method === 'POST') return ok(store.register(subject, schemaOfBody(body)));
    if (b === 'versions' && parts.length === 3 && method === 'GET') return ok(store.versions(subject));
    if (b === 'versions' && c !== undefined && parts.length === 4 && method === 'GET') {
      const found = store.version(subject, versionOf(segment(c)));
      return ok({ subject, version: found.version, id: found.id, schemaType: found.schema.schemaType, ...describe(found.schema) });
    }
    if (b === 'versions' && c !== undefined && d === 'schema' && parts.length === 5 && method === 'GET') {
      return ok(JSON.parse(store.version(subject, versionOf(segment(c))).schema.schema));
    }
  }
  if (head === 'config' && parts.length === 1) {
    if (method === 'GET') return ok({ compatibilityLevel: store.compatibility });
    if (method === 'PUT') {
      const level = (body as { compatibility?: unknown } | undefined)?.compatibility;
      if (level !== 'BACKWARD' && level !== 'NONE') return fail(422, 42203, 'Invalid compatibility level: this registry checks BACKWARD or NONE');
      store.compatibility = level as CompatibilityLevel;
      return ok({ compatibility: level });
    }
  }
  const known = head === 'schemas' || head === 'subjects' || head === 'config';
  return known ? fail(405, 405, `HTTP ${method} is not supported on ${path.slice(0, 200)}`) : fail(404, 404, `No route for ${path.slice(0, 200)}`);
}
