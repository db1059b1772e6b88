/**
 * Which engine the DSL's stores use (Kafka's `DslStoreSuppliers`, KIP-591 /
 * KIP-954): one object that makes the key-value, window and session store
 * suppliers of every store the DSL creates itself (aggregations, joins,
 * tables, foreign-key subscriptions). Chosen for the whole app with the
 * `dslStoreSuppliers` config, for one store with `Materialized.withStoreType`
 * or `Materialized.as(suppliers)` (that choice wins).
 *
 * The DSL builds its topology before the config is known, so a store it
 * creates without a per-store choice holds a {@link DslStoreChoice}: a
 * supplier that asks the suppliers bound by the runtime when the config is
 * read (`toRuntime`), the lmdb ones until then.
 */
import { ConfigError } from '../errors.js';
import type { KeyValueBytesStore, KeyValueBytesStoreSupplier } from './bytes-store-contract.js';
import type { SessionBytesStore, SessionBytesStoreSupplier } from './session-store.js';
import { Stores } from './stores.js';
import type { WindowBytesStore, WindowBytesStoreSupplier } from './window-store.js';

/** What a key-value store supplier is asked for (Kafka's `DslKeyValueParams`). */
export interface DslKeyValueParams {
  readonly name: string;
  /** True when the store keeps `{ value, timestamp }` (Kafka's `isTimestamped`). */
  readonly timestamped: boolean;
}

/** What a window store supplier is asked for (Kafka's `DslWindowParams`). */
export interface DslWindowParams {
  readonly name: string;
  /** ms */
  readonly retentionPeriod: number;
  /** ms */
  readonly windowSize: number;
  readonly retainDuplicates: boolean;
  readonly timestamped: boolean;
}

/** What a session store supplier is asked for (Kafka's `DslSessionParams`). */
export interface DslSessionParams {
  readonly name: string;
  /** ms */
  readonly retentionPeriod: number;
}

/** Makes the store suppliers of the stores the DSL creates (Kafka's `DslStoreSuppliers`). */
export interface DslStoreSuppliers {
  keyValueStore(params: DslKeyValueParams): KeyValueBytesStoreSupplier;
  windowStore(params: DslWindowParams): WindowBytesStoreSupplier;
  sessionStore(params: DslSessionParams): SessionBytesStoreSupplier;
}

/** The persistent default: lmdb under the task's state directory (Kafka's `RocksDBDslStoreSuppliers`). */
class LmdbDslStoreSuppliers implements DslStoreSuppliers {
  keyValueStore(params: DslKeyValueParams): KeyValueBytesStoreSupplier {
    return params.timestamped ? Stores.persistentTimestampedKeyValueStore(params.name) : Stores.persistentKeyValueStore(params.name);
  }
  windowStore(params: DslWindowParams): WindowBytesStoreSupplier {
    const { name, retentionPeriod, windowSize, retainDuplicates } = params;
    return params.timestamped
      ? Stores.persistentTimestampedWindowStore(name, retentionPeriod, windowSize, retainDuplicates)
      : Stores.persistentWindowStore(name, retentionPeriod, windowSize, retainDuplicates);
  }
  sessionStore(params: DslSessionParams): SessionBytesStoreSupplier {
    return Stores.persistentSessionStore(params.name, params.retentionPeriod);
  }
}

/** Every DSL store in memory (Kafka's `InMemoryDslStoreSuppliers`): no file is written; restored from the changelog. */
class InMemoryDslStoreSuppliers implements DslStoreSuppliers {
  keyValueStore(params: DslKeyValueParams): KeyValueBytesStoreSupplier {
    return Stores.inMemoryKeyValueStore(params.name);
  }
  windowStore(params: DslWindowParams): WindowBytesStoreSupplier {
    return Stores.inMemoryWindowStore(params.name, params.retentionPeriod, params.windowSize, params.retainDuplicates);
  }
  sessionStore(params: DslSessionParams): SessionBytesStoreSupplier {
    return Stores.inMemorySessionStore(params.name, params.retentionPeriod);
  }
}

