/**
 * Several contender processes of one run seen as one child (the scaling
 * workload, scaling.ts): every process joins the run's group; the run's first
 * record is the earliest `first` of any process, its usage the sum of theirs,
 * its commits the sum of every process's, and it has "exited" as soon as one
 * process exited on its own.
 */
import { spawnChild, type BenchEvent, type ChildUsage, type RunningChild } from './child.js';
import type { Launch } from './contenders.js';
import { combineUsage } from './scaling.js';

/**
 * The `metrics` event of a fleet: commits, rebalances, records processed
 * (more than the input when a rebalance made a process redo aborted work) and
 * aborts of every process summed (a figure a process did not report counts 0);
 * undefined when no process reported metrics.
 */
export function combinedMetricsEvent(events: readonly BenchEvent[][]): BenchEvent | undefined {
  const metrics = events.map((es) => es.find((e) => e.event === 'metrics')).filter((e): e is BenchEvent => e !== undefined);
  if (metrics.length === 0) return undefined;
  const sum = (key: string): number => metrics.reduce((total, e) => {
    const v = (e['metrics'] as Record<string, unknown> | undefined)?.[key];
    return total + (typeof v === 'number' ? v : 0);
  }, 0);
  return {
    event: 'metrics', t: Math.max(...metrics.map((e) => e.t ?? 0)),
    metrics: { commits: sum('commits'), rebalances: sum('rebalances'), recordsProcessed: sum('recordsProcessed'), aborts: sum('aborts'), processes: metrics.length },
  };
}

/** Starts `launches` (one process each) and returns them as one {@link RunningChild}; one launch: that child itself. */
export function spawnFleet(launches: readonly Launch[]): RunningChild {
  const children = launches.map((l) => spawnChild(l.command, l.args, l.env));
  const [only] = children;
  if (only === undefined) throw new Error('spawnFleet: no launch');
  if (children.length === 1) return only;
  const exited = Promise.race(children.map((c) => c.exited));
  return {
    proc: only.proc,
    spawnedAt: Math.min(...children.map((c) => c.spawnedAt)),
    // Every process's events, its own metrics replaced by the fleet's (run-pipeline.ts reads the first `metrics`).
    get events(): BenchEvent[] {
      const combined = combinedMetricsEvent(children.map((c) => c.events));
      return [...children.flatMap((c) => c.events.filter((e) => e.event !== 'metrics')), ...(combined ? [combined] : [])];
    },
    get output(): string[] {
      return children.flatMap((c, i) => c.output.map((line) => `[${i + 1}] ${line}`));
    },
    exited,
    waitFor: (name, timeoutMs) => Promise.any(children.map((c) => c.waitFor(name, timeoutMs)))
      .catch((err: unknown) => Promise.reject(err instanceof AggregateError ? (err.errors[0] as Error) : err)),
    stop: async (graceMs?: number): Promise<ChildUsage> => {
      const usages = await Promise.all(children.map((c) => c.stop(graceMs)));
      const sum = combineUsage(usages);
      return {
        ...sum, source: usages.every((u) => u.source === 'child') ? 'child' : 'proc',
        exitCode: usages.find((u) => u.exitCode !== 0)?.exitCode ?? 0,
      };
    },
  };
}
