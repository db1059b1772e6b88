/**
 * Kafka's `Rate` over a `SampledStat` of occurrences with the default metric
 * config (`metrics.num.samples` 2, `metrics.sample.window.ms` 30000), on the
 * driver's wall clock:
 * 1. `record(now)` adds one to the current sample, starting a new sample
 *    (dropping the oldest beyond 2) once the current one is 30 s old;
 * 2. `measure(now)` forgets samples that started 60 s or more ago, sums the
 *    rest and divides by the elapsed window in seconds: the time since the
 *    oldest sample started, at least one full 30 s window (Kafka's
 *    `Rate.windowSize`).
 */
const SAMPLES = 2;
const WINDOW_MS = 30_000;

export class SampledRate {
  private samples: Array<{ start: number; count: number }> = [];

  record(now: number): void {
    // 1.
    let current = this.samples[this.samples.length - 1];
    if (current === undefined || now >= current.start + WINDOW_MS) {
      current = { start: now, count: 0 };
      this.samples.push(current);
      if (this.samples.length > SAMPLES) this.samples.shift();
    }
    current.count++;
  }

  measure(now: number): number {
    // 2.
    this.samples = this.samples.filter((s) => now - s.start < SAMPLES * WINDOW_MS);
    const total = this.samples.reduce((n, s) => n + s.count, 0);
    let elapsed = now - (this.samples[0]?.start ?? now);
    const fullWindows = Math.floor(elapsed / WINDOW_MS);
    if (fullWindows < SAMPLES - 1) elapsed += (SAMPLES - 1 - fullWindows) * WINDOW_MS;
    return total / (elapsed / 1000);
  }
}