/**
 * The built-in {@link DslStoreSuppliers} (Kafka's `BuiltInDslStoreSuppliers`):
 * `LmdbDslStoreSuppliers` (the default; Kafka's `RocksDBDslStoreSuppliers`) and
 * `InMemoryDslStoreSuppliers`. Give the class or an instance to the
 * `dslStoreSuppliers` config.
 */
export const BuiltInDslStoreSuppliers = { LmdbDslStoreSuppliers, InMemoryDslStoreSuppliers } as const;

/** The store types of `Materialized.withStoreType` (Kafka's `Materialized.StoreType`, plus `'lmdb'`: the same as `'rocks_db'`). */
export type DslStoreType = 'in_memory' | 'rocks_db' | 'lmdb';

const DEFAULT_SUPPLIERS: DslStoreSuppliers = new LmdbDslStoreSuppliers();
const IN_MEMORY_SUPPLIERS: DslStoreSuppliers = new InMemoryDslStoreSuppliers();

/** The suppliers of `type`; anything else is an error naming the types. */
export function dslStoreSuppliersOfType(type: DslStoreType, what: string): DslStoreSuppliers {
  if (type === 'in_memory') return IN_MEMORY_SUPPLIERS;
  if (type === 'rocks_db' || type === 'lmdb') return DEFAULT_SUPPLIERS;
  throw new ConfigError(`${what}: unknown store type ${JSON.stringify(type)}; use 'in_memory', 'rocks_db' or 'lmdb'`);
}

/**
 * The built-in suppliers of `supplier`'s engine. A helper store of a store
 * the user supplied (a stream-stream outer join's shared store, an
 * aggregation's emit-close-time store) takes the same engine, as Kafka's
 * (`OuterStreamJoinStoreFactory`): in memory beside an in-memory store, lmdb
 * beside a persistent one.
 */
export function dslStoreSuppliersLike(supplier: { readonly kind: 'in-memory' | 'persistent' }): DslStoreSuppliers {
  return supplier.kind === 'in-memory' ? IN_MEMORY_SUPPLIERS : DEFAULT_SUPPLIERS;
}

function isSuppliers(value: unknown): value is DslStoreSuppliers {
  const s = value as Partial<DslStoreSuppliers> | null;
  return typeof s === 'object' && s !== null && typeof s.keyValueStore === 'function' && typeof s.windowStore === 'function' && typeof s.sessionStore === 'function';
}

/**
 * The `dslStoreSuppliers` config (a {@link DslStoreSuppliers} class or
 * instance) as an instance; undefined when unset; a ConfigError naming the
 * key and the built-ins otherwise.
 */
export function resolveDslStoreSuppliers(value: unknown, key = 'dslStoreSuppliers'): DslStoreSuppliers | undefined {
  if (value === undefined) return undefined;
  if (isSuppliers(value)) return value;
  if (typeof value === 'function') {
    const made: unknown = new (value as new () => unknown)();
    if (isSuppliers(made)) return made;
  }
  throw new ConfigError(
    `Config '${key}' must be a DslStoreSuppliers class or instance (keyValueStore, windowStore and sessionStore methods), e.g. BuiltInDslStoreSuppliers.InMemoryDslStoreSuppliers`,
  );
}

/** True when `value` is a {@link DslStoreSuppliers} (for `Materialized.as`). */
export function isDslStoreSuppliers(value: unknown): value is DslStoreSuppliers {
  return isSuppliers(value);
}

/**
 * A supplier the DSL created without a per-store choice: it asks the
 * suppliers bound last (`bind`, from the runtime's config), lmdb until then.
 */
