import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The repository root. */
export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** A `sluice` child process with its output collected. */
export interface CliProcess {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  exit: Promise<number | null>;
}

/** Spawns `node bin/sluice.js ...args` in the repository root, without the vitest/Kafka environment unless given. */
export function spawnCli(args: string[], env: Record<string, string> = {}): CliProcess {
  const base: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v === undefined || k === 'VITEST' || k.startsWith('VITEST_') || k === 'KAFKA_BROKERS' || k.startsWith('SLUICE_') || k === 'LOG_LEVEL') continue;
    base[k] = v;
  }
  const child = spawn(process.execPath, ['bin/sluice.js', ...args], { cwd: ROOT, env: { ...base, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, stdout: () => out, stderr: () => err, exit };
}
