/**
 * `GET /stores` (the stores and the instances holding them, from
 * `metadataForAllStreamsClients`) and `GET /health` (the app state).
 */
import { formatHostInfo } from '../../assignment/host-info.js';
import { selfText, type QueryContext } from './query-context.js';
import type { Reply } from './query-http.js';

/** `GET /stores`. */
export function describeStores(ctx: QueryContext): Reply {
  const clients = ctx.app.metadataForAllStreamsClients();
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
      stores: [...stores].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([name, e]) => ({ name, hosts: e.hosts.sort(), standbyHosts: e.standbyHosts.sort() })),
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
