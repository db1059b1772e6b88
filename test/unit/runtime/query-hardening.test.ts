/**
 * Issue 28 items 4, 8, 12 and 13 for the query API (fake apps, see
 * query-fixtures.ts, real servers on 127.0.0.1):
 * - an advertised address that is not this server's is refused at start,
 *   naming both (two instances advertising each other's address; the app's
 *   `localhost:P` against the server's `127.0.0.1:P`);
 * - forwarding has a total deadline: an owner that trickles bytes gets a 504
 *   naming it, for a key and for a range;
 * - 127.0.0.1 by default; a token (401 and nothing else without it) and TLS,
 *   both used when forwarding;
 * - a port in use is an error naming the port.
 */
import { createServer as createNetServer, type Server as NetServer, type Socket } from 'node:net';
import { request as httpsRequest } from 'node:https';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { IllegalArgumentError } from '../../../src/errors.js';
import { serveQueries, type QueryServer } from '../../../src/runtime/query-server.js';
import { selfSigned } from '../../helpers/self-signed.js';
import { FakeApp, FakeGroup, PARTITIONS, get, keysPerPartition, serve } from './query-fixtures.js';

async function freePort(): Promise<number> {
  const s = createNetServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as { port: number }).port;
  await new Promise((r) => s.close(r));
  return port;
}

const servers: QueryServer[] = [];
const extra: NetServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  for (const s of extra.splice(0)) s.close();
});

