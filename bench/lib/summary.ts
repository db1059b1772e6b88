/**
 * What a run prints after its last round (run.ts, render-results.ts): the
 * tables of the first `--records` size, the peak RSS of the pipeline
 * contenders at every size (when there were several), and issue 18's goal
 * lines.
 */
import { workloadOf, aggregate, formatTable, type Row } from './report.js';
import { evaluateGoals, formatGoals, type GoalResult } from './goals.js';
import type { RunResult } from './result.js';
import { formatRssTable, rssBySize, type RssRow } from './rss-sizes.js';

/** The printed summary and the figures behind it. */
export interface Summary {
  rows: Row[];
  rss: RssRow[];
  goals: GoalResult[];
  text: string;
}

/** Results of the main tables: the pipeline's at the first size `primary`, every other workload's as they are. */
export function primaryResults(results: RunResult[], primary: number): RunResult[] {
  return results.filter((r) => workloadOf(r.id) !== 'pipeline' || r.records === primary);
}

/** The summary of `results`; `sizes` are the `--records` sizes in the order given (the first is the main one). */
export function summarise(results: RunResult[], sizes: readonly number[]): Summary {
  const primary = sizes[0] ?? results[0]?.records ?? 0;
  const rows = aggregate(primaryResults(results, primary));
  const rss = sizes.length > 1 ? rssBySize(results, sizes) : [];
  // The goals are sluice's: printed when a sluice pipeline row ran.
  const goals = rows.some((r) => r.id === 'sluice-eos' || r.id === 'sluice-alos') ? evaluateGoals(rows, rss) : [];
  const parts = [formatTable(rows)];
  if (rss.length > 0) parts.push(`**Peak RSS by input size (pipeline)**\n\n${formatRssTable(rss)}`);
  if (goals.length > 0) parts.push(formatGoals(goals));
  return { rows, rss, goals, text: parts.join('\n\n') };
}
