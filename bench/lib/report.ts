/** Aggregates run results into table rows, prints the table, writes the JSON file. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LABELS } from './contenders.js';
import type { RunResult } from './result.js';
import { median, spreadPercent } from './stats.js';

/** One table row: a contender over all its rounds. */
export interface Row {
  id: string;
  label: string;
  runs: number;
  okRuns: number;
  status: string;
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
  vsJava?: number;
  vsBroker?: number;
}

function commitsOf(metrics: unknown): number | undefined {
  const c = (metrics as { commits?: unknown } | undefined)?.commits;
  return typeof c === 'number' ? c : undefined;
}

const ORDER = ['broker-produce', 'broker-consume', 'java-eos', 'sluice-eos', 'sluice-alos', 'kafkajs'];

/** One row per contender, in round order, with ratios against the plain kafkajs loop, Java KS and the broker limit. */
export function aggregate(results: RunResult[]): Row[] {
  const ids = ORDER.filter((id) => results.some((r) => r.id === id));
  const rows: Row[] = ids.map((id) => {
    const all = results.filter((r) => r.id === id);
    const ok = all.filter((r) => r.ok);
    const rps = ok.map((r) => r.recordsPerSec);
    const lat = (f: (r: RunResult) => number | undefined): number =>
      median(ok.map(f).filter((x): x is number => typeof x === 'number' && Number.isFinite(x)));
    return {
      id, label: LABELS[id] ?? id, runs: all.length, okRuns: ok.length,
      status: ok.length === all.length ? 'OK' : ok.length === 0 ? 'FAILED' : `FAILED ${all.length - ok.length}/${all.length}`,
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
  const java = rate('java-eos');
  const brokerRates = [rate('broker-produce'), rate('broker-consume')].filter((x): x is number => x !== undefined);
  const broker = brokerRates.length === 2 ? Math.min(...brokerRates) : undefined;
  for (const r of rows) {
    if (r.okRuns === 0) continue;
    if (kafkajs) r.vsKafkajs = r.recordsPerSec / kafkajs;
    if (java) r.vsJava = r.recordsPerSec / java;
    if (broker) r.vsBroker = r.recordsPerSec / broker;
  }
  return rows;
}

const num = (x: number | undefined, digits = 0): string => (x === undefined || !Number.isFinite(x) ? '–' : x.toFixed(digits));
const ratio = (x: number | undefined): string => (x === undefined ? '–' : `${x.toFixed(2)}×`);

/** The table as Markdown. */
export function formatTable(rows: Row[]): string {
  const withJava = rows.some((r) => r.vsJava !== undefined);
  const withBroker = rows.some((r) => r.vsBroker !== undefined);
  const withKafkajs = rows.some((r) => r.vsKafkajs !== undefined);
  const head = ['contender', 'records/s (median)', 'spread', ...(withKafkajs ? ['vs kafkajs'] : []),
    ...(withJava ? ['vs Java KS'] : []), ...(withBroker ? ['vs broker'] : []),
    'latency p50 ms', 'latency p99 ms', 'peak RSS MiB', 'CPU s', 'CPU µs/rec', 'commits', 'check'];
  const lines = rows.map((r) => {
    const failed = r.okRuns === 0;
    return [r.label, failed ? 'FAILED' : num(r.recordsPerSec), failed ? '–' : `±${num(r.spreadPercent, 1)}%`,
      ...(withKafkajs ? [ratio(r.vsKafkajs)] : []), ...(withJava ? [ratio(r.vsJava)] : []), ...(withBroker ? [ratio(r.vsBroker)] : []),
      num(r.latencyP50Ms), num(r.latencyP99Ms), num(r.maxRssMiB), num(r.cpuSeconds, 2), num(r.cpuMicrosPerRecord, 1), num(r.commits),
      `${r.status} (${r.okRuns}/${r.runs})`];
  });
  const all = [head, ...lines];
  const widths = head.map((_, i) => Math.max(...all.map((l) => (l[i] ?? '').length)));
  const fmt = (l: string[]): string => `| ${l.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join(' | ')} |`;
  const sep = `|${widths.map((w, i) => (i === 0 ? `${'-'.repeat(w + 1)}-` : `${'-'.repeat(w + 1)}:`)).join('|')}|`;
  return [fmt(head), sep, ...lines.map(fmt)].join('\n');
}

/** What the columns mean (printed under the table). */
export const LEGEND = [
  'records/s: input records / (first record processed -> every input offset committed; at_least_once: every output written), median over passing rounds; spread: ± half the range.',
  'vs broker: against min(ProducerPerformance, ConsumerPerformance). latency: output LogAppendTime - processing time stamped by the map step (broker rows: producer send-to-ack).',
  'peak RSS / CPU s: whole child process (startup included); CPU µs/rec = CPU s / records. commits: transactions (EOS) or offset commits (ALOS) the contender reported.',
  'check: runs whose read_committed output was complete and duplicate-free / runs.',
].join('\n');

/** Writes bench/results/<date>.json and returns its path. */
export function writeJson(benchDir: string, payload: unknown): string {
  const dir = join(benchDir, 'results');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, `${JSON.stringify(payload, null, 2)}\n`);
  return file;
}