describe('the advertised address is this server (item 4)', () => {
  it('refuses two instances advertising each other’s address, naming both addresses', async () => {
    const [p1, p2] = [await freePort(), await freePort()];
    const error = await serveQueries(new FakeApp(new FakeGroup()), { port: p1, host: '127.0.0.1', applicationServer: `127.0.0.1:${p2}` }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(IllegalArgumentError);
    expect((error as Error).message).toContain(`127.0.0.1:${p2}`);
    expect((error as Error).message).toContain(`listening on 127.0.0.1:${p1}`);
    // the other one, once its peer runs, reaches a server that is not itself
    const group = new FakeGroup();
    const first = await serve(new FakeApp(group), servers);
    const second = await serveQueries(new FakeApp(group), { port: p2, host: '127.0.0.1', applicationServer: first.applicationServer }).catch((e: unknown) => e);
    expect((second as Error).message).toMatch(new RegExp(`applicationServer ${first.applicationServer} reaches another server .*another sluice instance.*listening on 127\\.0\\.0\\.1:${p2}`));
    // the port was released: it can be used again
    servers.push(await serveQueries(new FakeApp(group), { port: p2, host: '127.0.0.1' }));
  });

  it("refuses the app's applicationServer localhost:P against the server's 127.0.0.1:P (was a 503 for ever)", async () => {
    const port = await freePort();
    const app = Object.assign(new FakeApp(new FakeGroup()), { applicationServer: `localhost:${port}` });
    const error = await serveQueries(app, { port, host: '127.0.0.1', applicationServer: `127.0.0.1:${port}` }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(IllegalArgumentError);
    expect((error as Error).message).toContain(`'localhost:${port}'`);
    expect((error as Error).message).toContain(`'127.0.0.1:${port}'`);
    // without the option the server takes the app's address (and checks it reaches itself)
    const same = Object.assign(new FakeApp(new FakeGroup()), { applicationServer: `127.0.0.1:${port}` });
    const server = await serveQueries(same, { port, host: '127.0.0.1' });
    servers.push(server);
    expect(server.applicationServer).toBe(`127.0.0.1:${port}`);
  });
});

describe('forwarding deadline (item 8)', () => {
  /** An "owner" that answers headers and then one byte every 100 ms, for ever. */
  async function trickler(): Promise<string> {
    const sockets = new Set<Socket>();
    const server = createNetServer((socket) => {
      sockets.add(socket);
      socket.on('error', () => undefined);
      socket.once('data', () => {
        socket.write('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 100000\r\n\r\n');
        const timer = setInterval(() => socket.write(' '), 100);
        socket.on('close', () => clearInterval(timer));
      });
    });
    server.on('close', () => sockets.forEach((s) => s.destroy()));
    extra.push(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    return `127.0.0.1:${(server.address() as { port: number }).port}`;
  }

  it('answers 504 naming the slow owner within the deadline, for a key and for a range', async () => {
    const group = new FakeGroup();
    const a = new FakeApp(group);
    const sa = await serve(a, servers, { forwardTimeoutMs: 600 });
    const slow = await trickler();
    for (let p = 0; p < PARTITIONS; p++) group.owners.set(p, p === 0 ? slow : a.self);
    const key = keysPerPartition(1)[0]![0]!;
    const started = Date.now();
    const r = await get(sa, `/stores/counts/keys/${key}`);
    const took = Date.now() - started;
    expect(r.status).toBe(504);
    expect(r.body.slowInstance).toBe(slow);
    expect(r.body.error).toMatch(new RegExp(`instance ${slow} did not answer .* within 600 ms \\(forwardTimeoutMs\\)`));
    expect(took).toBeLessThan(2500); // the idle timeout alone never fired: a byte came every 100 ms
    const range = await get(sa, '/stores/counts');
    expect(range.status).toBe(504);
    expect(range.body.slowInstance).toBe(slow);
  });

  it('refuses a forwardTimeoutMs a timer cannot hold', async () => {
    await expect(serveQueries(new FakeApp(new FakeGroup()), { port: 0, host: '127.0.0.1', forwardTimeoutMs: 3e9 })).rejects.toThrow(/forwardTimeoutMs must be a whole number of milliseconds from 1 to 2147483647/);
  });
});

describe('local by default, token and TLS (item 12)', () => {
  const tls = selfSigned();
  afterAll(() => tls.dispose());

  it('listens on 127.0.0.1 unless told otherwise', async () => {
    const app = new FakeApp(new FakeGroup());
    const server = await serveQueries(app, { port: 0 });
    servers.push(server);
    expect(server.address.host).toBe('127.0.0.1');
    expect(server.applicationServer).toBe(`127.0.0.1:${server.address.port}`);
  });

  it('answers 401 and nothing else without the token; forwards with it', async () => {
    const group = new FakeGroup();
    const [a, b] = [new FakeApp(group), new FakeApp(group)];
    const sa = await serve(a, servers, { token: 'tok-2bd1' });
    await serve(b, servers, { token: 'tok-2bd1' });
    const [k0, k2] = [keysPerPartition(1)[0]![0]!, keysPerPartition(1)[2]![0]!];
    for (let p = 0; p < PARTITIONS; p++) group.owners.set(p, p < 2 ? a.self : b.self);
    a.data.set(k0, 1);
    b.data.set(k2, 2);
    for (const path of ['/stores', `/stores/counts/keys/${k0}`, '/stores/counts', '/health', '/nothing']) {
      const r = await get(sa, path);
      expect(r.status, path).toBe(401);
      expect(r.body, path).toEqual({ error: 'unauthorized' });
    }
    expect((await get(sa, '/stores', { headers: { authorization: 'Bearer wrong' } })).status).toBe(401);
    const auth = { headers: { authorization: 'Bearer tok-2bd1' } };
    expect((await get(sa, `/stores/counts/keys/${k0}`, auth)).body.value).toBe(1);
    const forwarded = await get(sa, `/stores/counts/keys/${k2}`, auth);
    expect(forwarded.status).toBe(200);
    expect(forwarded.body.value).toBe(2);
    expect(forwarded.body.host).toBe(b.self);
    const range = await get(sa, '/stores/counts', auth);
    expect(range.status).toBe(200);
    expect(range.body.entries).toHaveLength(2);
  });

  it('serves HTTPS and forwards over HTTPS, trusting the given CA', async () => {
    const group = new FakeGroup();
    const [a, b] = [new FakeApp(group), new FakeApp(group)];
    const options = { tls: { cert: tls.cert, key: tls.key, ca: tls.cert }, token: 'tls-tok' };
    const sa = await serve(a, servers, options);
    await serve(b, servers, options);
    for (let p = 0; p < PARTITIONS; p++) group.owners.set(p, b.self);
    const key = keysPerPartition(1)[1]![0]!;
    b.data.set(key, 42);
    const answer = await new Promise<{ status: number; body: any }>((resolve, reject) => {
      const req = httpsRequest({ host: '127.0.0.1', port: sa.address.port, path: `/stores/counts/keys/${key}`, ca: tls.cert, headers: { authorization: 'Bearer tls-tok' } }, (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
      });
      req.on('error', reject);
      req.end();
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ value: 42, host: b.self });
    await expect(fetch(`http://127.0.0.1:${sa.address.port}/health`)).rejects.toThrow();
  });

  it('refuses a token with spaces without quoting it', async () => {
    const error = await serveQueries(new FakeApp(new FakeGroup()), { port: 0, token: 'secret with space' }).catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/option token must be/);
    expect((error as Error).message).not.toContain('secret');
  });
});

describe('a port in use (item 13)', () => {
  it('rejects naming the port and the address, with code EADDRINUSE', async () => {
    const first = await serve(new FakeApp(new FakeGroup()), servers);
    const error = await serveQueries(new FakeApp(new FakeGroup()), { port: first.address.port, host: '127.0.0.1' }).catch((e: unknown) => e);
    expect((error as NodeJS.ErrnoException).code).toBe('EADDRINUSE');
    expect((error as Error).message).toMatch(new RegExp(`serveQueries\\(\\): port ${first.address.port} is already in use on 127\\.0\\.0\\.1`));
  });
});
