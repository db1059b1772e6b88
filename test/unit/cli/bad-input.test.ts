/**
 * Issue 12, CLI side: bad input ends with one `sluice:` line naming what to
 * change, before anything touches the cluster.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../src/cli/program.js';
import { ROOT, spawnCli } from './spawn-cli.js';

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

async function cli(args: string[], env: Record<string, string> = {}): Promise<{ code: number; out: string; err: string }> {
  const out = sink();
  const err = sink();
  const code = await runCli(args, { stdout: out.stream, stderr: err.stream, env, cwd: ROOT });
  return { code, out: out.text(), err: err.text() };
}

describe('sluice run refuses a commit interval at or above the transaction timeout (issue 12 item 4)', () => {
  it.each([
    [['-c', '70000'], {}],
    [[], { SLUICE_COMMIT_INTERVAL_MS: '60000' }],
  ])('%o %o: exit 2, one line naming both keys and the flag', async (flags, env) => {
    const r = await cli(['run', 'examples/orders/app.ts', '--embedded', '--log-level', 'silent', ...flags], env);
    expect(r.code).toBe(2);
    const lines = r.err.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^sluice: Config 'commitIntervalMs' \(\d+\) must be smaller than 'transactionTimeoutMs' \(60000\)/);
    expect(lines[0]).toContain('--commit-interval-ms');
  });
});

describe('a module with a syntax error (issue 12, minor)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sluice-syntax-'));
  writeFileSync(join(dir, 'package.json'), '{"type":"module"}\n');
  writeFileSync(join(dir, 'broken.ts'), "export default {\n  topology() { return (1 + ; },\n};\n");
  writeFileSync(join(dir, 'broken.mjs'), "export const app = {\n\n  topology() { return (1 + ; },\n};\n");
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each([
    ['broken.ts', /^sluice: Cannot load .*broken\.ts: syntax error at .*broken\.ts:2:27: Unexpected ";"\n$/],
    ['broken.mjs', /^sluice: Cannot load .*broken\.mjs: SyntaxError at .*broken\.mjs:3: Unexpected token ';'\n$/],
  ])('%s: exit 2, one line with file, line and reason', { timeout: 30_000 }, async (file, expected) => {
    const p = spawnCli(['describe', join(dir, file)]);
    expect(await p.exit).toBe(2);
    expect(p.stderr()).toMatch(expected);
  });
});