abstract class DslStoreChoice<S extends { readonly kind: 'in-memory' | 'persistent' }> {
  #suppliers: DslStoreSuppliers = DEFAULT_SUPPLIERS;
  /** Uses `suppliers` (undefined: the lmdb default) for every store made from now on. */
  bind(suppliers: DslStoreSuppliers | undefined): void {
    this.#suppliers = suppliers ?? DEFAULT_SUPPLIERS;
  }
  /** The engine the bound suppliers choose. */
  get kind(): 'in-memory' | 'persistent' {
    return this.resolve(this.#suppliers).kind;
  }
  protected current(): S {
    return this.resolve(this.#suppliers);
  }
  protected abstract resolve(suppliers: DslStoreSuppliers): S;
}

/** A key-value store supplier resolved from the bound {@link DslStoreSuppliers}. */
export class DslKeyValueChoice extends DslStoreChoice<KeyValueBytesStoreSupplier> implements KeyValueBytesStoreSupplier {
  readonly name: string;
  constructor(readonly params: DslKeyValueParams) {
    super();
    this.name = params.name;
  }
  get(): KeyValueBytesStore {
    return this.current().get();
  }
  protected resolve(suppliers: DslStoreSuppliers): KeyValueBytesStoreSupplier {
    return suppliers.keyValueStore(this.params);
  }
}

/** A window store supplier resolved from the bound {@link DslStoreSuppliers}. */
export class DslWindowChoice extends DslStoreChoice<WindowBytesStoreSupplier> implements WindowBytesStoreSupplier {
  readonly name: string;
  readonly retentionPeriod: number;
  readonly windowSize: number;
  readonly retainDuplicates: boolean;
  readonly timestamped: boolean;
  constructor(readonly params: DslWindowParams) {
    super();
    ({ name: this.name, retentionPeriod: this.retentionPeriod, windowSize: this.windowSize, retainDuplicates: this.retainDuplicates, timestamped: this.timestamped } = params);
    // Checks the arguments at once, as the eager supplier did.
    DEFAULT_SUPPLIERS.windowStore(params);
  }
  get segmentInterval(): number {
    return this.current().segmentInterval;
  }
  get(): WindowBytesStore {
    return this.current().get();
  }
  protected resolve(suppliers: DslStoreSuppliers): WindowBytesStoreSupplier {
    return suppliers.windowStore(this.params);
  }
}

/** A session store supplier resolved from the bound {@link DslStoreSuppliers}. */
export class DslSessionChoice extends DslStoreChoice<SessionBytesStoreSupplier> implements SessionBytesStoreSupplier {
  readonly name: string;
  readonly retentionPeriod: number;
  constructor(readonly params: DslSessionParams) {
    super();
    this.name = params.name;
    this.retentionPeriod = params.retentionPeriod;
    DEFAULT_SUPPLIERS.sessionStore(params);
  }
  get segmentInterval(): number {
    return this.current().segmentInterval;
  }
  get(): SessionBytesStore {
    return this.current().get();
  }
  protected resolve(suppliers: DslStoreSuppliers): SessionBytesStoreSupplier {
    return suppliers.sessionStore(this.params);
  }
}

/** True for the suppliers the runtime binds (see {@link DslStoreChoice}). */
export function isDslStoreChoice(supplier: unknown): supplier is DslKeyValueChoice | DslWindowChoice | DslSessionChoice {
  return supplier instanceof DslKeyValueChoice || supplier instanceof DslWindowChoice || supplier instanceof DslSessionChoice;
}

/** The DSL's key-value supplier: the per-store choice's, else one bound to the app's config. */
export function dslKeyValueSupplier(params: DslKeyValueParams, chosen: DslStoreSuppliers | undefined): KeyValueBytesStoreSupplier {
  return chosen === undefined ? new DslKeyValueChoice(params) : chosen.keyValueStore(params);
}

/** The DSL's window supplier: the per-store choice's, else one bound to the app's config. */
export function dslWindowSupplier(params: DslWindowParams, chosen: DslStoreSuppliers | undefined): WindowBytesStoreSupplier {
  return chosen === undefined ? new DslWindowChoice(params) : chosen.windowStore(params);
}

/** The DSL's session supplier: the per-store choice's, else one bound to the app's config. */
export function dslSessionSupplier(params: DslSessionParams, chosen: DslStoreSuppliers | undefined): SessionBytesStoreSupplier {
  return chosen === undefined ? new DslSessionChoice(params) : chosen.sessionStore(params);
}
