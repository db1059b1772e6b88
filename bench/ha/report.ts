/** Tables of the HA scenarios (one per scenario, rows side by side). */
import type { FailoverRow } from './failover.js';
import type { RollingRow } from './rolling.js';
import type { ScaleOutRow } from './scaleout.js';
import type { Exactness } from './scenario-kit.js';

const exact = (e: Exactness): string => (e.lost === 0 && e.breaks === 0 ? `exact (${e.inputs} in, ${e.outputs} out)` : `LOST ${e.lost} keys, ${e.breaks} breaks`);

function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((r) => (r[c] ?? '').length)));
  const line = (cells: string[]) => `| ${cells.map((cell, c) => cell.padEnd(widths[c]!)).join(' | ')} |`;
  return [line(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)].join('\n');
}

/** The failover table: one row per `numStandbyReplicas`. */
export function failoverTable(rows: FailoverRow[]): string {
  return table(
    ['numStandbyReplicas', 'keys', 'session ms', 'moved tasks', 'failover ms max / median', 'kill→rebalance ms max / median', 'rebalance→first output ms max / median', 'records restored', 'check'],
    rows.map((r) => [
      String(r.numStandbyReplicas), String(r.keys), String(r.sessionTimeoutMs), r.movedTasks.map((m) => m.task).join(','),
      `${r.failoverMs.max} / ${r.failoverMs.median}`, `${r.killToRebalanceMs.max} / ${r.killToRebalanceMs.median}`,
      `${r.rebalanceToOutputMs.max} / ${r.rebalanceToOutputMs.median}`, String(r.recordsRestored), exact(r.exactness),
    ]),
  );
}

/** The rolling-restart table: static membership and the dynamic control row. */
export function rollingTable(rows: RollingRow[]): string {
  return table(
    ['membership', 'keys', 'rebalances', 'longest pause ms per instance (w0, w1, w2)', 'SIGTERM→first commit ms (w0, w1, w2)', 'check'],
    rows.map((r) => [
      r.staticMembership ? 'static (groupInstanceId)' : 'dynamic', String(r.keys), String(r.rebalances),
      r.pauseMsPerInstance.join(', '), r.downtimeMsPerInstance.join(', '), exact(r.exactness),
    ]),
  );
}

/** The scale-out table. */
export function scaleOutTable(rows: ScaleOutRow[]): string {
  return table(
    ['keys', 'tasks moved', 'tasks kept', 'pause ms max (per kept task)', 'steady-state gap ms', 'round trip ms (source)', 'bound ms (commit + round trip)', 'met', 'check'],
    rows.map((r) => [
      String(r.keys), r.tasksMoved.join(','), r.tasksKept.join(','),
      `${r.pauseMaxMs} (${Object.entries(r.pauseMsPerKeptTask).map(([t, ms]) => `${t}: ${ms}`).join(', ')})`,
      String(r.steadyPauseMs), `${r.roundTripMs} (${r.roundTripSource})`, String(r.boundMs), r.met ? 'yes' : 'NO', exact(r.exactness),
    ]),
  );
}
