/**
 * The query server's routes on one instance (fake app, see query-fixtures.ts):
 * local keys, absent keys, unknown stores and paths, methods, health, the
 * store list, the 503 paths of a local read, and errors that never crash it.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InvalidStateStoreError } from '../../../src/runtime/interactive-queries.js';
import { serveQueries, type QueryServer } from '../../../src/runtime/query-server.js';
import { Serdes } from '../../../src/serdes/serdes.js';
import { partitionFor } from '../../../src/records/partitioner.js';
import { FakeApp, FakeGroup, PARTITIONS, get, partitionOf, serve } from './query-fixtures.js';

describe('query server: one instance', () => {
  const servers: QueryServer[] = [];
  let group: FakeGroup;
  let app: FakeApp;
  let server: QueryServer;

  beforeEach(async () => {
    group = new FakeGroup();
    app = new FakeApp(group);
    server = await serve(app, servers);
    for (let p = 0; p < PARTITIONS; p++) group.owners.set(p, app.self);
    app.data.set('alice', 3);
    app.data.set('a/b c', 7);
  });
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => s.close()));
  });

  it('answers a local key with its value, host and partition; the key is URL-decoded', async () => {
    const alice = await get(server, '/stores/counts/keys/alice');
    expect(alice.status).toBe(200);
    expect(alice.body).toEqual({ store: 'counts', key: 'alice', value: 3, host: app.self, partition: partitionOf('alice') });
    const slashed = await get(server, `/stores/counts/keys/${encodeURIComponent('a/b c')}`);
    expect(slashed.status).toBe(200);
    expect(slashed.body.value).toBe(7);
    expect(slashed.body.key).toBe('a/b c');
  });

  it('answers 404 with the key for a key the store does not have', async () => {
    const r = await get(server, '/stores/counts/keys/bob');
    expect(r.status).toBe(404);
    expect(r.body.key).toBe('bob');
    expect(r.body.error).toMatch(/no key 'bob'/);
  });

  it('renders bigint values as decimal strings and bytes as base64', async () => {
    app.data.set('big', 2n ** 64n);
    app.data.set('bytes', Buffer.from('hi'));
    expect((await get(server, '/stores/counts/keys/big')).body.value).toBe('18446744073709551616');
    expect((await get(server, '/stores/counts/keys/bytes')).body.value).toEqual({ base64: Buffer.from('hi').toString('base64') });
  });

  it('serializes the key with keySerde and parses it with parseKey for the partition', async () => {
    const numeric = new FakeApp(group);
    const s = await serve(numeric, servers, { keySerde: Serdes.Integer(), parseKey: (text: string) => Number(text) });
    numeric.data.set(42, 'forty-two');
    for (let p = 0; p < PARTITIONS; p++) group.owners.set(p, numeric.self);
    const r = await get(s, '/stores/counts/keys/42');
    expect(r.status).toBe(200);
    expect(r.body.partition).toBe(partitionFor(Serdes.Integer().serialize('in', 42)!, PARTITIONS));
    expect(r.body.value).toBe('forty-two');
  });

  it('answers 404 naming the known stores for an unknown store, and 404 listing the endpoints for an unknown path', async () => {
    const store = await get(server, '/stores/nope/keys/alice');
    expect(store.status).toBe(404);
    expect(store.body.error).toMatch(/No state store 'nope'.*'counts'/);
    expect((await get(server, '/stores/nope')).status).toBe(404);
    const path = await get(server, '/nothing/here');
    expect(path.status).toBe(404);
    expect(path.body.error).toMatch(/GET \/stores\/<store>\/keys\/<key>/);
    expect((await get(server, '/stores/counts/keys')).status).toBe(404);
    expect((await get(server, '/stores/counts/keys/a/b')).status).toBe(404);
  });

  it('answers 405 with Allow: GET for other methods, and 400 for broken URL encoding', async () => {
    const r = await get(server, '/stores/counts/keys/alice', { method: 'POST' });
    expect(r.status).toBe(405);
    expect(r.headers.get('allow')).toBe('GET');
    const bad = await get(server, '/stores/counts/keys/%E0%A4%A');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/URL encoding/);
  });

  it('health is 200 with the state while RUNNING and 503 otherwise; /stores lists stores and instances', async () => {
    expect(await get(server, '/health')).toMatchObject({ status: 200, body: { state: 'RUNNING', applicationServer: app.self } });
    const stores = await get(server, '/stores');
    expect(stores.status).toBe(200);
    expect(stores.body.stores).toEqual([{ name: 'counts', hosts: [app.self], standbyHosts: [] }]);
    expect(stores.body.instances[0].partitions).toEqual(['in-0', 'in-1', 'in-2', 'in-3']);
    app.state = 'REBALANCING';
    const h = await get(server, '/health');
    expect(h.status).toBe(503);
    expect(h.body.state).toBe('REBALANCING');
  });

  it('answers 503 with Retry-After when the key metadata is not available (rebalancing)', async () => {
    app.unavailable = true;
    const r = await get(server, '/stores/counts/keys/alice');
    expect(r.status).toBe(503);
    expect(r.headers.get('retry-after')).toBe('1');
    expect(r.body.error).toMatch(/not known now/);
  });

  it('answers 503 when the local store cannot be read (a task restoring)', async () => {
    app.readError = new InvalidStateStoreError("Store 'counts' is not available: task(s) 0_1 of this instance are restoring it; retry shortly");
    const r = await get(server, '/stores/counts/keys/alice');
    expect(r.status).toBe(503);
    expect(r.headers.get('retry-after')).toBe('1');
    expect(r.body.error).toMatch(/restoring/);
    expect((await get(server, '/stores/counts')).status).toBe(503);
  });

  it('answers 503, not the value, when the task moves away between the metadata and the read', async () => {
    app.afterRead = () => group.owners.set(partitionOf('alice'), '127.0.0.1:1');
    const r = await get(server, '/stores/counts/keys/alice');
    expect(r.status).toBe(503);
    expect(r.body.error).toMatch(/moved while it was read/);
    expect(r.body.value).toBeUndefined();
  });

  it('answers 503 when the app leaves RUNNING during the read', async () => {
    app.afterRead = () => (app.state = 'REBALANCING');
    expect((await get(server, '/stores/counts/keys/alice')).status).toBe(503);
  });

  it('a failing store answers 500 JSON and the server keeps answering', async () => {
    app.readError = new Error('disk on fire');
    const r = await get(server, '/stores/counts/keys/alice');
    expect(r.status).toBe(500);
    expect(r.body.error).toMatch(/disk on fire/);
    app.readError = undefined;
    expect((await get(server, '/stores/counts/keys/alice')).status).toBe(200);
  });

  it('refuses a bad port and a wildcard host without applicationServer, naming the option', async () => {
    await expect(serveQueries(app, { port: -1 })).rejects.toThrow(/port must be an integer/);
    await expect(serveQueries(app, { port: 0, host: '0.0.0.0' })).rejects.toThrow(/pass applicationServer/);
    await expect(serveQueries(app, { port: 0, host: '127.0.0.1', applicationServer: 'nope' })).rejects.toThrow(/applicationServer 'nope' is not 'host:port'/);
  });
});
