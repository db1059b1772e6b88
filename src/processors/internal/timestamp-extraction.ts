/**
 * The timestamp step of a task (Kafka's `RecordQueue.updateHead` and
 * `poll`): the source's extractor (else the task's default) is applied to each
 * deserialized record with the partition's time, the largest timestamp
 * extracted so far on that partition (`-1` before the first one; not restored
 * across restarts: Kafka keeps it in the committed offsets' metadata, sluice
 * starts it unknown).
 */
import { StreamsError } from '../../errors.js';
import type { ConsumedRecord } from '../../records/types.js';
import type { SourceNodeDef } from '../plan.js';
import {
  defaultTimestampExtractor,
  describeExtractorRecord,
  UNKNOWN_PARTITION_TIME,
  type ExtractorRecord,
  type ResolvedExtractor,
} from '../timestamp-extractors.js';

/** What {@link TimestampExtraction.stamp} decided. */
export type Stamp = { timestamp: number } | { skip: string };

/** The partition times of one task and the extraction of its records' timestamps. */
export class TimestampExtraction {
  /** topic → partition → time (nested, so the per-record lookup builds no key string). */
  readonly #partitionTimes = new Map<string, Map<number, number>>();
  readonly #fallback: ResolvedExtractor;

  /** `fallback`: the extractor of sources that configure none (default {@link FailOnInvalidTimestamp}). */
  constructor(fallback?: ResolvedExtractor) {
    this.#fallback = fallback ?? defaultTimestampExtractor();
  }

  /** The largest timestamp extracted so far on `topic`-`partition`, `-1` when none. */
  partitionTime(topic: string, partition: number): number {
    return this.#partitionTimes.get(topic)?.get(partition) ?? UNKNOWN_PARTITION_TIME;
  }

  /** Sets the partition time (Kafka's `RecordQueue.setPartitionTime`; tests, and a future restore from commit metadata). */
  setPartitionTime(topic: string, partition: number, time: number): void {
    let times = this.#partitionTimes.get(topic);
    if (!times) this.#partitionTimes.set(topic, (times = new Map()));
    times.set(partition, time);
  }

  /**
   * The timestamp of `raw` (deserialized as `key`, `value`) read by `source`:
   * 1. call the extractor with the partition time;
   * 2. a StreamsError it throws passes on as it is (FailOnInvalidTimestamp's);
   *    anything else, or a result that is not a whole number of ms, becomes a
   *    StreamsError `TIMESTAMP_EXTRACTOR_FAILED` naming the extractor, the
   *    source and the record (the task fails);
   * 3. a negative timestamp: `{ skip: reason }` (the task drops the record,
   *    logs and counts it);
   * 4. else the partition time advances to it and it is the record's timestamp.
   */
  stamp(source: SourceNodeDef, raw: ConsumedRecord, key: unknown, value: unknown): Stamp {
    const extractor = source.timestampExtractor ?? this.#fallback;
    const record: ExtractorRecord = { topic: raw.topic, partition: raw.partition, offset: raw.offset, key, value, timestamp: raw.timestamp, headers: raw.headers };
    const partitionTime = this.partitionTime(raw.topic, raw.partition);
    // 1.
    let timestamp: unknown;
    try {
      timestamp = extractor.extract(record, partitionTime);
    } catch (error) {
      // 2.
      if (error instanceof StreamsError) throw error;
      throw extractorFailed(extractor, source, record, `threw ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`, error);
    }
    if (typeof timestamp !== 'number' || !Number.isSafeInteger(timestamp)) {
      throw extractorFailed(extractor, source, record, `returned ${typeof timestamp === 'number' ? timestamp : `${typeof timestamp} ${String(timestamp)}`}, not a whole number of milliseconds`);
    }
    // 3.
    if (timestamp < 0) return { skip: `negative extracted timestamp ${timestamp} (extractor ${extractor.name})` };
    // 4.
    if (timestamp > partitionTime) this.setPartitionTime(raw.topic, raw.partition, timestamp);
    return { timestamp };
  }
}

function extractorFailed(extractor: ResolvedExtractor, source: SourceNodeDef, record: ExtractorRecord, what: string, cause?: unknown): StreamsError {
  return new StreamsError(
    `Fatal user code error in TimestampExtractor ${extractor.name} of source '${source.name}' for record ${describeExtractorRecord(record)}: ` +
      `it ${what}. Fix the extractor (return whole ms; a negative value skips the record), or configure another one ` +
      '(Consumed.with(...).withTimestampExtractor(e), or defaultTimestampExtractor)',
    { code: 'TIMESTAMP_EXTRACTOR_FAILED', ...(cause === undefined ? {} : { cause }) },
  );
}
