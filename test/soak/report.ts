/** The soak report and its one summary line. */
import type { KillCounts } from './chaos.js';
import type { AggregateCheck, DataCheck, OffsetCheck, TransactionCheck } from './verify.js';

/** Everything a soak run found; `summary` is the one line to print. */
export interface SoakReport {
  ok: boolean;
  /** True when the stateless checks (data, transactions, offsets) passed, whatever the stateful ones say. */
  statelessOk: boolean;
  /** True when the stateful checks (counts, sums, repartitioned counts) passed. */
  statefulOk: boolean;
  records: number;
  keys: number;
  seed: number;
  applicationId: string;
  /** Stream threads per worker process (`--threads`). */
  threads: number;
  kills: KillCounts;
  /** `restoring` lines seen from the workers (0: this sluice never reported a restoration). */
  restoreEvents: number;
  brokerRestarts: number;
  /** Worker exits the driver did not cause (e.g. ERROR after a broker restart), restarted by the supervisor. */
  unexpectedExits: string[];
  /** Whether the workers' sluice accepted `stateDir`. */
  stateDir: 'used' | 'unsupported';
  inputProblems: string[];
  data: DataCheck;
  counts: AggregateCheck;
  sums: AggregateCheck;
  repartitionedCounts: AggregateCheck;
  transactions: TransactionCheck;
  offsets: OffsetCheck;
  /** Whether the workers processed and committed all input within the bound after the kills ended (`detail`: what was left). */
  drain: { ok: boolean; waitedMs: number; detail: string };
  durationMs: number;
  summary: string;
}

function aggregate(name: string, check: AggregateCheck, withResets: boolean): string {
  if (check.ok) return `${name} OK${withResets ? ' (0 resets)' : ''}`;
  const parts = [`${check.resets} resets`, `${check.wrongKeys}/${check.keys} keys wrong`];
  if (check.repeats > 0) parts.push(`${check.repeats} repeats`);
  if (check.overshoots > 0) parts.push(`${check.overshoots} overshoots`);
  if (check.unexpectedKeys > 0) parts.push(`${check.unexpectedKeys} unexpected keys`);
  if (check.mispartitionedKeys > 0) parts.push(`${check.mispartitionedKeys} keys on 2+ partitions`);
  return `${name} FAIL (${parts.join(', ')}${check.examples[0] ? `; e.g. ${check.examples[0]}` : ''})`;
}

/** The one summary line, e.g. `soak: 200000 records, 104 kills (...), 1 broker restart, data exactly-once OK, counts OK (0 resets), ...`. */
export function summaryLine(r: Omit<SoakReport, 'summary' | 'ok' | 'statelessOk' | 'statefulOk'>): string {
  const k = r.kills;
  const restoring = `${k.restoring} while restoring${r.restoreEvents === 0 ? ' (no restoration seen)' : ''}`;
  const kills = `${k.total} kills (${k.afterCommit} right after a commit, ${restoring}, ${k.initializing} while initializing tasks, ${k.running} at random)`;
  const d = r.data;
  const data = d.ok
    ? 'data exactly-once OK'
    : `data exactly-once FAIL (${d.duplicates} duplicates, ${d.missing} missing, ${d.unexpected} unexpected, ${d.outOfOrderPartitions} partitions out of order${d.examples[0] ? `; e.g. ${d.examples[0]}` : ''})`;
  const t = r.transactions;
  const txns = t.ok ? 'no open transaction' : `open transactions FAIL (${t.open.length} partitions LSO < HW${t.open[0] ? `, e.g. ${t.open[0].topic}-${t.open[0].partition} LSO ${t.open[0].lso} HW ${t.open[0].hw}` : ''}, ${t.unmarkedRecords} unmarked records)`;
  const o = r.offsets;
  const offsets = o.ok ? 'offsets OK' : `offsets FAIL (${o.problems.length} partitions; e.g. ${o.problems[0]!.topic}-${o.problems[0]!.partition} committed ${o.problems[0]!.committed}, expected ${o.problems[0]!.expected})`;
  const parts = [
    `soak: ${r.records} records`,
    ...(r.threads > 1 ? [`${r.threads} stream threads per worker`] : []),
    kills,
    `${r.brokerRestarts} broker restart${r.brokerRestarts === 1 ? '' : 's'}`,
    ...(r.unexpectedExits.length > 0 ? [`${r.unexpectedExits.length} worker exits on their own`] : []),
    ...(r.inputProblems.length > 0 ? [`input FAIL (${r.inputProblems[0]})`] : []),
    ...(r.drain.ok ? [] : [`drain FAIL (not done after ${Math.round(r.drain.waitedMs / 1000)} s: ${r.drain.detail})`]),
    data,
    aggregate('counts', r.counts, true),
    aggregate('sums', r.sums, false),
    aggregate('repartitioned counts', r.repartitionedCounts, true),
    txns,
    offsets,
    `${Math.round(r.durationMs / 1000)} s`,
  ];
  return parts.join(', ');
}
