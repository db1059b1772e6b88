/**
 * `sluice run --query-port`: the flags and their environment variables, the
 * default `applicationServer` (advertised host or os.hostname(), a config's
 * own kept), and a worker running the orders example on the embedded cluster
 * serving its stores, closed with the app.
 */
import { createServer } from 'node:net';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/errors.js';
import { resolveRunOptions } from '../../../src/cli/options.js';
import { withQueryEndpoint } from '../../../src/cli/query-option.js';
import { runWorker } from '../../../src/cli/worker.js';
import { runCli } from '../../../src/cli/program.js';

const ROOT = new URL('../../../', import.meta.url).pathname;

function sink(): Writable & { text: () => string } {
  let text = '';
  const stream = new Writable({
    write(chunk: Buffer, _enc, cb) {
      text += chunk.toString();
      cb();
    },
  });
  return Object.assign(stream, { text: () => text });
}

describe('--query-port / --query-host / --query-advertised-host', () => {
  it('reads the flags over the environment; no query API and host 127.0.0.1 by default (issue 28 item 12: local only, like the UI)', () => {
    expect(resolveRunOptions('app.ts', {}, {})).toMatchObject({ queryPort: undefined, queryHost: '127.0.0.1', queryAdvertisedHost: undefined });
    expect(resolveRunOptions('app.ts', {}, { SLUICE_QUERY_PORT: '7070', SLUICE_QUERY_HOST: '127.0.0.1', SLUICE_QUERY_ADVERTISED_HOST: 'orders-1' })).toMatchObject({
      queryPort: 7070,
      queryHost: '127.0.0.1',
      queryAdvertisedHost: 'orders-1',
    });
    expect(resolveRunOptions('app.ts', { queryPort: '7071' }, { SLUICE_QUERY_PORT: '7070' }).queryPort).toBe(7071);
  });

  it.each([
    [{ queryPort: '0' }, /--query-port must be an integer from 1 to 65535, got '0'/],
    [{ queryPort: 'http' }, /--query-port must be an integer/],
    [{ queryAdvertisedHost: 'orders-1:7070' }, /--query-advertised-host must be an interface name or address without a port .* the port goes to --query-port/],
  ])('rejects %o with a ConfigError naming the flag', (flags, pattern) => {
    expect(() => resolveRunOptions('app.ts', flags, {})).toThrow(ConfigError);
    expect(() => resolveRunOptions('app.ts', flags, {})).toThrow(pattern);
  });

  it('advertises <advertised host or os.hostname()>:<query port> unless the config sets applicationServer', () => {
    const config = { applicationId: 'a' };
    expect(withQueryEndpoint(config, { queryPort: 7070, queryAdvertisedHost: undefined }, () => 'pod-3').applicationServer).toBe('pod-3:7070');
    expect(withQueryEndpoint(config, { queryPort: 7070, queryAdvertisedHost: 'orders-1.internal' }).applicationServer).toBe('orders-1.internal:7070');
    expect(withQueryEndpoint(config, { queryPort: 7070, queryAdvertisedHost: '::1' }).applicationServer).toBe('[::1]:7070');
    expect(withQueryEndpoint({ ...config, applicationServer: 'lb:80' }, { queryPort: 7070, queryAdvertisedHost: 'x' }).applicationServer).toBe('lb:80');
    expect(withQueryEndpoint(config, { queryPort: undefined, queryAdvertisedHost: 'x' }).applicationServer).toBeUndefined();
  });

  it('documents the flags in sluice run --help', async () => {
    const out = sink();
    expect(await runCli(['run', '--help'], { stdout: out, stderr: sink(), env: {}, cwd: ROOT })).toBe(0);
    expect(out.text()).toContain('--query-port <port>');
    expect(out.text()).toContain('--query-advertised-host <host>');
    expect(out.text()).toMatch(/os\.hostname\(\)/);
  });
});

describe('sluice run --query-port (in process)', { timeout: 60_000 }, () => {
  it("serves the app's stores at the advertised applicationServer once RUNNING, and closes the API with the app", async () => {
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const port = (probe.address() as { port: number }).port;
    await new Promise((r) => probe.close(r));
    const options = resolveRunOptions('examples/orders/app.ts', { embedded: true, queryPort: String(port), queryHost: '127.0.0.1', queryAdvertisedHost: '127.0.0.1', logLevel: 'silent' }, {});
    let stop: () => void = () => undefined;
    const stopSignal = new Promise<void>((r) => (stop = r));
    const seen: { stores?: any; health?: number; advertised?: string; unknown?: any } = {};
    const previous = process.env.ORDERS_SEED_COUNT;
    process.env.ORDERS_SEED_COUNT = '20';
    try {
      const code = await runWorker(options, { stdout: sink(), stderr: sink(), cwd: ROOT }, {
        handleSignals: false,
        stopSignal,
        onRunning: (app, info) => {
          void (async () => {
            try {
              expect(info.queryPort).toBe(port);
              seen.advertised = app.metadataForAllStreamsClients().map((m) => `${m.host}:${m.port}`).join(',');
              seen.health = (await fetch(`http://127.0.0.1:${port}/health`)).status;
              seen.stores = await (await fetch(`http://127.0.0.1:${port}/stores`)).json();
              seen.unknown = await (await fetch(`http://127.0.0.1:${port}/stores/nope`)).json();
            } finally {
              stop();
            }
          })();
        },
      });
      expect(code).toBe(0);
    } finally {
      if (previous === undefined) delete process.env.ORDERS_SEED_COUNT;
      else process.env.ORDERS_SEED_COUNT = previous;
    }
    expect(seen.health).toBe(200);
    expect(seen.advertised).toBe(`127.0.0.1:${port}`);
    expect(seen.stores.self).toBe(`127.0.0.1:${port}`);
    expect(seen.stores.stores.map((s: { name: string }) => s.name)).toContain('revenue-by-region');
    expect(seen.unknown.error).toMatch(/No state store 'nope'.*'revenue-by-region'/);
    await expect(fetch(`http://127.0.0.1:${port}/health`)).rejects.toThrow();
  });
});
