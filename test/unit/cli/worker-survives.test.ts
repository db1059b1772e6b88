/**
 * Issue 12 item 7, CLI side: what used to kill a `sluice run` worker (a stack
 * trace, no close) now closes the app and ends with at most one `sluice:`
 * line on stderr.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { spawnCli, type CliProcess } from './spawn-cli.js';

const running: CliProcess[] = [];
function cli(args: string[], env: Record<string, string> = {}): CliProcess {
  const p = spawnCli(args, env);
  running.push(p);
  return p;
}
afterEach(() => {
  for (const p of running.splice(0)) if (p.child.exitCode === null) p.child.kill('SIGKILL');
});

async function until(predicate: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

function stderrLines(p: CliProcess): string[] {
  return p.stderr().split('\n').filter((l) => l !== '');
}

describe('sluice run does not die by accident', { timeout: 60_000 }, () => {
  it('SIGHUP closes the app like SIGTERM: exit 0, "closed" logged, nothing on stderr', async () => {
    const p = cli(['run', 'examples/orders/app.ts', '--embedded', '--log-level', 'info'], { ORDERS_SEED_COUNT: '50' });
    await until(() => p.stdout().includes('"msg":"app running"'), 'app running');
    p.child.kill('SIGHUP');
    expect(await p.exit).toBe(0);
    expect(p.stdout()).toContain('"msg":"SIGHUP received, closing"');
    expect(p.stdout()).toContain('"msg":"closed"');
    expect(p.stderr()).toBe('');
  });

  it('a handler answering with a rejecting Promise: exit 1, one sluice: line saying handlers answer synchronously, no stack trace', async () => {
    const p = cli(['run', 'test/unit/cli/fixtures/async-handler-app.ts', '--embedded', '--log-level', 'silent']);
    expect(await p.exit).toBe(1);
    const lines = stderrLines(p);
    expect(lines, p.stderr()).toHaveLength(1);
    expect(lines[0]).toMatch(/^sluice: .*asyncDeadLetterHandler returned a Promise: exception handlers must answer synchronously/);
  });

  it('stdout closed under the worker (EPIPE): the app is closed, exit 1, one sluice: line naming stdout', async () => {
    const p = cli(['run', 'test/unit/cli/fixtures/chatty-app.ts', '--embedded', '--log-level', 'info']);
    await until(() => p.stdout().includes('"msg":"record seen"'), 'records being logged');
    p.child.stdout!.destroy();
    expect(await p.exit).toBe(1);
    const lines = stderrLines(p);
    expect(lines, p.stderr()).toHaveLength(1);
    expect(lines[0]).toMatch(/^sluice: StreamsError: stdout was closed \(EPIPE\): the log has nowhere to go, so the app is closed/);
  });
});
