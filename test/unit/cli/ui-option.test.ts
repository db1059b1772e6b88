/**
 * `sluice run --ui-port`: the option and its environment variable, the host
 * default (local only), a bad host named with its fix, and a worker serving
 * the page of the orders example, logged with its URL.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/errors.js';
import { resolveRunOptions } from '../../../src/cli/options.js';
import { spawnCli, type CliProcess } from './spawn-cli.js';

describe('--ui-port / --ui-host', () => {
  it('reads the flags over SLUICE_UI_PORT / SLUICE_UI_HOST; no UI and host 127.0.0.1 by default', () => {
    expect(resolveRunOptions('app.ts', {}, {})).toMatchObject({ uiPort: undefined, uiHost: '127.0.0.1' });
    expect(resolveRunOptions('app.ts', {}, { SLUICE_UI_PORT: '8080', SLUICE_UI_HOST: '0.0.0.0' })).toMatchObject({ uiPort: 8080, uiHost: '0.0.0.0' });
    expect(resolveRunOptions('app.ts', { uiPort: '0', uiHost: '::1' }, { SLUICE_UI_PORT: '8080' })).toMatchObject({ uiPort: 0, uiHost: '::1' });
  });

  it.each([
    [{ uiPort: 'web' }, {}, /--ui-port must be an integer from 0 to 65535, got 'web'/],
    [{}, { SLUICE_UI_PORT: '70000' }, /SLUICE_UI_PORT \(or --ui-port\) must be an integer/],
    [{ uiHost: 'localhost:8080' }, {}, /--ui-host must be an interface name or address without a port .* the port goes to --ui-port/],
  ])('rejects %o / %o with a ConfigError naming what to change', (flags, env, pattern) => {
    expect(() => resolveRunOptions('app.ts', flags, env)).toThrow(ConfigError);
    expect(() => resolveRunOptions('app.ts', flags, env)).toThrow(pattern);
  });
});

const running: CliProcess[] = [];
afterEach(() => {
  for (const p of running.splice(0)) if (p.child.exitCode === null) p.child.kill('SIGKILL');
});

describe('sluice run --ui-port', { timeout: 60_000 }, () => {
  it('serves the live UI on 127.0.0.1, logs its URL, and closes it with the app', async () => {
    const p = spawnCli(['run', 'examples/orders/app.ts', '--embedded', '--ui-port', '0', '--log-level', 'info'], { ORDERS_SEED_COUNT: '50' });
    running.push(p);
    const deadline = Date.now() + 45_000;
    let url: string | undefined;
    while (!(url = /live UI on (http:\/\/127\.0\.0\.1:\d+\/)/.exec(p.stdout())?.[1]) || !p.stdout().includes('"msg":"app running"')) {
      if (Date.now() > deadline || p.child.exitCode !== null) throw new Error(`no UI line:\n${p.stdout()}\n${p.stderr()}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    const page = await fetch(url);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<script src="/ui.js">');
    const snapshot = (await (await fetch(`${url}snapshot`)).json()) as { state: string; tasks: unknown[] };
    expect(snapshot.state).toBe('RUNNING');
    expect(snapshot.tasks.length).toBeGreaterThan(0);
    expect((await fetch(url, { method: 'POST' })).status).toBe(405);
    p.child.kill('SIGTERM');
    expect(await p.exit).toBe(0);
    await expect(fetch(url)).rejects.toThrow();
  });
});
