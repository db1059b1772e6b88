/**
 * The live progress line of `sluice run` on a terminal: records/s, consumer
 * lag, commits, dropped records, refreshed about once a second on stderr.
 */
import type { KafkaStreamsMetrics } from '../runtime/metrics.js';
import type { MetricsSource } from './metrics-registry.js';

const fmt = new Intl.NumberFormat('en-US');

/** One progress line from two metric snapshots `elapsedMs` apart. */
export function formatProgress(
  state: string | undefined,
  now: KafkaStreamsMetrics | undefined,
  previous: KafkaStreamsMetrics | undefined,
  elapsedMs: number,
): string {
  const processed = now?.recordsProcessed ?? 0;
  const delta = processed - (previous?.recordsProcessed ?? 0);
  const rate = elapsedMs > 0 ? Math.max(0, Math.round((delta * 1000) / elapsedMs)) : 0;
  const restore = now?.restore;
  return [
    `${state ?? 'STARTING'}`,
    ...(restore && restore.activeRestorations > 0 ? [formatRestore(restore)] : []),
    `${fmt.format(rate)} rec/s`,
    `processed ${fmt.format(processed)}`,
    `lag ${fmt.format(now?.consumerLag ?? 0)}`,
    `commits ${fmt.format(now?.commits ?? 0)}`,
    `dropped ${fmt.format(now?.droppedRecords ?? 0)}`,
    `aborts ${fmt.format(now?.aborts ?? 0)}`,
  ].join(' | ');
}

/** `restoring 63% (1.2 M / 1.9 M, 180 k/s)`: the restorations under way. */
export function formatRestore(restore: NonNullable<KafkaStreamsMetrics['restore']>): string {
  const done = restore.totalRecords - restore.remainingRecords;
  const percent = restore.totalRecords > 0 ? Math.floor((done * 100) / restore.totalRecords) : 100;
  return `restoring ${percent}% (${compact(done)} / ${compact(restore.totalRecords)}, ${compact(restore.rate)}/s)`;
}

function compact(n: number): string {
  if (n >= 1_000_000) return `${(n / 1_000_000).toFixed(1)} M`;
  if (n >= 1_000) return `${Math.round(n / 1_000)} k`;
  return String(n);
}

/** A running progress line. */
export interface ProgressLine {
  /** Clears the line until the next refresh (call before writing anything else to the terminal). */
  clear(): void;
  /** Stops refreshing and clears the line. */
  stop(): void;
}

/** Refreshes the progress line on `stream` every `intervalMs` (only meaningful on a TTY). */
export function startProgressLine(options: {
  source: MetricsSource;
  stream?: NodeJS.WriteStream;
  intervalMs?: number;
}): ProgressLine {
  const stream = options.stream ?? process.stderr;
  let previous = options.source.metrics();
  let at = Date.now();
  let shown = false;
  const timer = setInterval(() => {
    const now = options.source.metrics();
    const t = Date.now();
    stream.write(`\r\x1b[2K${formatProgress(options.source.state(), now, previous, t - at)}`);
    shown = true;
    previous = now;
    at = t;
  }, options.intervalMs ?? 1000);
  timer.unref();
  const clear = (): void => {
    if (!shown) return;
    stream.write('\r\x1b[2K');
    shown = false;
  };
  return {
    clear,
    stop() {
      clearInterval(timer);
      clear();
    },
  };
}
