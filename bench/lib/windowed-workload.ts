/**
 * The windowed count workload (issue 17 "Acceptance": 1-minute tumbling
 * windows, 10,000 keys, 500,000 records, exactly-once), shared by the runner,
 * the TypeScript contender and the check; bench/java (KafkaStreamsStateBench,
 * mode `windowed`) runs the same topology:
 *
 *   stream(input).groupByKey()
 *     .windowedBy(TimeWindows.ofSizeWithNoGrace(1 min)).count()
 *     .suppress(Suppressed.untilWindowCloses(BufferConfig.unbounded()))
 *     .toStream().to(output, WindowedSerdes.timeWindowedSerdeFrom(String, 1 min), Long)
 *
 * Input record i has key `k<i mod keys>` and the pipeline's 100-byte value on
 * partition i mod 8 (as the count workload: every key on one partition), and
 * the event time `base + floor(SPAN * sqrt(i / records))`: monotonic in i (so
 * in order on every partition: nothing is late, nothing dropped), spread over
 * {@link WINDOWED_WINDOWS} windows of which window w holds (2w + 1) / W² of the
 * records (from 1% to 19%: the counts differ per window and key). `base` is a
 * minute boundary a little before the run (the broker's retention deletes
 * segments with old timestamps). After the input, one `flush` record per
 * partition at `base + SPAN` moves every task's stream time to the end of the
 * last window, which closes them all; the flush records' own window stays
 * open and is never emitted. So the output holds exactly one record per
 * (key, window) that has records: the window's final count.
 */
import { PARTITIONS } from './workload.js';

/** Window size (and advance) of the tumbling windows: one minute. */
export const WINDOW_MS = 60_000;
/** Windows the input's event times span. */
export const WINDOWED_WINDOWS = 10;
/** Event-time span of the input. */
export const SPAN_MS = WINDOW_MS * WINDOWED_WINDOWS;
/** Key of the records that close the last window (one per partition). */
export const FLUSH_KEY = 'flush';

/** One run's event times and truth. */
export interface WindowedPlan {
  records: number;
  keys: number;
  /** Start of window 0 (ms since the epoch, a minute boundary). */
  base: number;
  /** Event time of input record `id`. */
  timestampOf(id: number): number;
  /** The flush records written after the input, one per partition. */
  flush: Array<{ partition: number; key: string; timestamp: number }>;
}

/** The plan of a run of `records` records over `keys` keys started at `now`: window 0 begins 11 minutes before now. */
export function windowedPlan(records: number, keys: number, now = Date.now()): WindowedPlan {
  const base = Math.floor(now / WINDOW_MS) * WINDOW_MS - SPAN_MS - WINDOW_MS;
  return {
    records,
    keys,
    base,
    timestampOf: (id) => base + Math.floor(SPAN_MS * Math.sqrt(id / records)),
    flush: Array.from({ length: PARTITIONS }, (_, partition) => ({ partition, key: FLUSH_KEY, timestamp: base + SPAN_MS })),
  };
}

/** Index of window `w`'s slot of key index `j` in {@link windowedTruth}'s array. */
export function slotOf(j: number, w: number): number {
  return j * WINDOWED_WINDOWS + w;
}

/**
 * The true final count of every (key, window), computed from the generated
 * input: `counts[slotOf(j, w)]` is the number of records of key `k<j>` in
 * window w (0 where it has none); `windows` the (key, window) pairs with a count.
 */
export function windowedTruth(plan: WindowedPlan): { counts: Int32Array; windows: number } {
  const counts = new Int32Array(plan.keys * WINDOWED_WINDOWS);
  let windows = 0;
  for (let id = 0; id < plan.records; id++) {
    const j = id % plan.keys; // statefulKeyOf(id, keys) is `k<j>`
    const w = Math.floor((plan.timestampOf(id) - plan.base) / WINDOW_MS);
    const slot = slotOf(j, w);
    if (counts[slot] === 0) windows++;
    counts[slot] = (counts[slot] ?? 0) + 1;
  }
  return { counts, windows };
}
