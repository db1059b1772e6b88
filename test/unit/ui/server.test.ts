/**
 * The live UI's HTTP server without a browser: routes, read-only (405),
 * default host binding, the SSE framing and cadence, the snapshot shape it
 * passes through, and close().
 */
import { get, request, type IncomingMessage } from 'node:http';
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { startUiServer, sseFrame, DEFAULT_UI_HOST } from '../../../src/ui/server.js';
import { libraryPaths } from '../../../src/ui/assets.js';
import type { UiDataSource, UiServer, UiSnapshot, UiTopology } from '../../../src/ui/types.js';

const TOPOLOGY: UiTopology = {
  applicationId: 'app',
  text: 'Topologies:',
  subtopologies: [{ id: 0, nodes: [{ type: 'source', name: 'src', topics: ['in'], successors: ['sink'] }, { type: 'sink', name: 'sink', topic: 'out', successors: [] }] }],
  globalStores: [],
  repartitionTopics: [],
  changelogs: {},
};

function snapshot(n: number): UiSnapshot {
  return {
    at: 1000 + n, applicationId: 'app', instance: 'app-client', state: 'RUNNING',
    totals: { recordsProcessed: n, recordsSkipped: 0, recordsProduced: n, droppedRecords: 0, deadLettered: 0, commits: 0, aborts: 0, taskRestarts: 0, rebalances: 1, consumerLag: 0 },
    restore: { restoredRecords: 0, remainingRecords: 0, totalRecords: 0, rate: 0, active: [] },
    tasks: [], topicLag: {}, nodes: { src: n, sink: n }, decisions: [],
  };
}

function fakeSource(): UiDataSource & { calls: number } {
  const source = {
    calls: 0,
    topology: () => TOPOLOGY,
    snapshot: () => snapshot(++source.calls),
  };
  return source;
}

function fetchRaw(url: string, method = 'GET'): Promise<{ status: number; headers: IncomingMessage['headers']; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
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

describe('UI server routes', () => {
  it('binds to 127.0.0.1 by default and reports its url', async () => {
    server = await startUiServer(fakeSource(), { port: 0 });
    expect(DEFAULT_UI_HOST).toBe('127.0.0.1');
    expect(server.host).toBe('127.0.0.1');
    expect(server.port).toBeGreaterThan(0);
    expect(server.url).toBe(`http://127.0.0.1:${server.port}/`);
  });

  it('serves the page, its script and style, and both libraries byte for byte from node_modules', async () => {
    server = await startUiServer(fakeSource(), { port: 0 });
    const page = await fetchRaw(server.url);
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    const html = page.body.toString();
    for (const src of ['/lib/dagre.min.js', '/lib/uPlot.iife.min.js', '/ui-graph.js', '/ui.js', '/ui.css', '/lib/uPlot.min.css']) expect(html).toContain(src);
    expect(html).not.toMatch(/https?:\/\//); // no CDN
    const paths = libraryPaths();
    const dagre = await fetchRaw(`${server.url}lib/dagre.min.js`);
    expect(dagre.headers['content-type']).toContain('javascript');
    expect(dagre.body.equals(readFileSync(paths.dagre))).toBe(true);
    const uplot = await fetchRaw(`${server.url}lib/uPlot.iife.min.js`);
    expect(uplot.body.equals(readFileSync(paths.uplot))).toBe(true);
    expect((await fetchRaw(`${server.url}lib/uPlot.min.css`)).headers['content-type']).toContain('text/css');
    const script = await fetchRaw(`${server.url}ui.js`);
    expect(script.body.toString()).toContain("new EventSource('/events')");
    expect((await fetchRaw(`${server.url}ui-graph.js`)).body.toString()).toContain('dagre.layout');
  });

  it('answers /topology and /snapshot as JSON from the data source', async () => {
    const source = fakeSource();
    server = await startUiServer(source, { port: 0 });
    const topology = await fetchRaw(`${server.url}topology`);
    expect(topology.headers['content-type']).toContain('application/json');
    expect(JSON.parse(topology.body.toString())).toEqual(TOPOLOGY);
    const snap = JSON.parse((await fetchRaw(`${server.url}snapshot?x=1`)).body.toString()) as UiSnapshot;
    expect(snap).toEqual(snapshot(1));
    expect(Object.keys(snap).sort()).toEqual(['applicationId', 'at', 'decisions', 'instance', 'nodes', 'restore', 'state', 'tasks', 'topicLag', 'totals']);
  });

  it('is read-only: anything but GET and HEAD is 405 naming GET; unknown paths are 404', async () => {
    server = await startUiServer(fakeSource(), { port: 0 });
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) {
      for (const path of ['', 'snapshot', 'events']) {
        const res = await fetchRaw(`${server.url}${path}`, method);
        expect(res.status, `${method} /${path}`).toBe(405);
        expect(res.headers.allow).toBe('GET, HEAD');
      }
    }
    const head = await fetchRaw(`${server.url}ui.js`, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    const missing = await fetchRaw(`${server.url}nope`);
    expect(missing.status).toBe(404);
    expect(missing.body.toString()).toContain('/snapshot');
  });
});

describe('UI server events (SSE)', () => {
  it('sends retry, a snapshot at once, then one per interval; takes no snapshot while no page is connected', async () => {
    const source = fakeSource();
    server = await startUiServer(source, { port: 0, intervalMs: 60 });
    await new Promise((r) => setTimeout(r, 200));
    expect(source.calls).toBe(0); // nothing connected: no work
    const received = await new Promise<{ headers: IncomingMessage['headers']; text: string }>((resolve, reject) => {
      const req = get(`${server!.url}events`, (res) => {
        let text = '';
        res.on('data', (c: Buffer) => {
          text += c.toString();
          if ((text.match(/event: snapshot/g) ?? []).length >= 3) {
            req.destroy();
            resolve({ headers: res.headers, text });
          }
        });
      });
      req.on('error', (e) => ((e as NodeJS.ErrnoException).code === 'ECONNRESET' ? undefined : reject(e)));
    });
    expect(received.headers['content-type']).toContain('text/event-stream');
    const frames = received.text.split('\n\n').filter((f) => f !== '');
    expect(frames[0]).toBe('retry: 1000');
    const events = frames.slice(1, 4).map((f) => {
      const [event, data] = f.split('\n');
      expect(event).toBe('event: snapshot');
      return JSON.parse(data!.slice('data: '.length)) as UiSnapshot;
    });
    expect(events.map((e) => e.totals.recordsProcessed)).toEqual([1, 2, 3]);
    // the page went away: the timer stops
    await new Promise((r) => setTimeout(r, 100));
    const after = source.calls;
    await new Promise((r) => setTimeout(r, 200));
    expect(source.calls).toBe(after);
  });

  it('frames one event as event/data lines and a blank line', () => {
    expect(sseFrame('snapshot', '{"a":1}')).toBe('event: snapshot\ndata: {"a":1}\n\n');
  });

  it('close() ends open event streams and stops listening', async () => {
    server = await startUiServer(fakeSource(), { port: 0, intervalMs: 50 });
    const url = server.url;
    const ended = new Promise<void>((resolve) => get(`${url}events`, (res) => res.on('end', () => resolve()).resume()));
    await new Promise((r) => setTimeout(r, 100));
    await server.close();
    await ended;
    await expect(fetchRaw(url)).rejects.toThrow(/ECONNREFUSED/);
    await server.close(); // idempotent
    server = undefined;
  });
});
