/** Aggregates run results into table rows, prints the table, writes the JSON file. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { JAVA_REFERENCE, LABELS, WORKLOADS, type Workload } from './contenders.js';
import type { RunResult } from './result.js';
import { instancesText, parseScalingId, SCALING_IDS, speedUps } from './scaling.js';
import { median, spreadPercent } from './stats.js';

/** One table row: a contender over all its rounds. */
export interface Row {
  id: string;
  label: string;
  /** The workload the row belongs to; its ratios are against that workload's Java row. */
  workload: Workload;
  runs: number;
  okRuns: number;
  status: string;
  /** Short reasons of the failed rounds (shortReason), each once; empty when every round passed. */
  failures: string[];
  recordsPerSec: number;
  spreadPercent: number;
  minRecordsPerSec: number;
  maxRecordsPerSec: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  maxRssMiB: number;
  cpuSeconds: number;
  cpuMicrosPerRecord: number;
  /** Transactions (commits) the contender reported, median over rounds. */
  commits?: number;
  vsKafkajs?: number;
  /** The async workload: against sluice's sequential process(). */
  vsSequential?: number;
  vsJava?: number;
  vsBroker?: number;
  /** CPU seconds of the broker during the processing window, median (when the broker runs on this machine). */
  brokerCpuSeconds?: number;
  /** scaling: records/s over the records/s of the same family's 1-instance row. */
  speedUp?: number;
  /** count: output records (count updates that reached the output; fewer than the inputs with the record cache); windowed: windows emitted; median. */
  outputRecords?: number;
  /** restore: seconds from the first onRestoreStart to the last onRestoreEnd, median. */
  restoreSeconds?: number;
  /** restore: seconds from spawning the process to RUNNING, median. */
  toRunningSeconds?: number;
}

/**
 * The gist of a failed run's reason for the check column (the whole reason is
 * printed under the table): "committed offsets went backwards", "timeout after
 * N ms", or the reason's first clause, at most 60 characters.
 */
