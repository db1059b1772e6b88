/**
 * Issue 18's goals, computed from one run's rows (ratios within the run: the
 * machine is noisy, absolute figures do not carry) and printed after the
 * tables as met / not met / not measured.
 *
 * Rules (docs/benchmarks.md "Goal lines"):
 * - A sluice row that failed its check in any round does not meet a goal.
 * - A Node peer (plain kafkajs loop, @kafkats/flow exactly_once and
 *   at_least_once) without a passing round counts as beaten: it delivered no
 *   verified output within its bound. A peer with some passing rounds is
 *   compared by its median over those.
 * - Java Kafka Streams is the yardstick: without a passing Java row the goals
 *   against it are not measured.
 * - A row that did not run leaves its goal not measured.
 * - Flat RSS: peak RSS at the largest `--records` size at most 10% above the
 *   smallest (rss-sizes.ts); not measured with one size.
 */
import { LABELS } from './contenders.js';
import type { Row } from './report.js';
import { FLAT_RSS_GROWTH, isFlat, type RssRow } from './rss-sizes.js';

/** The outcome of one goal. */
export type GoalStatus = 'met' | 'not met' | 'not measured';

/** One goal line. */
export interface GoalResult {
  goal: string;
  status: GoalStatus;
  /** The figures behind the status. */
  detail: string;
}

/** Latency bounds of the goal (ms). */
export const LATENCY_GOAL = { p50Ms: 20, p99Ms: 100 } as const;

/** The Node peers sluice exactly_once must beat by 1.2×. */
export const NODE_PEERS = ['kafkajs', 'kafkats-eos', 'kafkats-alos'] as const;

const SLUICE = [['sluice-eos', 'sluice exactly_once'], ['sluice-alos', 'sluice at_least_once']] as const;

const x = (r: number): string => `${r.toFixed(2)}×`;
const rate = (r: Row): string => `${Math.round(r.recordsPerSec).toLocaleString('en-US')} records/s`;
const passed = (r: Row | undefined): boolean => r !== undefined && r.okRuns > 0;

/** Why a sluice row cannot meet a goal (did not run, failed a round), or undefined when it can be judged. */
function sluiceProblem(r: Row | undefined): GoalStatus | undefined {
  if (r === undefined) return 'not measured';
  return r.okRuns < r.runs ? 'not met' : undefined;
}

function sluiceDetail(r: Row | undefined, id: string): string {
  return r === undefined ? `${id} did not run` : `${r.label} failed its check in ${r.runs - r.okRuns}/${r.runs} round(s)`;
}

/** `subject` ≥ `factor` × `reference` in records/s; `referenceIsPeer`: a failed reference counts as beaten. */
function ratioGoal(rows: Row[], goal: string, subjectId: string, referenceId: string, factor: number, referenceIsPeer: boolean): GoalResult {
  const subject = rows.find((r) => r.id === subjectId);
  const reference = rows.find((r) => r.id === referenceId);
  const problem = sluiceProblem(subject);
  if (problem) return { goal, status: problem, detail: sluiceDetail(subject, subjectId) };
  if (!subject) return { goal, status: 'not measured', detail: `${subjectId} did not run` };
  if (!reference) return { goal, status: 'not measured', detail: `${referenceId} did not run` };
  if (!passed(reference)) {
    return referenceIsPeer
      ? { goal, status: 'met', detail: `${reference.label} FAILED its check in every round (counts as beaten); ${subject.label} ${rate(subject)}` }
      : { goal, status: 'not measured', detail: `${reference.label} FAILED its check in every round` };
  }
  const ratio = subject.recordsPerSec / reference.recordsPerSec;
  return { goal, status: ratio >= factor ? 'met' : 'not met', detail: `${x(ratio)} (${rate(subject)} vs ${rate(reference)})` };
}

/** sluice exactly_once ≥ 1.2× each Node peer: met when every peer is (beaten, or failed), not met when one is not. */
function peersGoal(rows: Row[]): GoalResult {
  const goal = 'sluice exactly_once ≥ 1.2× every Node peer (kafkajs loop, @kafkats/flow exactly_once and at_least_once)';
  const parts = NODE_PEERS.map((peer) => ({ peer, result: ratioGoal(rows, goal, 'sluice-eos', peer, 1.2, true) }));
  const subject = rows.find((r) => r.id === 'sluice-eos');
  const problem = sluiceProblem(subject);
  if (problem) return { goal, status: problem, detail: sluiceDetail(subject, 'sluice-eos') };
  const status: GoalStatus = parts.some((p) => p.result.status === 'not met') ? 'not met'
    : parts.some((p) => p.result.status === 'not measured') ? 'not measured' : 'met';
  const detail = parts.map(({ peer, result }) => {
    const label = LABELS[peer] ?? peer;
    return `vs ${label}: ${result.detail.replace(/ \(counts as beaten\);.*$/, ' (counts as beaten)')}`;
  }).join('; ');
  return { goal, status, detail };
}

