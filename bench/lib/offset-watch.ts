/**
 * Watches a group's committed input offsets while a run is polled for
 * completion (run-pipeline.ts): a committed offset that goes down between two
 * samples is a regression. An exactly-once processor that commits a position
 * below one it already committed has declared records it already wrote output
 * for as unprocessed (a restart would process them again), and its completion
 * (every input offset committed) may never come: issue 18 saw this from
 * @kafkats/flow's exactly_once, whose consumer reorders records under a slow
 * handler. A run with a regression fails its check, whatever the output says.
 */

/** One partition's committed offset going down between two samples. */
export interface OffsetRegression {
  partition: number;
  /** The committed offset of the previous sample. */
  from: number;
  /** The lower committed offset of this sample. */
  to: number;
  /** When it was seen (ms since the epoch). */
  atMs: number;
}

/** Samples of one group's committed offsets on one topic, with every regression seen. */
export class CommittedOffsetWatch {
  readonly #last = new Map<number, number>();
  /** Every regression, in the order seen. */
  readonly regressions: OffsetRegression[] = [];

  /**
   * Takes one sample (partition → committed offset; negative or missing: no
   * commit yet) and returns the sum of the committed offsets in it.
   */
  observe(offsets: ReadonlyMap<number, number>, atMs = Date.now()): number {
    let total = 0;
    for (const [partition, raw] of offsets) {
      if (raw < 0) continue;
      total += raw;
      const last = this.#last.get(partition);
      if (last !== undefined && raw < last) this.regressions.push({ partition, from: last, to: raw, atMs });
      this.#last.set(partition, raw);
    }
    return total;
  }
}

/**
 * The check's wording for regressions (undefined when there were none): how
 * many, on which partitions, and the largest step back.
 */
export function regressionReason(regressions: readonly OffsetRegression[]): string | undefined {
  if (regressions.length === 0) return undefined;
  const worst = regressions.reduce((a, b) => (b.from - b.to > a.from - a.to ? b : a));
  const partitions = [...new Set(regressions.map((r) => r.partition))].sort((a, b) => a - b);
  return `committed offsets went backwards ${regressions.length} time(s) on partition(s) ${partitions.join(', ')} ` +
    `(largest: partition ${worst.partition} from ${worst.from} to ${worst.to})`;
}
