/**
 * Issue 28 items 12 and 13 for `sluice run`: the query API local by default
 * (and advertised as such), TLS and token flags for the three servers (the
 * token from the environment or a file, never a flag value, never logged),
 * and a port in use named with its flag.
 */
import { createServer, type Server } from 'node:net';
import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/errors.js';
import { resolveRunOptions } from '../../../src/cli/options.js';
import { withQueryEndpoint } from '../../../src/cli/query-option.js';
import { runWorker } from '../../../src/cli/worker.js';
import { createMetricsRegistry } from '../../../src/cli/metrics-registry.js';
import { startMetricsServer } from '../../../src/cli/metrics-server.js';
import { request as httpsRequest } from 'node:https';
import { selfSigned } from '../../helpers/self-signed.js';

const ROOT = new URL('../../../', import.meta.url).pathname;

function sink(): Writable & { text: () => string } {
  const chunks: string[] = [];
  const w = new Writable({
    write(chunk: Buffer, _enc, done) {
      chunks.push(chunk.toString());
      done();
    },
  });
  return Object.assign(w, { text: () => chunks.join('') });
}

describe('server flags (item 12)', () => {
  const tls = selfSigned();
  const dir = mkdtempSync(join(tmpdir(), 'sluice-flags-'));
  const tokenFile = join(dir, 'token');
  writeFileSync(tokenFile, 'file-token-1\n');
  afterAll(() => tls.dispose());

  it('listens on 127.0.0.1 by default and advertises that, not the host name', () => {
    const options = resolveRunOptions('app.ts', { queryPort: '7070' }, {});
    expect(options.queryHost).toBe('127.0.0.1');
    expect(withQueryEndpoint({ applicationId: 'a' }, options, () => 'pod-3').applicationServer).toBe('127.0.0.1:7070');
    const exposed = resolveRunOptions('app.ts', { queryPort: '7070', queryHost: '0.0.0.0' }, {});
    expect(withQueryEndpoint({ applicationId: 'a' }, exposed, () => 'pod-3').applicationServer).toBe('pod-3:7070');
  });

  it('reads TLS files and tokens for the query API, the UI and the metrics endpoint', () => {
    const options = resolveRunOptions(
      'app.ts',
      { queryTlsCert: tls.certPath, queryTlsKey: tls.keyPath, queryTlsCa: tls.certPath, uiTokenFile: tokenFile, metricsTlsCert: tls.certPath, metricsTlsKey: tls.keyPath },
      { SLUICE_QUERY_TOKEN: 'env-token-2', SLUICE_METRICS_TOKEN: 'env-token-3', SLUICE_UI_ALLOWED_HOSTS: 'ui.internal, proxy.internal' },
    );
    expect(options.querySecurity).toEqual({ tls: { cert: tls.cert, key: tls.key, ca: tls.cert }, token: 'env-token-2' });
    expect(options.uiSecurity).toEqual({ token: 'file-token-1' });
    expect(options.uiAllowedHosts).toEqual(['ui.internal', 'proxy.internal']);
    expect(options.metricsSecurity).toEqual({ tls: { cert: tls.cert, key: tls.key }, token: 'env-token-3' });
    expect(resolveRunOptions('app.ts', {}, {}).querySecurity).toEqual({});
  });

  it.each([
    [{ queryTlsCert: 'cert.pem' }, {}, /--query-tls-cert and --query-tls-key go together/],
    [{ uiTlsCert: '/nope/cert.pem', uiTlsKey: '/nope/key.pem' }, {}, /--ui-tls-cert: cannot read '\/nope\/cert.pem' \(ENOENT\)/],
    [{ queryTlsCa: 'ca.pem' }, {}, /--query-tls-ca needs --query-tls-cert and --query-tls-key/],
    [{}, { SLUICE_METRICS_TOKEN: 'two words' }, /metrics token \(SLUICE_METRICS_TOKEN\) must be visible ASCII/],
  ])('rejects %o / %o with a ConfigError naming what to change, never the token', (flags, env, pattern) => {
    let error: unknown;
    try {
      resolveRunOptions('app.ts', flags, env, ROOT);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(pattern);
    expect((error as Error).message).not.toContain('two words');
  });
});

describe('metrics endpoint token and TLS (item 12)', () => {
  const tls = selfSigned();
  afterAll(() => tls.dispose());

  it('answers 401 and nothing else without the token, 200 with it, over HTTPS', async () => {
    const registry = createMetricsRegistry({ metrics: () => ({}) as never, state: () => 'RUNNING' }, { defaults: false });
    const server = await startMetricsServer({ registry, port: 0, host: '127.0.0.1', healthy: () => true, token: 'metrics-tok', tls: { cert: tls.cert, key: tls.key } });
    try {
      const call = (path: string, headers: Record<string, string> = {}) =>
        new Promise<{ status: number; body: string }>((resolve, reject) => {
          const req = httpsRequest({ host: '127.0.0.1', port: server.port, path, ca: tls.cert, headers }, (res) => {
            let body = '';
            res.on('data', (c: Buffer) => (body += c.toString()));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
          });
          req.on('error', reject);
          req.end();
        });
      for (const path of ['/metrics', '/healthz']) {
        const r = await call(path);
        expect(r.status, path).toBe(401);
        expect(r.body).toBe('unauthorized\n');
      }
      const ok = await call('/healthz', { authorization: 'Bearer metrics-tok' });
      expect(ok).toEqual({ status: 200, body: 'ok\n' });
    } finally {
      await server.close();
    }
  });
});

describe('a port in use (item 13)', { timeout: 60_000 }, () => {
  const taken: Server[] = [];
  afterAll(() => taken.forEach((s) => s.close()));
  async function busyPort(): Promise<number> {
    const s = createServer();
    taken.push(s);
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
    return (s.address() as { port: number }).port;
  }

  it.each([
    ['--ui-port', 'uiPort'],
    ['--metrics-port', 'metricsPort'],
    ['--query-port', 'queryPort'],
  ] as const)('%s taken: the worker exits 2 naming the flag and the port', async (flag, key) => {
    const port = await busyPort();
    const options = resolveRunOptions('examples/orders/app.ts', { embedded: true, [key]: String(port), metricsHost: '127.0.0.1', logLevel: 'silent' }, { SLUICE_QUERY_TOKEN: 'never-logged-token' });
    const stdout = sink();
    const stderr = sink();
    const previous = process.env.ORDERS_SEED_COUNT;
    process.env.ORDERS_SEED_COUNT = '5';
    try {
      const code = await runWorker(options, { stdout, stderr, cwd: ROOT }, { handleSignals: false });
      expect(code).toBe(2);
    } finally {
      if (previous === undefined) delete process.env.ORDERS_SEED_COUNT;
      else process.env.ORDERS_SEED_COUNT = previous;
    }
    expect(stderr.text()).toContain(`${flag} ${port}`);
    expect(stderr.text()).toMatch(new RegExp(`port ${port} is already in use on 127\\.0\\.0\\.1`));
    expect(stdout.text() + stderr.text()).not.toContain('never-logged-token');
  });
});
