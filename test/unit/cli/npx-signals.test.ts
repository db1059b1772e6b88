// `npx sluice run …` runs the worker as npm → sh -c 'sluice' … → node: npm forwards SIGTERM to the sh only,
// which dies without passing it on. Before the parent watch, the worker kept running (reparented) and holding
// its partitions after `kill -TERM <npx pid>`.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from './spawn-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'sluice-npx-'));
let workerPid: number | undefined;
const launched: ChildProcess[] = [];

afterAll(() => {
  if (workerPid !== undefined && alive(workerPid)) process.kill(workerPid, 'SIGKILL');
  for (const child of launched) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function until(predicate: () => boolean, what: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A project with sluice installed (a symlink to this checkout) and a tiny app that writes its pid. */
function project(): void {
  mkdirSync(join(dir, 'node_modules', '.bin'), { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'npx-signal-test', private: true, scripts: { start: 'sluice run app.mjs --embedded --no-progress' } }));
  symlinkSync(ROOT, join(dir, 'node_modules', 'sluice'));
  symlinkSync('../sluice/bin/sluice.js', join(dir, 'node_modules', '.bin', 'sluice'));
  writeFileSync(
    join(dir, 'app.mjs'),
    `import { writeFileSync } from 'node:fs';
import { StreamsBuilder } from 'sluice';
export const app = {
  config: { applicationId: 'npx-app' },
  async setup({ admin }) {
    writeFileSync('worker.pid', String(process.pid));
    await admin.createTopic('in', { partitions: 1 });
    await admin.createTopic('out', { partitions: 1 });
  },
  topology() { const b = new StreamsBuilder(); b.stream('in').to('out'); return b.build(); },
};
`,
  );
}

const LAUNCHERS = {
  npx: ['npx', ['--offline', 'sluice', 'run', 'app.mjs', '--embedded', '--no-progress']],
  'npm start': ['npm', ['start', '--offline']],
} as const;

describe('npx sluice run / npm start', () => {
  // SIGTERM to npm alone (a container runtime's stop); SIGINT to the whole process group (Ctrl-C on a terminal).
  // (SIGINT to npm alone stops nothing: npm forwards it to the sh, which waits for the worker; README says so.)
  it.each([
    ['npx', 'SIGTERM', 'process'],
    ['npx', 'SIGINT', 'group'],
    ['npm start', 'SIGTERM', 'process'],
  ] as const)('%s: %s to the npm %s closes the worker (logged "closed") and the worker process ends', async (launcher, signal, target) => {
    if (!existsSync(join(dir, 'package.json'))) project();
    rmSync(join(dir, 'worker.pid'), { force: true });
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env)) {
      if (v === undefined || k === 'VITEST' || k.startsWith('VITEST_') || k.startsWith('SLUICE_') || k === 'KAFKA_BROKERS' || k.startsWith('npm_')) continue;
      env[k] = v;
    }
    const [command, args] = LAUNCHERS[launcher];
    const npx = spawn(command, [...args], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'], detached: target === 'group' });
    launched.push(npx);
    let out = '';
    npx.stdout.on('data', (d: Buffer) => (out += d.toString()));
    npx.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const npxExit = new Promise<void>((resolve) => npx.on('exit', () => resolve()));
    await until(() => out.includes('"msg":"app running"'), 'the app running', 60_000);
    await until(() => existsSync(join(dir, 'worker.pid')), 'the worker pid', 10_000);
    workerPid = Number(readFileSync(join(dir, 'worker.pid'), 'utf8'));
    expect(workerPid).not.toBe(npx.pid); // the worker is a grandchild of npx (npm → sh → node)

    if (target === 'group') process.kill(-npx.pid!, signal);
    else npx.kill(signal);
    await npxExit;
    await until(() => !alive(workerPid!), 'the worker process to end', 15_000);
    expect(out).toMatch(/closing as on SIGTERM|SIGINT received, closing/);
    expect(out).toContain('"msg":"closed"');
    expect(existsSync(join(dir, 'worker.pid'))).toBe(true);
  }, 90_000);
});
