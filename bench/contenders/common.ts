/** Helpers shared by the contender child processes (bench/contenders/*.ts). */
import { parseArgs } from 'node:util';

/** The command line every contender child accepts. */
export interface ContenderArgs {
  brokers: string[];
  group: string;
  input: string;
  output: string;
}

/** Parses `--brokers a,b --group g --input t --output t`. */
export function contenderArgs(argv = process.argv.slice(2)): ContenderArgs & { guarantee: string } {
  const { values } = parseArgs({
    args: argv,
    options: {
      brokers: { type: 'string', default: '127.0.0.1:9092' },
      group: { type: 'string' },
      input: { type: 'string' },
      output: { type: 'string' },
      guarantee: { type: 'string', default: 'exactly_once' },
    },
  });
  if (!values.group || !values.input || !values.output) throw new Error('--group, --input and --output are required');
  return { brokers: values.brokers.split(','), group: values.group, input: values.input, output: values.output, guarantee: values.guarantee };
}

/** Prints one `BENCH {json}` line for the runner (bench/lib/child.ts). */
export function emit(event: string, extra: Record<string, unknown> = {}): void {
  process.stdout.write(`BENCH ${JSON.stringify({ event, t: Date.now(), ...extra })}\n`);
}

let firstSeen = false;
/** Call for every input record: reports the time of the first one once. */
export function markFirst(): void {
  if (!firstSeen) {
    firstSeen = true;
    emit('first');
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
    close()
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
