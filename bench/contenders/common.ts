/** Helpers shared by the contender child processes (bench/contenders/*.ts). */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { parseArgs } from 'node:util';

/** The command line every contender child accepts. */
export interface ContenderArgs {
  brokers: string[];
  group: string;
  input: string;
  output: string;
}

/** Options of the stateful contenders (sluice-count.ts, sluice-restore.ts). */
export interface StatefulArgs {
  /** `--state-dir`: the run's fresh state directory (sluice's `stateDir`). */
  stateDir?: string;
  /** `--samples k0,k5`: keys whose restored values are reported. */
  samples: string[];
  /** `--store in-memory|persistent` (restore). */
  store?: string;
  /** `--threads N` (sluice-app.ts): the app's `numStreamThreads`; default 1. */
  threads: number;
}

/** Parses `--brokers a,b --group g --input t --output t [--guarantee g] [--state-dir d] [--samples k,..] [--store s] [--threads N]`. */
export function contenderArgs(argv = process.argv.slice(2)): ContenderArgs & StatefulArgs & { guarantee: string } {
  const { values } = parseArgs({
    args: argv,
    options: {
      brokers: { type: 'string', default: '127.0.0.1:9092' },
      group: { type: 'string' },
      input: { type: 'string' },
      output: { type: 'string' },
      guarantee: { type: 'string', default: 'exactly_once' },
      'state-dir': { type: 'string' },
      samples: { type: 'string', default: '' },
      store: { type: 'string' },
      threads: { type: 'string', default: '1' },
    },
  });
  if (!values.group || !values.input || !values.output) throw new Error('--group, --input and --output are required');
  const threads = Number(values.threads);
  if (!Number.isInteger(threads) || threads < 1) throw new Error(`--threads must be a whole number >= 1, got '${values.threads}'`);
  return {
    brokers: values.brokers.split(','), group: values.group, input: values.input, output: values.output, guarantee: values.guarantee,
    ...(values['state-dir'] ? { stateDir: values['state-dir'] } : {}), ...(values.store ? { store: values.store } : {}),
    samples: values.samples.split(',').filter((k) => k !== ''), threads,
  };
}

/** Prints one `BENCH {json}` line for the runner (bench/lib/child.ts). */
export function emit(event: string, extra: Record<string, unknown> = {}): void {
  process.stdout.write(`BENCH ${JSON.stringify({ event, t: Date.now(), ...extra })}\n`);
}

let profiler: Session | undefined;

/**
 * When BENCH_CPU_PROFILE names a file: starts the V8 CPU profiler of this
 * thread (steady state only: it starts at the first record).
 */
function startProfiler(): void {
  if (!process.env['BENCH_CPU_PROFILE'] || profiler) return;
  profiler = new Session();
  profiler.connect();
  profiler.post('Profiler.enable');
  profiler.post('Profiler.setSamplingInterval', { interval: 500 });
  profiler.post('Profiler.start');
}

/** Stops the profiler started by {@link markFirst} and writes BENCH_CPU_PROFILE. */
function stopProfiler(): Promise<void> {
  const file = process.env['BENCH_CPU_PROFILE'];
  const session = profiler;
  if (!file || !session) return Promise.resolve();
  return new Promise((resolve) => {
    session.post('Profiler.stop', (err, result) => {
      if (!err) writeFileSync(file, JSON.stringify(result.profile));
      session.disconnect();
      resolve();
    });
  });
}

let firstSeen = false;
/** Call for every input record: reports the time of the first one once (and starts the profiler, if asked). */
export function markFirst(): void {
  if (!firstSeen) {
    firstSeen = true;
    emit('first');
    startProfiler();
  }
}

/** Reports this process's peak RSS (KiB) and CPU seconds (user + system). */
export function emitUsage(): void {
  const u = process.resourceUsage();
  emit('usage', { maxRssKb: u.maxRSS, cpuSeconds: (u.userCPUTime + u.systemCPUTime) / 1e6 });
}

/**
 * On SIGTERM/SIGINT: runs `close` (bounded by `graceMs`), reports usage and exits.
 * A second signal exits at once.
 */
export function onStop(close: () => Promise<void>, graceMs = 20_000): void {
  let stopping = false;
  const handler = (): void => {
    if (stopping) process.exit(1);
    stopping = true;
    const timer = setTimeout(() => {
      emit('close-timeout');
      emitUsage();
      process.exit(2);
    }, graceMs);
    stopProfiler()
      .then(close)
      .catch((err: unknown) => emit('close-error', { message: String(err) }))
      .finally(() => {
        clearTimeout(timer);
        emitUsage();
        process.exit(0);
      });
  };
  process.on('SIGTERM', handler);
  process.on('SIGINT', handler);
}
