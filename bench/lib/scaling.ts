/**
 * The scaling workload (issue 32): the stateless exactly-once pipeline run by
 * 1, 2 and 4 sluice processes in one consumer group (one application id) over
 * the same 8-partition input, and Java Kafka Streams with `num.stream.threads`
 * 1, 2 and 4 in one JVM. Pure parts: the row ids, how many instances a row
 * runs, the combined usage of a run's processes, and each row's speed-up
 * against its family's 1-instance row.
 */

/** Instances (sluice processes, Java stream threads) of the scaling rows, in round order. */
export const SCALE_STEPS = [1, 2, 4] as const;

/** A family of scaling rows: sluice processes or Java stream threads. */
export type ScalingFamily = 'sluice' | 'java';

/** A scaling row id: `sluice-eos-x<N>` (N processes) or `java-eos-t<N>` (N stream threads). */
export type ScalingId = `sluice-eos-x${(typeof SCALE_STEPS)[number]}` | `java-eos-t${(typeof SCALE_STEPS)[number]}`;

/** Every scaling row id, in round order (Java first, as in the pipeline workload). */
export const SCALING_IDS: readonly ScalingId[] = [
  ...SCALE_STEPS.map((n): ScalingId => `java-eos-t${n}`),
  ...SCALE_STEPS.map((n): ScalingId => `sluice-eos-x${n}`),
];

/** The family and instance count of a scaling row id; undefined for any other id. */
export function parseScalingId(id: string): { family: ScalingFamily; instances: number } | undefined {
  const m = /^(sluice-eos-x|java-eos-t)([1-9]\d?)$/.exec(id);
  if (!m) return undefined;
  return { family: m[1] === 'java-eos-t' ? 'java' : 'sluice', instances: Number(m[2]) };
}

/** The row label of a scaling id. */
export function scalingLabel(id: ScalingId): string {
  return parseScalingId(id)?.family === 'java' ? `Java Kafka Streams EOS v2, ${instancesText(id)}` : `sluice exactly_once, ${instancesText(id)}`;
}

/** The instances of a scaling row as words (`2 processes`, `1 thread`); `–` for other ids. */
export function instancesText(id: string): string {
  const p = parseScalingId(id);
  if (!p) return '–';
  const [one, many] = p.family === 'java' ? ['thread', 'threads'] : ['process', 'processes'];
  return `${p.instances} ${p.instances === 1 ? one : many}`;
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
 * 1-instance row of its family (undefined when that row has no passing run,
 * or for ids that are not scaling rows).
 */
export function speedUps(rows: ReadonlyArray<{ id: string; recordsPerSec: number; okRuns: number }>): Map<string, number> {
  const out = new Map<string, number>();
  for (const r of rows) {
    const parsed = parseScalingId(r.id);
    if (!parsed || r.okRuns === 0) continue;
    const one = rows.find((x) => {
      const p = parseScalingId(x.id);
      return p?.family === parsed.family && p.instances === 1 && x.okRuns > 0;
    });
    if (one && one.recordsPerSec > 0) out.set(r.id, r.recordsPerSec / one.recordsPerSec);
  }
  return out;
}
