/** The pure computations of the HA scenarios over instance events and observation times. */
import type { InstanceEvent } from './app.js';
import type { Instance } from './fleet.js';

/** Max and median of a list (0 for an empty one), rounded to ms. */
export interface Spread {
  max: number;
  median: number;
}

/** {@link Spread} of `values`. */
export function spread(values: number[]): Spread {
  if (values.length === 0) return { max: 0, median: 0 };
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return { max: Math.round(sorted.at(-1)!), median: Math.round(median) };
}

/** The largest gap between consecutive `times` inside [from, to] (the window's edges are not times). */
export function maxGap(times: readonly number[], from: number, to: number): number {
  let gap = 0;
  let previous: number | undefined;
  for (const t of times) {
    if (t < from || t > to) continue;
    if (previous !== undefined) gap = Math.max(gap, t - previous);
    previous = t;
  }
  return gap;
}

type EventOf<K extends InstanceEvent['kind']> = Extract<InstanceEvent, { kind: K }>;

/** The events of `kind` of `instance`, in order. */
export function eventsOf<K extends InstanceEvent['kind']>(instance: Instance, kind: K): EventOf<K>[] {
  return instance.events.filter((e): e is EventOf<K> => e.kind === kind);
}

/** The first assignment after `after` on any of `instances` that gave it `task`: the new owner and when. */
export function gainedAt(instances: readonly Instance[], task: string, after: number): { instance: Instance; ts: number } | undefined {
  let best: { instance: Instance; ts: number } | undefined;
  for (const instance of instances) {
    const hit = eventsOf(instance, 'assignment').find((e) => e.ts > after && e.gained.includes(task));
    if (hit && (best === undefined || hit.ts < best.ts)) best = { instance, ts: hit.ts };
  }
  return best;
}

/** The first assignment (any change) on each of `instances` after `after`. */
export function firstAssignmentsAfter(instances: readonly Instance[], after: number): number[] {
  return instances.flatMap((i) => {
    const hit = eventsOf(i, 'assignment').find((e) => e.ts > after);
    return hit ? [hit.ts] : [];
  });
}

/** Distinct group generations in the assignment events of `instances` inside [from, to]. */
export function generationsIn(instances: readonly Instance[], from: number, to: number): number[] {
  const generations = new Set<number>();
  for (const i of instances) for (const e of eventsOf(i, 'assignment')) if (e.ts >= from && e.ts <= to) generations.add(e.generation);
  return [...generations].sort((a, b) => a - b);
}

/** The highest generation any of `instances` saw before `ts`. */
export function generationBefore(instances: readonly Instance[], ts: number): number {
  let generation = -1;
  for (const i of instances) for (const e of eventsOf(i, 'assignment')) if (e.ts <= ts) generation = Math.max(generation, e.generation);
  return generation;
}

/** Records restored (onRestoreEnd totals) on `instances` after `after`. */
export function restoredAfter(instances: readonly Instance[], after: number): number {
  return instances.reduce((sum, i) => sum + eventsOf(i, 'restore').filter((e) => e.ts > after).reduce((s, e) => s + e.totalRestored, 0), 0);
}

/** The longest gap between consecutive commits (any task) of `instance` while it was up, inside [from, to]. */
export function commitPause(instance: Instance, from: number, to: number): number {
  const running = eventsOf(instance, 'running')[0]?.ts ?? instance.startedAt;
  const end = Math.min(to, instance.stoppedAt ?? to);
  return maxGap(eventsOf(instance, 'commit').map((e) => e.ts), Math.max(from, running), end);
}
