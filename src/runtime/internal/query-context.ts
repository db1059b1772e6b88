/**
 * What the query API's routes share: the app (through its public query
 * methods only), this instance's advertised host, the key serde and the
 * renderer, and the request's flags.
 */
import { formatHostInfo, type HostInfo } from '../../assignment/host-info.js';
import type { Logger } from '../../internal/logger.js';
import type { Serializer } from '../../serdes/serde.js';
import type { QueryableStoreType, ReadOnlyKeyValueStore, StoreQueryParameters } from '../interactive-queries.js';
import type { QueryableApp } from '../queryable-app.js';
import type { PeerOptions } from './query-http.js';

/** The shared state of one query server. */
export interface QueryContext {
  app: QueryableApp;
  /** This instance's `applicationServer`. */
  self: HostInfo;
  keySerde: Serializer<unknown>;
  parseKey: (text: string) => unknown;
  render: (value: unknown) => unknown;
  forwardTimeoutMs: number;
  /** How this instance calls the others (deadline, TLS, token). */
  peer: PeerOptions;
  log: Logger;
}

/** The flags of one request. */
export interface RequestFlags {
  /** Came from another instance (header `x-sluice-forwarded`): never forwarded again. */
  forwarded: boolean;
  /** `?redirect=true`: answer 307 to the owner instead of forwarding. */
  redirect: boolean;
  /** `?stale=true`: a local standby copy may answer. */
  stale: boolean;
  /** `?local=true`: the range of this instance's tasks only. */
  local: boolean;
}

/** Whether `host` is this instance. */
export function isSelf(ctx: QueryContext, host: HostInfo): boolean {
  return host.host === ctx.self.host && host.port === ctx.self.port;
}

/** `host:port` of this instance. */
export function selfText(ctx: QueryContext): string {
  return formatHostInfo(ctx.self);
}

/** A key-value view of `storeName`; with `stale` it passes `enableStaleStores: true` (the local standby copies are read too). */
export function keyValueStore(ctx: QueryContext, storeName: string, stale: boolean): ReadOnlyKeyValueStore<unknown, unknown> {
  const params: StoreQueryParameters<ReadOnlyKeyValueStore<unknown, unknown>> = {
    storeName,
    queryableStoreType: { kind: 'keyValue' },
    ...(stale ? { enableStaleStores: true } : {}),
  };
  return ctx.app.store(params);
}

/** A view of `storeName` of `kind` (any queryable kind); with `stale` the local standby copies are read too. */
export function viewOf<T>(ctx: QueryContext, storeName: string, kind: QueryableStoreType<unknown>['kind'], stale: boolean): T {
  const params: StoreQueryParameters<T> = { storeName, queryableStoreType: { kind }, ...(stale ? { enableStaleStores: true } : {}) };
  return ctx.app.store(params);
}
