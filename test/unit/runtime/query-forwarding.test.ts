/**
 * The query server across instances (two or three servers on 127.0.0.1 over
 * fake apps, see query-fixtures.ts): forwarding to the owner, redirects, no
 * forwarding loop, an unreachable owner, stale reads from a standby, and the
 * range scatter-gather with its 503 paths.
 */
import { createServer as createHttpServer } from 'node:http';
import { createServer } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { QueryServer } from '../../../src/runtime/query-server.js';
import { InvalidStateStoreError } from '../../../src/runtime/interactive-queries.js';
import { FakeApp, FakeGroup, get, keysPerPartition, partitionOf, serve } from './query-fixtures.js';

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as { port: number }).port;
  await new Promise((r) => s.close(r));
  return port;
}

describe('query server: across instances', () => {
  const servers: QueryServer[] = [];
  let group: FakeGroup;
  let a: FakeApp;
  let b: FakeApp;
  let sa: QueryServer;
  let sb: QueryServer;
  const [k0, k1, k2, k3] = keysPerPartition(3);

  beforeEach(async () => {
    group = new FakeGroup();
    a = new FakeApp(group);
    b = new FakeApp(group);
    sa = await serve(a, servers);
    sb = await serve(b, servers);
    // a owns partitions 0 and 1, b owns 2 and 3; each holds its keys (count = index + 1)
    [0, 1].forEach((p) => group.owners.set(p, a.self));
    [2, 3].forEach((p) => group.owners.set(p, b.self));
    for (const [p, keys] of [k0!, k1!, k2!, k3!].entries()) keys.forEach((k, i) => (p < 2 ? a : b).data.set(k, p * 10 + i));
  });
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => s.close()));
  });

  it("forwards a key owned by another instance and relays the owner's answer (value, host, 404)", async () => {
    const key = k2![1]!;
    const r = await get(sa, `/stores/counts/keys/${key}`);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ store: 'counts', key, value: 21, host: b.self, partition: 2 });
    expect(r.headers.get('x-sluice-served-by')).toBe(b.self);
    // the owner was asked once (metadata, then the re-check), a asked its metadata once
    expect(b.metadataCalls).toBe(2);
    expect(a.metadataCalls).toBe(1);
    b.data.delete(key);
    const gone = await get(sa, `/stores/counts/keys/${key}`);
    expect(gone.status).toBe(404);
    expect(gone.body.key).toBe(key);
  });

  it('every key answers the same through either instance', async () => {
    for (const key of [...k0!, ...k1!, ...k2!, ...k3!]) {
      const [ra, rb] = [await get(sa, `/stores/counts/keys/${key}`), await get(sb, `/stores/counts/keys/${key}`)];
      expect(ra.status, key).toBe(200);
      expect(ra.body).toEqual(rb.body);
      expect(ra.body.host).toBe(partitionOf(key) < 2 ? a.self : b.self);
    }
  });

  it('?redirect=true answers 307 with the Location of the owner instead of forwarding', async () => {
    const key = k3![0]!;
    const r = await get(sa, `/stores/counts/keys/${key}?redirect=true`);
    expect(r.status).toBe(307);
    expect(r.headers.get('location')).toBe(`http://${b.self}/stores/counts/keys/${key}`);
    expect(b.metadataCalls).toBe(0);
    // following it gives the value
    const followed = await fetch(r.headers.get('location')!);
    expect(((await followed.json()) as { value: number }).value).toBe(30);
  });

  it('no forwarding loop: instances that name each other as owner answer 503 after one hop', async () => {
    const key = k0![0]!;
    // a's metadata says b owns partition 0, b's says a does
    a.owners = new Map(group.owners).set(0, b.self);
    b.owners = new Map(group.owners).set(0, a.self);
    const r = await get(sa, `/stores/counts/keys/${key}`);
    expect(r.status).toBe(503);
    expect(r.headers.get('retry-after')).toBe('1');
    expect(r.body.error).toMatch(/instances disagree/);
    expect(a.metadataCalls).toBe(1);
    expect(b.metadataCalls).toBe(1);
  });

  it('answers 503 naming the owner when it cannot be reached', async () => {
    const dead = `127.0.0.1:${await closedPort()}`;
    group.owners.set(3, dead);
    const r = await get(sa, `/stores/counts/keys/${k3![0]}`);
    expect(r.status).toBe(503);
    expect(r.headers.get('retry-after')).toBe('1');
    expect(r.body.owner).toBe(dead);
    expect(r.body.error).toMatch(/cannot be reached/);
  });

  it('relays the owner\'s 503 with its Retry-After', async () => {
    b.unavailable = true;
    const r = await get(sa, `/stores/counts/keys/${k2![0]}`);
    expect(r.status).toBe(503);
    expect(r.headers.get('retry-after')).toBe('1');
  });

  it('reads a local standby copy only with ?stale=true, passing enableStaleStores', async () => {
    const key = k2![0]!;
    group.standbys.set(2, [a.self]);
    a.data.set(key, 19); // a's standby copy lags behind b's 20
    const fresh = await get(sa, `/stores/counts/keys/${key}`);
    expect(fresh.body).toMatchObject({ value: 20, host: b.self });
    expect(fresh.body.stale).toBeUndefined();
    const stale = await get(sa, `/stores/counts/keys/${key}?stale=true`);
    expect(stale.status).toBe(200);
    expect(stale.body).toMatchObject({ value: 19, host: a.self, stale: true });
    expect(a.storeParams.at(-1)?.enableStaleStores).toBe(true);
    // not a standby here: ?stale=true still goes to the owner
    group.standbys.set(2, []);
    expect((await get(sa, `/stores/counts/keys/${key}?stale=true`)).body.host).toBe(b.self);
  });

  it('the range gathers every instance, sorted by key, each key once; ?local=true gives one part', async () => {
    const all = [...k0!, ...k1!, ...k2!, ...k3!].sort();
    for (const s of [sa, sb]) {
      const r = await get(s, '/stores/counts');
      expect(r.status).toBe(200);
      expect(r.body.entries.map((e: { key: string }) => e.key)).toEqual(all);
    }
    const local = await get(sa, '/stores/counts?local=true');
    expect(local.body.entries.map((e: { key: string }) => e.key)).toEqual([...k0!, ...k1!].sort());
    const [from, to] = [all[2]!, all[7]!];
    const bounded = await get(sb, `/stores/counts?from=${from}&to=${to}`);
    expect(bounded.body.entries.map((e: { key: string }) => e.key)).toEqual(all.slice(2, 8));
  });

  it('the range of an instance that holds no part of the store comes from the instances that do', async () => {
    for (let p = 0; p < 4; p++) group.owners.set(p, b.self);
    for (const key of [...k0!, ...k1!]) b.data.set(key, 1);
    const r = await get(sa, '/stores/counts');
    expect(r.status).toBe(200);
    expect(r.body.entries).toHaveLength(12);
    const local = await get(sa, '/stores/counts?local=true');
    expect(local.status).toBe(503);
    expect(local.body.error).toMatch(/holds none/);
  });

  it('the range answers 503 when a part is unavailable, unreachable, or seen under other owners', async () => {
    b.unavailable = true; // b's metadata check of its keys fails
    const r = await get(sa, '/stores/counts');
    expect(r.status).toBe(503);
    expect(r.headers.get('retry-after')).toBe('1');
    expect(r.body.host).toBe(b.self);
    b.unavailable = false;
    // b sees a third owner of partition 3: its fingerprint differs from a's
    b.owners = new Map(group.owners).set(3, '127.0.0.1:9');
    const disagree = await get(sa, '/stores/counts');
    expect(disagree.status).toBe(503);
    expect(disagree.body.error).toMatch(/other owners|holds none|owned by/);
    b.owners = undefined;
    group.owners.set(3, `127.0.0.1:${await closedPort()}`);
    const unreachable = await get(sa, '/stores/counts');
    expect(unreachable.status).toBe(503);
    expect(unreachable.body.error).toMatch(/cannot be reached/);
  });

  it('the range answers 503 when a key read locally is owned elsewhere by the time it is checked (a task moving)', async () => {
    a.afterRead = () => (a.owners = new Map(group.owners).set(0, b.self));
    const r = await get(sa, '/stores/counts');
    expect(r.status).toBe(503);
    expect(r.body.error).toMatch(/held by .* but owned by/);
    expect(r.body.entries).toBeUndefined();
  });

  it("the range relays another instance's 400 (a store of another kind there: retrying will not help), not a 503", async () => {
    b.readError = new InvalidStateStoreError("Store 'counts' is a window store and cannot be read as a key-value view", 'wrong-type');
    const r = await get(sa, '/stores/counts');
    expect(r.status).toBe(400);
    expect(r.body.error).toMatch(/is a window store/);
    expect(r.headers.get('x-sluice-served-by')).toBe(b.self);
    expect(r.headers.get('retry-after')).toBeNull();
  });

  it('a key route with parameters is forwarded to the owner with its checked parameters (and a redirect keeps them)', async () => {
    const key = k2![0]!;
    // the owner is a recording server: what path did the forward ask for?
    const asked: string[] = [];
    const owner = createHttpServer((req, res) => {
      asked.push(req.url ?? '');
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"windows":[]}');
    });
    await new Promise<void>((r) => owner.listen(0, '127.0.0.1', r));
    const ownerHost = `127.0.0.1:${(owner.address() as { port: number }).port}`;
    try {
      group.owners.set(partitionOf(key), ownerHost);
      const r = await get(sa, `/stores/counts/keys/${key}/windows?to=10&from=5&order=desc&redirect=false`);
      expect(r.status).toBe(200);
      expect(r.headers.get('x-sluice-served-by')).toBe(ownerHost);
      expect(asked).toEqual([`/stores/counts/keys/${key}/windows?from=5&to=10&order=desc`]);
      const redirect = await get(sa, `/stores/counts/keys/${key}/versions?to=10&redirect=true`);
      expect(redirect.status).toBe(307);
      expect(redirect.headers.get('location')).toBe(`http://${ownerHost}/stores/counts/keys/${key}/versions?to=10`);
      // a bad parameter is refused where it arrives, before any forwarding
      expect((await get(sa, `/stores/counts/keys/${key}/windows?from=x`)).status).toBe(400);
      expect(asked).toHaveLength(1);
    } finally {
      await new Promise((r) => owner.close(r));
    }
  });
});