export function shortReason(reason: string | undefined): string {
  const line = (reason ?? 'failed').split('\n')[0] ?? '';
  if (line.startsWith('committed offsets went backwards')) return 'committed offsets went backwards';
  const first = line.split(/: |; |, | \(/)[0] ?? line;
  return first.length > 60 ? `${first.slice(0, 59)}…` : first;
}

/** The workload of a row id (broker rows belong to the pipeline). */
export function workloadOf(id: string): Workload {
  if (parseScalingId(id)) return 'scaling';
  if (id.endsWith('-versioned-join')) return 'versioned-join';
  if (id === 'sluice-async' || id === 'sluice-async-sequential' || id === 'kafkajs-async') return 'async';
  if (id.endsWith('-windowed-count')) return 'windowed';
  if (id.endsWith('-count')) return 'count';
  if (id.includes('-restore')) return 'restore';
  return 'pipeline';
}

function commitsOf(metrics: unknown): number | undefined {
  const c = (metrics as { commits?: unknown } | undefined)?.commits;
  return typeof c === 'number' ? c : undefined;
}

const ORDER = ['broker-produce', 'broker-consume', 'java-eos', 'sluice-eos', 'sluice-alos', 'kafkajs', 'kafkats-eos', 'kafkats-alos',
  'java-count', 'sluice-count', 'java-restore', 'sluice-restore-memory', 'sluice-restore-persistent',
  'java-windowed-count', 'sluice-windowed-count', 'java-versioned-join', 'sluice-versioned-join', ...SCALING_IDS];

const finite = (xs: Array<number | undefined>): number[] => xs.filter((x): x is number => typeof x === 'number' && Number.isFinite(x));
const medianOrUndefined = (xs: Array<number | undefined>): number | undefined => {
  const m = median(finite(xs));
  return Number.isFinite(m) ? m : undefined;
};

/**
 * One row per contender, in round order, with ratios against the plain kafkajs
 * loop (pipeline rows), the Java Kafka Streams row of the same workload, and
 * the broker limit (pipeline and count rows: both process input records).
 */
export function aggregate(results: RunResult[]): Row[] {
  // contenders missing from ORDER (e.g. sluice-eos-ui) come last instead of vanishing from the table
  const extra = results.map((r) => r.id).filter((id, i, all) => !ORDER.includes(id) && all.indexOf(id) === i);
  const ids = [...ORDER, ...extra].filter((id) => results.some((r) => r.id === id));
  const rows: Row[] = ids.map((id) => {
    const all = results.filter((r) => r.id === id);
    const ok = all.filter((r) => r.ok);
    const rps = ok.map((r) => r.recordsPerSec);
    const lat = (f: (r: RunResult) => number | undefined): number =>
      median(ok.map(f).filter((x): x is number => typeof x === 'number' && Number.isFinite(x)));
    const workload = workloadOf(id);
    const outputRecords = workload === 'count' || workload === 'windowed' ? medianOrUndefined(ok.map((r) => r.outputCount))
      : workload === 'async' ? medianOrUndefined(all.map((r) => r.records)) : undefined;
    const restoreSeconds = workload === 'restore' ? medianOrUndefined(ok.map((r) => r.seconds)) : undefined;
    const brokerCpuSeconds = medianOrUndefined(ok.map((r) => r.brokerCpuSeconds));
    const toRunningSeconds = workload === 'restore' ? medianOrUndefined(ok.map((r) => (r.toRunningMs === undefined ? undefined : r.toRunningMs / 1000))) : undefined;
    return {
      id, label: LABELS[id] ?? id, workload, runs: all.length, okRuns: ok.length,
      ...(outputRecords !== undefined ? { outputRecords } : {}), ...(restoreSeconds !== undefined ? { restoreSeconds } : {}),
      ...(toRunningSeconds !== undefined ? { toRunningSeconds } : {}), ...(brokerCpuSeconds !== undefined ? { brokerCpuSeconds } : {}),
      status: ok.length === all.length ? 'OK' : ok.length === 0 ? 'FAILED' : `FAILED ${all.length - ok.length}/${all.length}`,
      failures: [...new Set(all.filter((r) => !r.ok).map((r) => shortReason(r.reason)))],
      recordsPerSec: median(rps), spreadPercent: spreadPercent(rps),
      minRecordsPerSec: rps.length ? Math.min(...rps) : Number.NaN, maxRecordsPerSec: rps.length ? Math.max(...rps) : Number.NaN,
      latencyP50Ms: lat((r) => r.latencyP50Ms), latencyP99Ms: lat((r) => r.latencyP99Ms),
      maxRssMiB: median(ok.map((r) => r.maxRssKb / 1024)), cpuSeconds: median(ok.map((r) => r.cpuSeconds)),
      cpuMicrosPerRecord: median(ok.map((r) => (r.cpuSeconds / (r.cpuRecords ?? r.records)) * 1e6)),
      commits: median(ok.map((r) => commitsOf(r.childMetrics)).filter((x): x is number => x !== undefined)),
    };
  });
  const rate = (id: string): number | undefined => {
    const r = rows.find((x) => x.id === id);
    return r && r.okRuns > 0 ? r.recordsPerSec : undefined;
  };
  const kafkajs = rate('kafkajs');
  const brokerRates = [rate('broker-produce'), rate('broker-consume')].filter((x): x is number => x !== undefined);
  const broker = brokerRates.length === 2 ? Math.min(...brokerRates) : undefined;
  const scaled = speedUps(rows);
  for (const r of rows) {
    if (r.okRuns === 0) continue;
    const reference = JAVA_REFERENCE[r.workload];
    const java = reference === undefined ? undefined : rate(reference);
    if (kafkajs && r.workload === 'pipeline') r.vsKafkajs = r.recordsPerSec / kafkajs;
    // the async workload: against its kafkajs loop and against sluice's sequential process()
    const asyncLoop = rate('kafkajs-async');
    const sequential = rate('sluice-async-sequential');
    if (r.workload === 'async' && asyncLoop) r.vsKafkajs = r.recordsPerSec / asyncLoop;
    if (r.workload === 'async' && sequential) r.vsSequential = r.recordsPerSec / sequential;
    if (java) r.vsJava = r.recordsPerSec / java;
    if (broker && r.workload !== 'restore' && r.workload !== 'async') r.vsBroker = r.recordsPerSec / broker;
    const speedUp = scaled.get(r.id);
    if (speedUp !== undefined) r.speedUp = speedUp;
  }
  return rows;
}

const num = (x: number | undefined, digits = 0): string => (x === undefined || !Number.isFinite(x) ? '–' : x.toFixed(digits));
const ratio = (x: number | undefined): string => (x === undefined ? '–' : `${x.toFixed(2)}×`);

/** A column of a table: heading, cell text, and whether it is shown for these rows. */
interface Column {
  head: string;
  cell: (r: Row) => string;
  show?: (rows: Row[]) => boolean;
}

const shownIf = (f: (r: Row) => unknown) => (rows: Row[]): boolean => rows.some((r) => f(r) !== undefined);
const rateCells = (head: string): Column[] => [
  { head, cell: (r) => (r.okRuns === 0 ? 'FAILED' : num(r.recordsPerSec)) },
  { head: 'spread', cell: (r) => (r.okRuns === 0 ? '–' : `±${num(r.spreadPercent, 1)}%`) },
];
const rssCell: Column = { head: 'peak RSS MiB', cell: (r) => num(r.maxRssMiB) };
const cpuSecondsCell: Column = { head: 'CPU s', cell: (r) => num(r.cpuSeconds, 2) };
const cpuPerRecordCell: Column = { head: 'CPU µs/rec', cell: (r) => num(r.cpuMicrosPerRecord, 1) };
const usageCells: Column[] = [rssCell, cpuSecondsCell, cpuPerRecordCell];
const checkCell: Column = { head: 'check', cell: (r) => `${r.status} (${r.okRuns}/${r.runs})` };
/** Why the failed rounds failed (the gist; the whole reason is printed under the table), when a row failed. */
const whyCell: Column = { head: 'why FAILED', cell: (r) => r.failures.join(' / '), show: (rows) => rows.some((r) => r.failures.length > 0) };
const vsJava: Column = { head: 'vs Java KS', cell: (r) => ratio(r.vsJava), show: shownIf((r) => r.vsJava) };
const vsBroker: Column = { head: 'vs broker', cell: (r) => ratio(r.vsBroker), show: shownIf((r) => r.vsBroker) };

/** The columns of each workload's table. */
const COLUMNS: Record<Workload, Column[]> = {
  // Issue 18's columns (records/s, vs Java KS, latency p50 / p99, peak RSS, CPU µs/rec, check), with the spread, the other ratios, CPU s and commits.
  pipeline: [
    ...rateCells('records/s (median)'), vsJava,
    { head: 'vs kafkajs', cell: (r) => ratio(r.vsKafkajs), show: shownIf((r) => r.vsKafkajs) }, vsBroker,
    { head: 'latency p50 / p99 ms', cell: (r) => `${num(r.latencyP50Ms)} / ${num(r.latencyP99Ms)}` },
    rssCell, cpuPerRecordCell, cpuSecondsCell, { head: 'commits', cell: (r) => num(r.commits) }, checkCell, whyCell,
  ],
  count: [
    ...rateCells('records/s (median)'), vsJava, vsBroker,
    { head: 'count updates out', cell: (r) => num(r.outputRecords) },
    ...usageCells, { head: 'commits', cell: (r) => num(r.commits) }, checkCell, whyCell,
  ],
  windowed: [
    ...rateCells('records/s (median)'), vsJava, vsBroker,
    { head: 'windows out', cell: (r) => num(r.outputRecords) },
    ...usageCells, { head: 'commits', cell: (r) => num(r.commits) }, checkCell, whyCell,
  ],
  'versioned-join': [
    ...rateCells('records/s (median)'), vsJava, vsBroker,
    ...usageCells, { head: 'commits', cell: (r) => num(r.commits) }, checkCell, whyCell,
  ],
  // Issue 32: instances (processes or threads), records/s, speed-up vs 1, CPU s, CPU µs/rec, peak RSS (summed over the processes).
  scaling: [
    { head: 'instances', cell: (r) => instancesText(r.id) },
    ...rateCells('records/s (median)'), { head: 'speed-up vs 1', cell: (r) => ratio(r.speedUp) }, vsJava,
    cpuSecondsCell, cpuPerRecordCell, { head: 'peak RSS MiB (sum)', cell: (r) => num(r.maxRssMiB) },
    { head: 'broker CPU s (window)', cell: (r) => num(r.brokerCpuSeconds, 2), show: shownIf((r) => r.brokerCpuSeconds) },
    { head: 'latency p50 / p99 ms', cell: (r) => `${num(r.latencyP50Ms)} / ${num(r.latencyP99Ms)}` },
    { head: 'commits', cell: (r) => num(r.commits) }, checkCell, whyCell,
  ],
  async: [
    ...rateCells('records/s (median)'),
    { head: 'vs kafkajs loop', cell: (r) => ratio(r.vsKafkajs), show: shownIf((r) => r.vsKafkajs) },
    { head: 'vs sequential', cell: (r) => ratio(r.vsSequential), show: shownIf((r) => r.vsSequential) },
    { head: 'records', cell: (r) => num(r.outputRecords) }, checkCell, whyCell,
  ],
  restore: [
    ...rateCells('records/s restored (median)'), vsJava,
    { head: 'restore s', cell: (r) => num(r.restoreSeconds, 2) }, { head: 'spawn → RUNNING s', cell: (r) => num(r.toRunningSeconds, 2) },
    ...usageCells, checkCell, whyCell,
  ],
};

/** Headings of the workloads' tables (printed when more than one workload ran). */
export const WORKLOAD_TITLES: Record<Workload, string> = {
  pipeline: 'Stateless pipeline (parse, filter, enrich), exactly-once',
  count: 'Count per key (stream.groupByKey().count().toStream().to(), exactly-once, default record cache)',
  restore: 'Restore a changelog into a fresh instance (empty state directory)',
  windowed: 'Windowed count (1-minute tumbling windows, suppress(untilWindowCloses), exactly-once)',
  'versioned-join': 'Versioned-table join (stream.join(table on persistentVersionedKeyValueStore), each record as of its timestamp, exactly-once)',
  scaling: 'Scaling: the stateless pipeline, exactly-once, on 1, 2 and 4 sluice processes in one group / 2 and 4 stream threads in one sluice process / Java stream threads in one JVM (8 partitions)',
  async: 'Async enrichment (a 20 ms service call per record, 100 keys, 2 partitions, exactly-once)',
};

function formatOne(workload: Workload, rows: Row[]): string {
  const columns = [{ head: 'contender', cell: (r: Row) => r.label }, ...COLUMNS[workload].filter((c) => c.show?.(rows) ?? true)];
  const head = columns.map((c) => c.head);
  const lines = rows.map((r) => columns.map((c) => c.cell(r)));
  const all = [head, ...lines];
  const widths = head.map((_, i) => Math.max(...all.map((l) => (l[i] ?? '').length)));
  const fmt = (l: string[]): string => `| ${l.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join(' | ')} |`;
  const sep = `|${widths.map((w, i) => (i === 0 ? `${'-'.repeat(w + 1)}-` : `${'-'.repeat(w + 1)}:`)).join('|')}|`;
  return [fmt(head), sep, ...lines.map(fmt)].join('\n');
}

/** The tables as Markdown: one per workload, each under its title when more than one workload ran. */
export function formatTable(rows: Row[]): string {
  const present = WORKLOADS.filter((w) => rows.some((r) => r.workload === w));
  if (present.length === 1 && present[0] !== undefined) return formatOne(present[0], rows);
  return present.map((w) => `**${WORKLOAD_TITLES[w]}**\n\n${formatOne(w, rows.filter((r) => r.workload === w))}`).join('\n\n');
}

/** What the columns mean (printed under the table). */
export const LEGEND = [
  'records/s: input records / (first record processed -> every input offset committed; at_least_once: every output written), median over passing rounds; spread: ± half the range.',
  'vs broker: against min(ProducerPerformance, ConsumerPerformance). latency: output LogAppendTime - processing time stamped by the map step (broker rows: producer send-to-ack).',
  'peak RSS / CPU s: whole child process (startup included); CPU µs/rec = CPU s / records. commits: transactions (EOS) or offset commits (ALOS) the contender reported.',
  'check: runs whose read_committed output was complete and duplicate-free (and, exactly-once, whose committed input offsets never went backwards) / runs.',
  'count: records/s = input records / (first record -> every input offset committed); check: every key\'s last committed count is its true count and no count ever went down; count updates out: output records (the record cache collapses updates between commits).',
  'windowed: records/s = input records / (first record -> every input offset committed, the flush records included); check: every (key, window) of the input emitted exactly once, read_committed, with its true count, nothing else; windows out: output records.',
  'restore: records/s = changelog records restored / (first onRestoreStart -> last onRestoreEnd), fresh state directory; check: exactly every changelog record restored, every partition ended, the store holds every key with its last value.',
  'scaling: records/s = input records / (first record of any process -> every input offset committed), group joins and rebalances of the instances included; speed-up vs 1: against the 1-instance row of the same family (sluice threads: against 1 sluice process); peak RSS and CPU s: summed over the processes (sluice processes), one process with its worker threads (sluice threads), one JVM (Java); broker CPU s (window): the local broker process\'s CPU from the first record to complete; check: as the pipeline\'s, over every process\'s output.',
  'versioned-join: records/s = input records / (first record -> every input offset committed), the versioned prices table (40,000 versions, out of order) restored before the first record; check: every input record exactly once, read_committed, joined with the price version valid at its timestamp.',
  'async: records/s = input records / (first service call -> every input offset committed), a fake service answering after 20 ms, 100 keys, 2 partitions; sluice-async-sequential on 400 records; check: read_committed output holds every input once (sluice rows: per key in input order).',
].join('\n');

/** Writes bench/results/<date>.json and returns its path. */
export function writeJson(benchDir: string, payload: unknown): string {
  const dir = join(benchDir, 'results');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, `${JSON.stringify(payload, null, 2)}\n`);
  return file;
}
