import { describe, expect, it } from 'vitest';
import { Writable } from 'node:stream';
import { ConfigError } from '../../../src/errors.js';
import { loadApp } from '../../../src/cli/load-app.js';
import { runCli } from '../../../src/cli/program.js';
import { ROOT } from './spawn-cli.js';

function sink(): { stream: Writable; text: () => string } {
  let text = '';
  const stream = new Writable({
    write(chunk: Buffer, _enc, cb) {
      text += chunk.toString();
      cb();
    },
  });
  return { stream, text: () => text };
}

async function cli(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const out = sink();
  const err = sink();
  const code = await runCli(args, { stdout: out.stream, stderr: err.stream, env: {}, cwd: ROOT });
  return { code, out: out.text(), err: err.text() };
}

describe('runCli (in process)', () => {
  it('prints help for the program and each command, exit 0', async () => {
    const root = await cli(['--help']);
    expect(root.code).toBe(0);
    expect(root.out).toContain('run [options] <module>');
    expect(root.out).toContain('describe [options] <module>');
    const run = await cli(['run', '--help']);
    expect(run.code).toBe(0);
    expect(run.out).toContain('--metrics-port <port>');
    expect(run.out).toContain('Exit codes: 0 after SIGINT/SIGTERM');
    const describeHelp = await cli(['describe', '--help']);
    expect(describeHelp.code).toBe(0);
    expect(describeHelp.out).toContain('--format <format>');
  });

  it('prints usage and exits 2 without a command, or with an unknown one', async () => {
    expect((await cli([])).code).toBe(2);
    const unknown = await cli(['frobnicate']);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain("unknown command 'frobnicate'");
  });

  it('describes a module as Mermaid', async () => {
    const r = await cli(['describe', 'examples/orders/app.ts', '-f', 'mermaid']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^flowchart TB\n/);
    expect(r.out).toContain('subgraph sub0');
    expect(r.out).toContain('"orders-eu"');
  });

  it('describes a plain JavaScript module exporting `app`', async () => {
    const r = await cli(['describe', 'test/unit/cli/fixtures/js-app.mjs']);
    expect(r.code).toBe(0);
    expect(r.out).toContain('(topics: [js-in])');
    expect(r.out).toContain('(topic: js-out)');
  });

  it('refuses an unknown format and a module without app, exit 2', async () => {
    const bad = await cli(['describe', 'examples/orders/app.ts', '--format', 'svg']);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain("'svg' is invalid");
    const none = await cli(['describe', 'test/unit/cli/fixtures/no-app.ts']);
    expect(none.code).toBe(2);
    expect(none.err).toMatch(/^sluice: test\/unit\/cli\/fixtures\/no-app\.ts exports no app: add `export default defineApp[^\n]*\n$/);
  });

  it('names a missing module in one line, exit 2', async () => {
    const r = await cli(['describe', 'nope/missing.ts']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^sluice: Module not found: .*nope\/missing\.ts \(pass the path of a \.ts or \.js file exporting defineApp\(\{\.\.\.\}\)\)\n$/);
  });
});

describe('loadApp', () => {
  it('returns the default export, or the `app` export', async () => {
    expect((await loadApp('examples/orders/app.ts', ROOT)).name).toBe('orders');
    expect((await loadApp('test/unit/cli/fixtures/js-app.mjs', ROOT)).config?.applicationId).toBe('js-app');
    await expect(loadApp('test/unit/cli/fixtures/no-app.ts', ROOT)).rejects.toBeInstanceOf(ConfigError);
  });
});
