/**
 * The registry calls the serdes make, against `mock://scope` (a
 * {@link RegistryStore} in memory, answered synchronously) or a registry
 * speaking Confluent's REST API (over `fetch`, answered by a promise).
 * `Maybe<T>` is `T` for the first and a promise for the second, so a `mock://`
 * serde never allocates a promise.
 */
import { RegistryAnswerError, RegistryStore, schemaTypeOf, type RegistrySchema, type SchemaReference } from '../../schema-registry/registry-store.js';
import type { ResolvedReference } from './formats.js';

/** A value, or a promise of it (HTTP registries). */
export type Maybe<T> = T | Promise<T>;

/** `f` applied to `value`, synchronously when `value` is no promise. */
export function chain<A, B>(value: Maybe<A>, f: (a: A) => Maybe<B>): Maybe<B> {
  return value instanceof Promise ? value.then(f) : f(value);
}

/** A version of a subject as the serdes need it. */
export interface FetchedVersion {
  id: number;
  schema: RegistrySchema;
}

/** The registry operations of the serdes. */
export interface RegistryClient {
  /** The URL without credentials (for messages). */
  readonly display: string;
  schemaById(id: number): Maybe<RegistrySchema>;
  register(subject: string, schema: RegistrySchema): Maybe<number>;
  lookup(subject: string, schema: RegistrySchema): Maybe<number>;
  version(subject: string, version: number | 'latest'): Maybe<FetchedVersion>;
  /** The referenced schemas, dependencies first. */
  references(refs: readonly SchemaReference[]): Maybe<ResolvedReference[]>;
}

/** The registry could not be reached or did not answer in time. */
export class RegistryUnreachableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'RegistryUnreachableError';
  }
}

const scopes = new Map<string, RegistryStore>();

/** The store of `mock://scope` (created on first use, shared by every serde of the scope). */
export function mockScope(scope: string): RegistryStore {
  let store = scopes.get(scope);
  if (store === undefined) scopes.set(scope, (store = new RegistryStore()));
  return store;
}

/** Forgets `mock://scope` (Confluent's `MockSchemaRegistry.dropScope`). */
export function dropMockScope(scope: string): void {
  scopes.delete(scope);
}

class MockClient implements RegistryClient {
  constructor(
    readonly display: string,
    private readonly store: RegistryStore,
  ) {}
  schemaById(id: number): RegistrySchema {
    return this.store.schemaById(id);
  }
  register(subject: string, schema: RegistrySchema): number {
    return this.store.register(subject, schema).id;
  }
  lookup(subject: string, schema: RegistrySchema): number {
    return this.store.lookup(subject, schema).id;
  }
  version(subject: string, version: number | 'latest'): FetchedVersion {
    const found = this.store.version(subject, version);
    return { id: found.id, schema: found.schema };
  }
  references(refs: readonly SchemaReference[]): ResolvedReference[] {
    return this.store.resolveReferences(refs);
  }
}

/** Request timeout of the HTTP client. */
const TIMEOUT_MS = 10_000;

interface Answer {
  id?: unknown;
  schema?: unknown;
  schemaType?: unknown;
  references?: unknown;
}

class HttpClient implements RegistryClient {
  readonly #base: string;
  readonly #authorization: string | undefined;
  readonly display: string;

  constructor(url: URL, auth: { username: string; password: string } | undefined) {
    const user = auth ?? (url.username !== '' ? { username: decodeURIComponent(url.username), password: decodeURIComponent(url.password) } : undefined);
    url.username = '';
    url.password = '';
    this.#base = url.toString().replace(/\/+$/, '');
    this.display = this.#base;
    this.#authorization = user === undefined ? undefined : `Basic ${Buffer.from(`${user.username}:${user.password}`).toString('base64')}`;
  }

  schemaById(id: number): Promise<RegistrySchema> {
    return this.#call('GET', `/schemas/ids/${id}`).then((a) => toSchema(a));
  }
  register(subject: string, schema: RegistrySchema): Promise<number> {
    return this.#call('POST', `/subjects/${encodeURIComponent(subject)}/versions`, body(schema)).then((a) => toId(a));
  }
  lookup(subject: string, schema: RegistrySchema): Promise<number> {
    return this.#call('POST', `/subjects/${encodeURIComponent(subject)}`, body(schema)).then((a) => toId(a));
  }
  version(subject: string, version: number | 'latest'): Promise<FetchedVersion> {
    return this.#call('GET', `/subjects/${encodeURIComponent(subject)}/versions/${version}`).then((a) => ({ id: toId(a), schema: toSchema(a) }));
  }
  async references(refs: readonly SchemaReference[], seen = new Set<string>()): Promise<ResolvedReference[]> {
    const out: ResolvedReference[] = [];
    for (const ref of refs) {
      const key = `${ref.subject}/${ref.version}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const found = await this.version(ref.subject, ref.version);
      out.push(...(await this.references(found.schema.references, seen)), { name: ref.name, schema: found.schema });
    }
    return out;
  }

  async #call(method: 'GET' | 'POST', path: string, payload?: unknown): Promise<Answer> {
    const headers: Record<string, string> = { accept: 'application/vnd.schemaregistry.v1+json, application/json' };
    if (payload !== undefined) headers['content-type'] = 'application/vnd.schemaregistry.v1+json';
    if (this.#authorization !== undefined) headers.authorization = this.#authorization;
    let response: Response;
    let text: string;
    try {
      response = await fetch(`${this.#base}${path}`, {
        method,
        headers,
        ...(payload === undefined ? {} : { body: JSON.stringify(payload) }),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
      text = await response.text();
    } catch (error) {
      const why = error instanceof Error ? ((error.cause as { code?: string } | undefined)?.code ?? error.message) : String(error);
      throw new RegistryUnreachableError(`schema registry ${this.display} did not answer ${method} ${path}: ${why}`, { cause: error });
    }
    let json: unknown;
    try {
      json = text === '' ? {} : JSON.parse(text);
    } catch {
      json = {};
    }
    if (!response.ok) {
      const { error_code: code, message } = json as { error_code?: unknown; message?: unknown };
      throw new RegistryAnswerError(response.status, typeof code === 'number' ? code : response.status, typeof message === 'string' ? message.slice(0, 500) : `HTTP ${response.status}`);
    }
    return json as Answer;
  }
}

function body(schema: RegistrySchema): unknown {
  return {
    schema: schema.schema,
    ...(schema.schemaType === 'AVRO' ? {} : { schemaType: schema.schemaType }),
    ...(schema.references.length > 0 ? { references: schema.references } : {}),
  };
}

function toId(answer: Answer): number {
  if (typeof answer.id !== 'number') throw new RegistryAnswerError(502, 50001, 'the registry answered without a schema id');
  return answer.id;
}

function toSchema(answer: Answer): RegistrySchema {
  const schemaType = schemaTypeOf(answer.schemaType);
  if (typeof answer.schema !== 'string' || schemaType === undefined) throw new RegistryAnswerError(502, 50001, 'the registry answered without a schema');
  const references = Array.isArray(answer.references) ? (answer.references as SchemaReference[]) : [];
  return { schema: answer.schema, schemaType, references };
}

/** The client of `url`: `mock://scope` or `http(s)://…`; undefined for another scheme. */
export function registryClient(url: string, auth: { username: string; password: string } | undefined): RegistryClient | undefined {
  if (url.startsWith('mock://')) {
    const scope = url.slice('mock://'.length);
    return new MockClient(url, mockScope(scope));
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return undefined;
  return new HttpClient(parsed, auth);
}
