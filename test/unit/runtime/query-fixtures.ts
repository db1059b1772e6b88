/**
 * Fake apps for the query server's unit tests: a {@link FakeGroup} says which
 * host owns each partition of topic 'in' (4 partitions) and which hosts hold
 * standby copies; each {@link FakeApp} has its own data and (by default) the
 * group's metadata, which a case can override to make instances disagree.
 */
import { partitionFor } from '../../../src/records/partitioner.js';
import { InvalidStateStoreError, type ReadOnlyKeyValueStore, type StoreQueryParameters } from '../../../src/runtime/interactive-queries.js';
import { KeyQueryMetadata, UnknownStateStoreError, type StreamsMetadata } from '../../../src/runtime/streams-metadata.js';
import { serveQueries, type QueryableApp, type QueryServer, type QueryServerOptions } from '../../../src/runtime/query-server.js';
import type { Serializer } from '../../../src/serdes/serde.js';

export const PARTITIONS = 4;
export const STORES = ['counts'];

/** The partition of a string key. */
export const partitionOf = (key: string): number => partitionFor(Buffer.from(key), PARTITIONS);

/** Which host owns (and which hold standbys of) each partition. */
export class FakeGroup {
  owners = new Map<number, string>();
  standbys = new Map<number, string[]>();
}

const hostInfo = (text: string) => {
  const i = text.lastIndexOf(':');
  return { host: text.slice(0, i), port: Number(text.slice(i + 1)) };
};

/** A fake `KafkaStreams` over the public query methods (see the module comment). */
export class FakeApp implements QueryableApp {
  state = 'RUNNING';
  self = '';
  /** All keys this instance has in its store (active or standby copies). */
  data = new Map<unknown, unknown>();
  /** Overrides the group's metadata for this instance. */
  owners: Map<number, string> | undefined;
  unavailable = false;
  /** Thrown by every read of the store view. */
  readError: Error | undefined;
  /** Runs after every read of the store view (to move a task between the metadata and the read). */
  afterRead: (() => void) | undefined;
  metadataCalls = 0;
  storeParams: Array<StoreQueryParameters<unknown> & { enableStaleStores?: boolean }> = [];

  constructor(readonly group: FakeGroup) {}

  #owners(): Map<number, string> {
    return this.owners ?? this.group.owners;
  }

  #check(store: string): void {
    if (!STORES.includes(store)) throw new UnknownStateStoreError(`No state store '${store}' in the topology; its stores are: 'counts'`);
  }

  queryMetadataForKey<K>(storeName: string, key: K, keySerializer: Serializer<K>): KeyQueryMetadata {
    this.metadataCalls++;
    this.#check(storeName);
    if (this.unavailable || this.state !== 'RUNNING') return KeyQueryMetadata.NOT_AVAILABLE;
    const partition = partitionFor(keySerializer.serialize('in', key)!, PARTITIONS);
    const owner = this.#owners().get(partition);
    if (owner === undefined) return KeyQueryMetadata.NOT_AVAILABLE;
    return { activeHost: hostInfo(owner), standbyHosts: (this.group.standbys.get(partition) ?? []).map(hostInfo), partition };
  }

  streamsMetadataForStore(storeName: string): StreamsMetadata[] {
    this.#check(storeName);
    return this.metadataForAllStreamsClients();
  }

  metadataForAllStreamsClients(): StreamsMetadata[] {
    const byHost = new Map<string, number[]>();
    for (const [p, host] of this.#owners()) byHost.set(host, [...(byHost.get(host) ?? []), p]);
    return [...byHost].map(([host, partitions]) => ({
      hostInfo: hostInfo(host),
      ...hostInfo(host),
      stateStoreNames: STORES,
      topicPartitions: partitions.sort().map((partition) => ({ topic: 'in', partition })),
      standbyStateStoreNames: [],
      standbyTopicPartitions: [],
    }));
  }

  store<T>(params: StoreQueryParameters<T>): T {
    this.storeParams.push(params as StoreQueryParameters<unknown>);
    this.#check(params.storeName);
    const stale = (params as { enableStaleStores?: boolean }).enableStaleStores === true;
    const local = (): Array<[unknown, unknown]> => {
      if (this.readError) throw this.readError;
      if (this.state !== 'RUNNING' && this.state !== 'REBALANCING') throw new InvalidStateStoreError(`app is ${this.state}`);
      const mine = (k: unknown) => {
        const p = partitionOf(String(k));
        return this.#owners().get(p) === this.self || (stale && (this.group.standbys.get(p) ?? []).includes(this.self));
      };
      const entries = [...this.data].filter(([k]) => mine(k));
      this.afterRead?.();
      return entries;
    };
    const view: ReadOnlyKeyValueStore<unknown, unknown> = {
      get: (key) => local().find(([k]) => k === key)?.[1] ?? null,
      range: (from, to) =>
        local()
          .filter(([k]) => (from === null || String(k) >= String(from)) && (to === null || String(k) <= String(to)))
          .map(([key, value]) => ({ key, value })),
      all: () => view.range(null, null),
      approximateNumEntries: () => local().length,
    };
    return view as T;
  }
}

/** Starts a query server for `app` on 127.0.0.1 (any port) and records the app's `self`. */
export async function serve<K = string>(app: FakeApp, servers: QueryServer[], options: Partial<QueryServerOptions<K>> = {}): Promise<QueryServer> {
  const server = await serveQueries<K>(app, { port: 0, host: '127.0.0.1', forwardTimeoutMs: 1000, ...options });
  app.self = server.applicationServer;
  servers.push(server);
  return server;
}

/** GET `path` from `server` without following redirects; the body parsed as JSON. */
export async function get(server: QueryServer, path: string, init: { method?: string; headers?: Record<string, string> } = {}): Promise<{ status: number; body: any; headers: Headers }> {
  const res = await fetch(`http://127.0.0.1:${server.address.port}${path}`, { redirect: 'manual', ...init });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: res.status, body, headers: res.headers };
}

/** Keys `key-0`... until each partition has at least `perPartition` of them. */
export function keysPerPartition(perPartition: number): string[][] {
  const by: string[][] = Array.from({ length: PARTITIONS }, () => []);
  for (let i = 0; by.some((k) => k.length < perPartition); i++) {
    const key = `key-${i}`;
    const p = partitionOf(key);
    if (by[p]!.length < perPartition) by[p]!.push(key);
  }
  return by;
}
