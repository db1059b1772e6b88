/**
 * The README's `sluice run` example module, exactly as written there, run by
 * `node bin/sluice.js` inside this repository: its `import ... from 'sluice'`
 * must get the CLI's own copy of the classes (src/), not dist/ (missing or a
 * second copy whose Topology the CLI rejects as "Not a sluice Topology").
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { waitFor } from '../../helpers/index.js';
import { ROOT, spawnCli, type CliProcess } from './spawn-cli.js';

const moduleFile = `test/unit/cli/fixtures/readme-app-${process.pid}.ts`;
let running: CliProcess | undefined;
afterEach(() => {
  if (running?.child.exitCode === null) running.child.kill('SIGKILL');
  running = undefined;
  rmSync(join(ROOT, moduleFile), { force: true });
});

/** The README's `// orders-app.ts` code block, verbatim. */
function readmeExample(): string {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const block = /```ts\n(\/\/ orders-app\.ts\n[\s\S]*?)```/.exec(readme)?.[1];
  if (block === undefined) throw new Error("README.md has no ```ts block starting with '// orders-app.ts'");
  return block;
}

it("runs the README's example module as written (imports 'sluice'), reaches RUNNING and exits 0 on SIGTERM", { timeout: 60_000 }, async () => {
  const source = readmeExample();
  expect(source).toContain("from 'sluice'");
  writeFileSync(join(ROOT, moduleFile), source);
  const p = (running = spawnCli(['run', moduleFile, '--embedded', '--log-level', 'info']));
  await waitFor(() => p.stdout().includes('"msg":"started"') || p.child.exitCode !== null, { timeoutMs: 45_000, message: 'the app started' });
  expect(p.stderr()).toBe('');
  expect(p.stdout()).toContain('"msg":"started"');
  p.child.kill('SIGTERM');
  expect(await p.exit).toBe(0);
  expect(p.stderr()).toBe('');
});
