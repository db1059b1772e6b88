/**
 * The scaling workload (issue 32): the stateless exactly-once pipeline run by
 * 1, 2 and 4 sluice processes in one consumer group (one application id) over
 * the same 8-partition input, by one sluice process with 2 and 4 stream
 * threads (`numStreamThreads`: worker threads), and by Java Kafka Streams with
 * `num.stream.threads` 1, 2 and 4 in one JVM. Pure parts: the row ids, how
 * many instances a row runs, the combined usage of a run's processes, and each
 * row's speed-up against its family's 1-instance row.
 */

/** Instances (sluice processes, Java stream threads) of the scaling rows, in round order. */
export const SCALE_STEPS = [1, 2, 4] as const;

/** Stream threads of the one-process sluice rows (1 thread is the `sluice-eos-x1` row). */
export const THREAD_STEPS = [2, 4] as const;

/**
 * A family of scaling rows: sluice processes (one stream thread each), one
 * sluice process with several stream threads, or Java stream threads in one JVM.
 */
export type ScalingFamily = 'sluice' | 'sluice-threads' | 'java';

/**
 * A scaling row id: `sluice-eos-x<N>` (N processes), `sluice-eos-t<N>` (one
 * process, N stream threads) or `java-eos-t<N>` (one JVM, N stream threads).
 */
export type ScalingId =
  | `sluice-eos-x${(typeof SCALE_STEPS)[number]}`
  | `sluice-eos-t${(typeof THREAD_STEPS)[number]}`
  | `java-eos-t${(typeof SCALE_STEPS)[number]}`;

/** Every scaling row id, in round order (Java first, as in the pipeline workload; then sluice processes, then sluice threads). */
export const SCALING_IDS: readonly ScalingId[] = [
  ...SCALE_STEPS.map((n): ScalingId => `java-eos-t${n}`),
  ...SCALE_STEPS.map((n): ScalingId => `sluice-eos-x${n}`),
  ...THREAD_STEPS.map((n): ScalingId => `sluice-eos-t${n}`),
];

const FAMILY_OF_PREFIX: Record<string, ScalingFamily> = { 'sluice-eos-x': 'sluice', 'sluice-eos-t': 'sluice-threads', 'java-eos-t': 'java' };

/** The family and instance count (processes or threads) of a scaling row id; undefined for any other id. */
export function parseScalingId(id: string): { family: ScalingFamily; instances: number } | undefined {
  const m = /^(sluice-eos-x|sluice-eos-t|java-eos-t)([1-9]\d?)$/.exec(id);
  const family = m ? FAMILY_OF_PREFIX[m[1] ?? ''] : undefined;
  return m && family ? { family, instances: Number(m[2]) } : undefined;
}

/**
 * The family whose 1-instance row a family's speed-up is against: the sluice
 * threads rows against one sluice process (1 process = 1 stream thread).
 */
export function baseFamily(family: ScalingFamily): ScalingFamily {
  return family === 'sluice-threads' ? 'sluice' : family;
}

/** The row label of a scaling id. */
export function scalingLabel(id: ScalingId): string {
  return parseScalingId(id)?.family === 'java' ? `Java Kafka Streams EOS v2, ${instancesText(id)}` : `sluice exactly_once, ${instancesText(id)}`;
}

/** The instances of a scaling row as words (`2 processes`, `1 thread`, `1 process, 4 threads`); `–` for other ids. */
export function instancesText(id: string): string {
  const p = parseScalingId(id);
  if (!p) return '–';
  const count = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;
  if (p.family === 'java') return count(p.instances, 'thread', 'threads');
  if (p.family === 'sluice') return count(p.instances, 'process', 'processes');
  return `1 process, ${count(p.instances, 'thread', 'threads')}`;
}

/** Peak RSS and CPU of one process of a run. */
export interface ProcessUsage {
  maxRssKb: number;
  cpuSeconds: number;
}

/**
 * The usage of a run made of several processes: peak RSS summed (each
 * process's own peak: an upper bound of the fleet's peak at any instant) and
 * CPU seconds summed.
 */
export function combineUsage(usages: readonly ProcessUsage[]): ProcessUsage {
  return usages.reduce((a, u) => ({ maxRssKb: a.maxRssKb + u.maxRssKb, cpuSeconds: a.cpuSeconds + u.cpuSeconds }), { maxRssKb: 0, cpuSeconds: 0 });
}

/**
 * Speed-up of each scaling row: its records/s over the records/s of the
 * 1-instance row of its base family ({@link baseFamily}; undefined when that
 * row has no passing run, or for ids that are not scaling rows).
 */
export function speedUps(rows: ReadonlyArray<{ id: string; recordsPerSec: number; okRuns: number }>): Map<string, number> {
  const out = new Map<string, number>();
  for (const r of rows) {
    const parsed = parseScalingId(r.id);
    if (!parsed || r.okRuns === 0) continue;
    const base = baseFamily(parsed.family);
    const one = rows.find((x) => {
      const p = parseScalingId(x.id);
      return p?.family === base && p.instances === 1 && x.okRuns > 0;
    });
    if (one && one.recordsPerSec > 0) out.set(r.id, r.recordsPerSec / one.recordsPerSec);
  }
  return out;
}
