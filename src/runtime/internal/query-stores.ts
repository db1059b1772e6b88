/**
 * `GET /stores` (the stores and the instances holding them, from
 * `metadataForAllStreamsClients`) and `GET /health` (the app state).
 */
import { formatHostInfo } from '../../assignment/host-info.js';
import { selfText, type QueryContext } from './query-context.js';
import type { Reply } from './query-http.js';
import { QUERYABLE_KINDS } from '../interactive-queries.js';

/** Whether `/stores` lists store `name`: every store but a suppression's internal buffer. */
function listed(ctx: QueryContext, name: string): boolean {
  return ctx.app.storeKind?.(name) !== 'buffer';
}

/** `GET /stores`: each store with its type and whether the API reads it (`queryable`: key-value, versioned, window and session stores); internal buffers are not listed. */
export function describeStores(ctx: QueryContext): Reply {
  const clients = ctx.app.metadataForAllStreamsClients().map((m) => ({
    ...m,
    stateStoreNames: m.stateStoreNames.filter((n) => listed(ctx, n)),
    standbyStateStoreNames: m.standbyStateStoreNames.filter((n) => listed(ctx, n)),
  }));
  const stores = new Map<string, { hosts: string[]; standbyHosts: string[] }>();
  const entry = (name: string) => {
    let e = stores.get(name);
    if (!e) stores.set(name, (e = { hosts: [], standbyHosts: [] }));
    return e;
  };
  for (const m of clients) {
    for (const name of m.stateStoreNames) entry(name).hosts.push(formatHostInfo(m.hostInfo));
    for (const name of m.standbyStateStoreNames) entry(name).standbyHosts.push(formatHostInfo(m.hostInfo));
  }
  return {
    status: 200,
    body: {
      self: selfText(ctx),
      state: ctx.app.state,
      stores: [...stores].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([name, e]) => {
        const type = ctx.app.storeKind?.(name);
        return { name, ...(type ? { type, queryable: QUERYABLE_KINDS.includes(type) } : {}), hosts: e.hosts.sort(), standbyHosts: e.standbyHosts.sort() };
      }),
      instances: clients.map((m) => ({
        host: formatHostInfo(m.hostInfo),
        stores: m.stateStoreNames,
        standbyStores: m.standbyStateStoreNames,
        partitions: m.topicPartitions.map((tp) => `${tp.topic}-${tp.partition}`),
      })),
    },
  };
}

/** `GET /health`: 200 while RUNNING, else 503 (with `Retry-After: 1`), the state in both. */
export function health(ctx: QueryContext): Reply {
  const state = ctx.app.state;
  const running = state === 'RUNNING';
  return { status: running ? 200 : 503, body: { state, applicationServer: selfText(ctx) }, ...(running ? {} : { headers: { 'retry-after': '1' } }) };
}