/** One goal per sluice row: `check(row, java)` gives [met, detail]. */
function perSluice(rows: Row[], what: string, needsJava: boolean, check: (r: Row, java: Row | undefined) => [boolean, string]): GoalResult[] {
  const java = rows.find((r) => r.id === 'java-eos');
  return SLUICE.map(([id, label]) => {
    const goal = `${label} ${what}`;
    const row = rows.find((r) => r.id === id);
    const problem = sluiceProblem(row);
    if (problem || !row) return { goal, status: problem ?? 'not measured', detail: sluiceDetail(row, id) };
    if (needsJava && !passed(java)) return { goal, status: 'not measured', detail: java ? `${java.label} FAILED its check in every round` : 'java-eos did not run' };
    const [met, detail] = check(row, java);
    return { goal, status: met ? 'met' : 'not met', detail };
  });
}

/** Every goal of issue 18 for these rows (the first `--records` size) and, when run at several sizes, the RSS-by-size rows. */
export function evaluateGoals(rows: Row[], rss: RssRow[] = []): GoalResult[] {
  const sizes = rss[0]?.sizes.length ?? 0;
  return [
    ratioGoal(rows, 'sluice exactly_once ≥ 1.0× Java Kafka Streams EOS v2', 'sluice-eos', 'java-eos', 1.0, false),
    ratioGoal(rows, 'sluice exactly_once ≥ 1.2× the plain kafkajs loop', 'sluice-eos', 'kafkajs', 1.2, true),
    peersGoal(rows),
    ratioGoal(rows, 'sluice at_least_once ≥ 1.1× sluice exactly_once', 'sluice-alos', 'sluice-eos', 1.1, false),
    ...perSluice(rows, `latency p50 ≤ ${LATENCY_GOAL.p50Ms} ms and p99 ≤ ${LATENCY_GOAL.p99Ms} ms`, false, (r) => [
      r.latencyP50Ms <= LATENCY_GOAL.p50Ms && r.latencyP99Ms <= LATENCY_GOAL.p99Ms, `p50 ${r.latencyP50Ms} ms, p99 ${r.latencyP99Ms} ms`,
    ]),
    ...perSluice(rows, 'peak RSS ≤ Java Kafka Streams\'', true, (r, java) => [
      r.maxRssMiB <= (java?.maxRssMiB ?? 0), `${r.maxRssMiB.toFixed(0)} MiB vs ${java?.maxRssMiB.toFixed(0) ?? '–'} MiB`,
    ]),
    ...SLUICE.map(([id, label]): GoalResult => {
      const goal = `${label} peak RSS flat (≤ ${FLAT_RSS_GROWTH * 100}% growth from the smallest to the largest --records size)`;
      const r = rss.find((x) => x.id === id);
      if (sizes < 2 || r === undefined) return { goal, status: 'not measured', detail: 'run with --records 500000,2000000' };
      const figures = r.sizes.map((s) => `${s.maxRssMiB?.toFixed(0) ?? '–'} MiB @ ${s.records}${s.fromFailedRuns ? ' (failed runs)' : ''}`).join(', ');
      if (r.growth === undefined) return { goal, status: 'not measured', detail: figures };
      const failed = r.sizes.some((s) => s.fromFailedRuns);
      return { goal, status: isFlat(r.growth) && !failed ? 'met' : 'not met', detail: `${figures}: ${r.growth >= 0 ? '+' : ''}${(r.growth * 100).toFixed(1)}%` };
    }),
    ...perSluice(rows, 'CPU µs/rec ≤ Java Kafka Streams\'', true, (r, java) => [
      r.cpuMicrosPerRecord <= (java?.cpuMicrosPerRecord ?? 0), `${r.cpuMicrosPerRecord.toFixed(1)} vs ${java?.cpuMicrosPerRecord.toFixed(1) ?? '–'} µs/rec`,
    ]),
  ];
}

/** The goal lines as Markdown bullets. */
export function formatGoals(goals: GoalResult[]): string {
  const met = goals.filter((g) => g.status === 'met').length;
  return [`Goals (issue 18), from this run's ratios: ${met} of ${goals.length} met`, '',
    ...goals.map((g) => `- **${g.status}**: ${g.goal}: ${g.detail}`)].join('\n');
}
