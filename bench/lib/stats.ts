/** Small statistics helpers. */

/** The q-quantile (0..1) of `values` (nearest rank on a sorted copy); NaN when empty. */
export function quantile(values: ArrayLike<number>, q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = Float64Array.from(values).sort();
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank] ?? Number.NaN;
}

/** Median of `values`; NaN when empty. */
export function median(values: number[]): number {
  if (values.length === 0) return Number.NaN;
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? (s[mid] ?? Number.NaN) : ((s[mid - 1] ?? 0) + (s[mid] ?? 0)) / 2;
}

/** Half of the range relative to the median, in percent ("±x%"); 0 for one value. */
export function spreadPercent(values: number[]): number {
  if (values.length < 2) return 0;
  const m = median(values);
  return m > 0 ? ((Math.max(...values) - Math.min(...values)) / 2 / m) * 100 : 0;
}
