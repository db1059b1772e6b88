/**
 * A contender in its own child process: spawns it, reads the `BENCH {json}`
 * lines it prints, samples its RSS/CPU, and stops it with SIGTERM (SIGKILL
 * after a grace period).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { sampleProcess, type ProcSample } from './proc-sampler.js';

/** An event a child reported on a `BENCH {json}` line. */
export interface BenchEvent {
  event: string;
  t?: number;
  [key: string]: unknown;
}

/** A running child. */
export interface RunningChild {
  proc: ChildProcess;
  spawnedAt: number;
  /** Every event seen so far. */
  events: BenchEvent[];
  /** Other stdout/stderr lines (kept for error reports, last 200). */
  output: string[];
  /** Resolves with the exit code once the child exited. */
  exited: Promise<number | null>;
  /** Resolves with the first event named `name` (rejects if the child exits first or after `timeoutMs`). */
  waitFor(name: string, timeoutMs: number): Promise<BenchEvent>;
  /** SIGTERM, wait up to `graceMs`, then SIGKILL; resolves with resource usage. */
  stop(graceMs?: number): Promise<ChildUsage>;
}

/** Peak RSS and CPU of a finished child. `source` tells who measured them. */
export interface ChildUsage {
  maxRssKb: number;
  cpuSeconds: number;
  source: 'child' | 'proc';
  exitCode: number | null;
}

/**
 * What the child said went wrong: the message of its `error` event (a
 * contender that cannot start prints why on a BENCH line, e.g. a missing
 * sluice API), or undefined.
 */
export function childFailure(child: Pick<RunningChild, 'events'>): string | undefined {
  const error = child.events.find((e) => e.event === 'error');
  return typeof error?.['message'] === 'string' ? `the contender failed: ${error['message']}` : undefined;
}

/** What the child noted about its run (`note` events, e.g. a setting this sluice build does not know yet). */
export function childNotes(child: Pick<RunningChild, 'events'>): string[] {
  return child.events.filter((e) => e.event === 'note' && typeof e['message'] === 'string').map((e) => String(e['message']));
}

/** Spawns `command args` with `env` added to this process's environment. */
export function spawnChild(command: string, args: string[], env: Record<string, string> = {}): RunningChild {
  const proc = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  const events: BenchEvent[] = [];
  const output: string[] = [];
  const waiters: Array<{ name: string; resolve: (e: BenchEvent) => void }> = [];
  const onLine = (line: string): void => {
    if (line.startsWith('BENCH ')) {
      try {
        const e = JSON.parse(line.slice(6)) as BenchEvent;
        events.push(e);
        for (const w of waiters.filter((x) => x.name === e.event)) w.resolve(e);
        return;
      } catch {
        // fall through: keep the line
      }
    }
    output.push(line);
    if (output.length > 200) output.shift();
  };
  createInterface({ input: proc.stdout! }).on('line', onLine);
  createInterface({ input: proc.stderr! }).on('line', onLine);
  const exited = new Promise<number | null>((resolve) => {
    proc.on('exit', (code) => resolve(code));
    proc.on('error', (err) => {
      output.push(String(err));
      resolve(-1);
    });
  });
  const sampler = proc.pid ? sampleProcess(proc.pid) : undefined;
  let exitCode: number | null | undefined;
  void exited.then((code) => (exitCode = code));

  const waitFor = (name: string, timeoutMs: number): Promise<BenchEvent> => {
    const found = events.find((e) => e.event === name);
    if (found) return Promise.resolve(found);
    return new Promise<BenchEvent>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no "${name}" from the child within ${timeoutMs} ms`)), timeoutMs);
      waiters.push({ name, resolve: (e) => (clearTimeout(timer), resolve(e)) });
      void exited.then((code) => {
        clearTimeout(timer);
        reject(new Error(`the child exited (code ${code}) before "${name}"\n${output.slice(-30).join('\n')}`));
      });
    });
  };

  const stop = async (graceMs = 30_000): Promise<ChildUsage> => {
    let last: ProcSample | undefined = sampler?.stop();
    if (exitCode === undefined) {
      proc.kill('SIGTERM');
      const killer = setTimeout(() => proc.kill('SIGKILL'), graceMs);
      const probe = proc.pid ? sampleProcess(proc.pid, 50) : undefined;
      await exited;
      clearTimeout(killer);
      const tail = probe?.stop();
      if (tail && last) last = { maxRssKb: Math.max(last.maxRssKb, tail.maxRssKb), cpuSeconds: Math.max(last.cpuSeconds, tail.cpuSeconds) };
    }
    const code = await exited;
    const usage = [...events].reverse().find((e) => e.event === 'usage');
    if (usage && typeof usage['maxRssKb'] === 'number' && typeof usage['cpuSeconds'] === 'number' && usage['maxRssKb'] > 0) {
      return { maxRssKb: usage['maxRssKb'], cpuSeconds: usage['cpuSeconds'], source: 'child', exitCode: code };
    }
    return { maxRssKb: last?.maxRssKb ?? 0, cpuSeconds: last?.cpuSeconds ?? 0, source: 'proc', exitCode: code };
  };

  return { proc, spawnedAt: Date.now(), events, output, exited, waitFor, stop };
}
