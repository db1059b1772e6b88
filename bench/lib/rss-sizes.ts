/**
 * Peak RSS at several input sizes (issue 18: "peak RSS ≤ Java Kafka Streams',
 * and flat: the same at 500,000 and 2,000,000 records"): with `--records
 * 500000,2000000` every pipeline contender runs at each size, the main table
 * and the goals use the first size, and this table puts each contender's peak
 * RSS at every size side by side with its growth from the smallest to the
 * largest size.
 */
import { LABELS, WORKLOAD_CONTENDERS } from './contenders.js';
import type { RunResult } from './result.js';
import { median } from './stats.js';

/** Growth of peak RSS from the smallest to the largest size that still counts as flat (10%). */
export const FLAT_RSS_GROWTH = 0.1;

/** Peak RSS of one contender at one size. */
export interface RssAtSize {
  records: number;
  /** Median peak RSS (MiB) over the passing runs; over all runs when none passed (then `fromFailedRuns`). */
  maxRssMiB?: number;
  fromFailedRuns: boolean;
}

/** One row of the RSS-by-size table. */
export interface RssRow {
  id: string;
  label: string;
  sizes: RssAtSize[];
  /** Peak RSS at the largest size / at the smallest − 1 (0.05 = 5% more); undefined when either is missing. */
  growth?: number;
}

/** The pipeline rows that ran at more than one size: the contenders of the pipeline workload (the broker limit runs at the first size only). */
export function rssBySize(results: RunResult[], sizes: readonly number[]): RssRow[] {
  const ascending = [...new Set(sizes)].sort((a, b) => a - b);
  const ids = WORKLOAD_CONTENDERS.pipeline.filter((id) => id !== 'broker' && results.some((r) => r.id === id));
  return ids.map((id) => {
    const at = ascending.map((records): RssAtSize => {
      const runs = results.filter((r) => r.id === id && r.records === records && r.maxRssKb > 0);
      const ok = runs.filter((r) => r.ok);
      const used = ok.length > 0 ? ok : runs;
      const m = median(used.map((r) => r.maxRssKb / 1024));
      return { records, ...(Number.isFinite(m) ? { maxRssMiB: m } : {}), fromFailedRuns: ok.length === 0 && runs.length > 0 };
    });
    const first = at[0]?.maxRssMiB;
    const last = at.at(-1)?.maxRssMiB;
    return {
      id, label: LABELS[id] ?? id, sizes: at,
      ...(first !== undefined && last !== undefined && at.length > 1 ? { growth: last / first - 1 } : {}),
    };
  });
}

/** True when the growth counts as flat ({@link FLAT_RSS_GROWTH}; exactly 10% is flat, whatever the floating-point division gave). */
export function isFlat(growth: number): boolean {
  return growth <= FLAT_RSS_GROWTH + 1e-9;
}

/** The RSS-by-size table as Markdown. */
export function formatRssTable(rows: RssRow[]): string {
  const sizes = rows[0]?.sizes.map((s) => s.records) ?? [];
  const head = ['contender', ...sizes.map((n) => `peak RSS MiB @ ${n.toLocaleString('en-US')}`), `growth ${sizes.length > 1 ? 'smallest → largest' : ''}`.trim(), 'flat (≤ 10%)'];
  const lines = rows.map((r) => [
    r.label,
    ...r.sizes.map((s) => (s.maxRssMiB === undefined ? '–' : `${s.maxRssMiB.toFixed(0)}${s.fromFailedRuns ? '*' : ''}`)),
    r.growth === undefined ? '–' : `${r.growth >= 0 ? '+' : ''}${(r.growth * 100).toFixed(1)}%`,
    r.growth === undefined ? '–' : isFlat(r.growth) ? 'yes' : 'no',
  ]);
  const all = [head, ...lines];
  const widths = head.map((_, i) => Math.max(...all.map((l) => (l[i] ?? '').length)));
  const fmt = (l: string[]): string => `| ${l.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join(' | ')} |`;
  const sep = `|${widths.map((w, i) => `${'-'.repeat(w + 1)}${i === 0 ? '-' : ':'}`).join('|')}|`;
  const note = rows.some((r) => r.sizes.some((s) => s.fromFailedRuns)) ? '\n\n* from runs that failed their check (no run at that size passed).' : '';
  return `${[fmt(head), sep, ...lines.map(fmt)].join('\n')}${note}`;
}
