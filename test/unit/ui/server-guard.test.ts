/**
 * Issue 28 items 7, 9, 11 and 12 for the live UI: intervalMs is checked (0,
 * negative and NaN used to broadcast every 1 ms), a client that stops reading
 * holds a bounded buffer and the number of streams is bounded, the Host and
 * Origin headers are checked (DNS rebinding), and a token / TLS keep others out.
 */
import { connect } from 'node:net';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { IllegalArgumentError } from '../../../src/errors.js';
import { startUiServer, UI_MAX_BUFFERED_BYTES } from '../../../src/ui/server.js';
import type { UiDataSource, UiServer, UiSnapshot } from '../../../src/ui/types.js';
import { selfSigned } from '../../helpers/self-signed.js';

let calls = 0;
/** A source whose snapshots carry `pad` bytes, numbered by `at`. */
function source(pad = 0): UiDataSource {
  return {
    topology: () => ({ applicationId: 'app', text: '', subtopologies: [], globalStores: [], repartitionTopics: [], changelogs: {} }),
    snapshot: () => ({ at: ++calls, pad: 'x'.repeat(pad), applicationId: 'app', decisions: [{ message: 'value secret-42 failed' }] }) as unknown as UiSnapshot,
  };
}

interface Answer {
  status: number;
  headers: IncomingMessage['headers'];
  body: string;
}

function call(url: string, headers: Record<string, string> = {}, ca?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = (url.startsWith('https') ? httpsRequest : httpRequest)(url, { headers, agent: false, ...(ca ? { ca } : {}) }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

let server: UiServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('serveUi options (item 7)', () => {
  it.each([0, -5, Number.NaN, 1.5, 3e9, 10])('refuses intervalMs %s naming the option and its range', async (intervalMs) => {
    const error = await startUiServer(source(), { port: 0, intervalMs }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(IllegalArgumentError);
    expect((error as Error).message).toMatch(/intervalMs must be a whole number of milliseconds from 50 to 2147483647/);
  });
});

describe('Host and Origin (item 11)', () => {
  it('answers its own address, localhost and the configured names; 421 for any other Host, 403 for a foreign Origin', async () => {
    server = await startUiServer(source(), { port: 0, allowedHosts: ['ui.example.internal'] });
    const url = `${server.url}snapshot`;
    expect((await call(url)).status).toBe(200);
    expect((await call(url, { host: `localhost:${server.port}` })).status).toBe(200);
    expect((await call(url, { host: `ui.example.internal` })).status).toBe(200);
    const rebound = await call(url, { host: `evil.example:${server.port}` });
    expect(rebound.status).toBe(421);
    expect(rebound.body).not.toContain('secret-42');
    const cross = await call(url, { origin: 'http://evil.example' });
    expect(cross.status).toBe(403);
    expect(cross.body).not.toContain('secret-42');
    expect((await call(url, { origin: `http://127.0.0.1:${server.port}` })).status).toBe(200);
    expect((await call(`${server.url}events`, { host: 'evil.example' })).status).toBe(421);
  });
});

describe('token and TLS (item 12)', () => {
  const tls = selfSigned();
  afterAll(() => tls.dispose());

  it('answers 401 and nothing else without the token; Bearer or Basic (token as password) pass', async () => {
    server = await startUiServer(source(), { port: 0, token: 'ui-token-123' });
    for (const path of ['', 'snapshot', 'topology', 'events', 'nope']) {
      const r = await call(`${server.url}${path}`);
      expect(r.status, path).toBe(401);
      expect(r.body).toBe('unauthorized\n');
      expect(r.headers['www-authenticate']).toMatch(/^Basic realm=/);
    }
    expect((await call(`${server.url}snapshot`, { authorization: 'Bearer wrong' })).status).toBe(401);
    expect((await call(`${server.url}snapshot`, { authorization: 'Bearer ui-token-123' })).status).toBe(200);
    const basic = `Basic ${Buffer.from('anyone:ui-token-123').toString('base64')}`;
    expect((await call(`${server.url}snapshot`, { authorization: basic })).status).toBe(200);
  });

  it('serves HTTPS with the given certificate', async () => {
    server = await startUiServer(source(), { port: 0, tls: { cert: tls.cert, key: tls.key } });
    expect(server.url).toMatch(/^https:\/\/127\.0\.0\.1:/);
    const r = await call(`${server.url}snapshot`, {}, tls.cert);
    expect(r.status).toBe(200);
    expect(JSON.parse(r.body).applicationId).toBe('app');
    await expect(call(`http://127.0.0.1:${server.port}/snapshot`)).rejects.toThrow();
  });

  it('refuses a token with spaces and tls without a key, never quoting the token', async () => {
    const e1 = await startUiServer(source(), { port: 0, token: 'has space' }).catch((e: unknown) => e);
    expect((e1 as Error).message).toMatch(/option token must be/);
    expect((e1 as Error).message).not.toContain('has space');
    const e2 = await startUiServer(source(), { port: 0, tls: { cert: tls.cert } as never }).catch((e: unknown) => e);
    expect((e2 as Error).message).toMatch(/option tls needs cert and key/);
  });
});

describe('event stream limits (item 9)', () => {
  it('answers 503 beyond maxClients open streams', async () => {
    server = await startUiServer(source(), { port: 0, maxClients: 2 });
    const open: Array<() => void> = [];
    for (let i = 0; i < 2; i++) {
      await new Promise<void>((resolve) => {
        const req = httpRequest(`${server!.url}events`, { agent: false }, (res) => {
          expect(res.statusCode).toBe(200);
          open.push(() => req.destroy());
          res.resume();
          resolve();
        });
        req.on('error', () => undefined);
        req.end();
      });
    }
    const third = await call(`${server.url}events`);
    expect(third.status).toBe(503);
    expect(third.body).toMatch(/too many open event streams/);
    for (const close of open) close();
  });

  it('a client that stops reading holds at most one buffer: frames are skipped, and it gets the newest once it reads again', async () => {
    // 1 MB snapshots every 50 ms: 40 frames (40 MB) in 2 s if nothing were skipped; the kernel buffers a few
    const pad = 1024 * 1024;
    server = await startUiServer(source(pad), { port: 0, intervalMs: 50 });
    const socket = connect(server.port, '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    socket.write(`GET /events HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\n\r\n`);
    socket.pause(); // stop reading
    const first = calls;
    await new Promise((r) => setTimeout(r, 2000));
    const broadcasts = calls - first;
    expect(broadcasts).toBeGreaterThanOrEqual(20);
    // read everything that was buffered (kernel + server) and see how many frames it holds
    const resumedAt = calls;
    let text = '';
    socket.on('data', (c: Buffer) => (text += c.toString('latin1')));
    socket.resume();
    await new Promise((r) => setTimeout(r, 600));
    socket.destroy();
    const ats = [...text.matchAll(/"at":(\d+)/g)].map((m) => Number(m[1]));
    const backlog = ats.filter((at) => at <= resumedAt).length;
    // far fewer frames than snapshots were taken while it did not read (the rest were skipped, not queued) ...
    expect(backlog).toBeLessThan(broadcasts / 2);
    expect(backlog * pad).toBeLessThan(12 * UI_MAX_BUFFERED_BYTES);
    // ... and what it got after reading again is recent, not the backlog
    expect(Math.max(...ats)).toBeGreaterThanOrEqual(calls - 3);
  });
});
