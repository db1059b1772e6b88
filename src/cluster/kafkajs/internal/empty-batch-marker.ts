/**
 * Record batches emptied by compaction, made visible to kafkajs 2.2.4
 * (installed on sluice's private copy by `patches.ts`).
 *
 * Kafka's log cleaner keeps a batch whose records were all compacted away
 * when it is the last batch of its producer (its header preserves the
 * producer's state); such a batch has a header (base offset, last offset
 * delta) and no record. kafkajs' record-batch decoder then yields no message
 * for it, so a fetch whose answer is only such a batch looks empty and the
 * position never moves past it: a reader (restoration of a compacted
 * changelog) or a consumer would fetch it again forever, short of the end.
 *
 * The decoder is wrapped so that an empty batch yields one synthetic control
 * record at the batch's last offset: kafkajs never delivers control records,
 * but counts them when moving the position (`consumer/batch.js`
 * `lastOffset()`), and so does the partition reader (`partition-reader.ts`).
 */
import type { KafkaJsInternals } from './kafkajs-internals.js';

/** The record-batch decoder module, `protocol/recordBatch/v0/decoder.js`, relative to `kafkajs/src/`. */
export const RECORD_BATCH_DECODER = 'protocol/recordBatch/v0/decoder.js';

/** What kafkajs' record-batch decoder returns (the fields read here). */
export interface DecodedRecordBatch {
  firstOffset: string;
  lastOffsetDelta: number;
  producerId: string;
  inTransaction: boolean;
  isControlBatch: boolean;
  maxTimestamp: string;
  records: unknown[];
  [key: string]: unknown;
}

type RecordBatchDecoder = (decoder: unknown) => Promise<DecodedRecordBatch>;

const PATCHED = Symbol.for('sluice.kafkajs.emptyBatchMarker');

/** The synthetic control record standing for an empty batch (its last offset), as kafkajs' record decoder shapes records. */
export function emptyBatchMarker(batch: DecodedRecordBatch): Record<string, unknown> {
  const { records: _records, ...context } = batch;
  return {
    magicByte: 2,
    attributes: 0,
    timestamp: batch.maxTimestamp,
    offset: String(BigInt(batch.firstOffset) + BigInt(batch.lastOffsetDelta)),
    key: null,
    value: null,
    headers: {},
    isControlRecord: true,
    batchContext: context,
  };
}

/** Wraps a record-batch decoder: an empty batch decodes to one {@link emptyBatchMarker}. */
export function withEmptyBatchMarkers(original: RecordBatchDecoder): RecordBatchDecoder {
  const wrapped: RecordBatchDecoder & { [PATCHED]?: true } = async (decoder) => {
    const batch = await original(decoder);
    if (batch.records.length === 0 && batch.lastOffsetDelta >= 0) return { ...batch, records: [emptyBatchMarker(batch)] };
    return batch;
  };
  wrapped[PATCHED] = true;
  return wrapped;
}

/** Installs the wrapper on `internals` (sluice's private kafkajs), before the Fetch decoders load it. Idempotent; a no-op on a copy that cannot replace modules. */
export function installEmptyBatchMarkers(internals: KafkaJsInternals): void {
  internals.replace?.<RecordBatchDecoder & { [PATCHED]?: true }>(RECORD_BATCH_DECODER, (original) => (original[PATCHED] ? original : withEmptyBatchMarkers(original)));
}
