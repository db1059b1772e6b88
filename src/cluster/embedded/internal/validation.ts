/**
 * Broker-side validation of a produced v2 batch: the rules of KIP-467
 * (seed 001) as Kafka 4's `ProduceRequest.validateRecords`,
 * `UnifiedLog.analyzeAndValidateRecords` and `LogValidator` apply them.
 * Producer epoch/sequence checks live in `producer-state.ts`.
 *
 * Batch-level failures reject the request with one error code; record-level
 * failures are all collected and reject the whole batch with `record_errors`
 * (batch index + message per culprit) and an `error_message`.
 */
import { KafkaErrorCode, type KafkaProtocolError, type RecordErrorEntry } from '../../../errors.js';
import {
  BatchDecodeError, crcValid, decodeBatch, isControl, isTransactional, lastOffset, peekMagic, splitBatches,
  NO_PRODUCER_ID, COMPRESSION_MASK, type RecordBatch,
} from './record-batch.js';
import type { ParsedTopicConfig } from './topic-config.js';
import { brokerError, recordValidationError } from './broker-error.js';

/** What validation needs to know about the target partition. */
export interface ValidationContext {
  /** `topic-partition`, as Kafka prints it. */
  tp: string;
  config: ParsedTopicConfig;
  /** Broker time (ms). */
  now: number;
}

const fail = (code: number, message: string, recordErrors?: RecordErrorEntry[]): KafkaProtocolError =>
  recordErrors ? recordValidationError(code, message, recordErrors) : brokerError(code, message);

/**
 * Validates the bytes of one Produce partition entry and returns the decoded batch.
 * Steps (Kafka's order):
 * 1. exactly one batch, magic 2 (v0/v1 refused with INVALID_RECORD, as Kafka 4);
 * 2. base offset 0 (INVALID_RECORD);
 * 3. batch size <= max.message.bytes (MESSAGE_TOO_LARGE);
 * 4. CRC32C (CORRUPT_MESSAGE);
 * 5. decode; declared count vs records present (INVALID_RECORD);
 * 6. header consistency: offset range, count, no control batch, sequence set for idempotent batches (INVALID_RECORD);
 *    idempotent/transactional batches on a pre-v2 message format topic (UNSUPPORTED_FOR_MESSAGE_FORMAT);
 * 7. per record: offset deltas 0..n-1 (compressed batches), key on compacted topics (INVALID_RECORD), timestamps (INVALID_TIMESTAMP), all culprits collected;
 * 8. any culprit rejects the whole batch with record_errors.
 */
export function validateProduce(bytes: Buffer, ctx: ValidationContext): RecordBatch {
  const { tp } = ctx;
  // 1. one batch, magic 2
  let parts: Buffer[];
  try {
    parts = splitBatches(bytes);
  } catch (e) {
    throw fail(KafkaErrorCode.CORRUPT_MESSAGE, (e as Error).message);
  }
  const [raw] = parts;
  if (raw === undefined) throw fail(KafkaErrorCode.INVALID_RECORD, `Produce requests must have at least one record batch per partition (${tp})`);
  const magic = peekMagic(raw);
  if (magic !== 2) {
    // A Kafka 4 broker answers INVALID_RECORD here (ProduceRequest v3+ only allows magic 2; verified
    // with a raw Produce v8 request against Kafka 4.4). UNSUPPORTED_FOR_MESSAGE_FORMAT is the seed's
    // rule for idempotent/transactional batches on a topic with a pre-v2 message format: see step 6.
    throw fail(KafkaErrorCode.INVALID_RECORD, `Produce requests are only allowed to contain record batches with magic version 2 (got ${magic}) in ${tp}`);
  }
  if (parts.length > 1) throw fail(KafkaErrorCode.INVALID_RECORD, `Produce requests are only allowed to contain exactly one record batch per partition (${tp})`);
  // 2. base offset
  const baseOffset = Number(raw.readBigInt64BE(0));
  if (baseOffset !== 0) throw fail(KafkaErrorCode.INVALID_RECORD, `The baseOffset of the record batch in the append to ${tp} should be 0, but it is ${baseOffset}`);
  // 3. size
  if (raw.length > ctx.config.maxMessageBytes)
    throw fail(KafkaErrorCode.MESSAGE_TOO_LARGE, `The record batch size in the append to ${tp} is ${raw.length} bytes which exceeds the maximum configured value of ${ctx.config.maxMessageBytes}.`);
  // 4. CRC
  if (!crcValid(raw)) throw fail(KafkaErrorCode.CORRUPT_MESSAGE, `Record is corrupt (stored crc = ${raw.readUInt32BE(17)}) in topic partition ${tp}.`);
  // 5. decode
  let batch: RecordBatch;
  try {
    batch = decodeBatch(raw);
  } catch (e) {
    const err = e as BatchDecodeError;
    throw fail(err.kind === 'invalid' ? KafkaErrorCode.INVALID_RECORD : KafkaErrorCode.CORRUPT_MESSAGE, `${err.message} in topic partition ${tp}.`);
  }
  // 6. header consistency
  validateBatchHeader(batch, ctx);
  // 7. records
  const errors = validateRecords(batch, ctx);
  // 8. reject the whole batch
  if (errors.length) {
    const entries = errors.map((e) => ({ batchIndex: e.batchIndex, message: e.message }));
    if (errors.some((e) => e.code === KafkaErrorCode.INVALID_TIMESTAMP))
      throw fail(KafkaErrorCode.INVALID_TIMESTAMP, 'One or more records have been rejected due to invalid timestamp', entries);
    const shown = entries.slice(0, 3).map((e) => `RecordError(batchIndex=${e.batchIndex}, message='${e.message}')`).join(', ');
    throw fail(
      KafkaErrorCode.INVALID_RECORD,
      `One or more records have been rejected due to ${entries.length} record errors in total, and only showing the first three errors at most: [${shown}]`,
      entries,
    );
  }
  return batch;
}

/** A pre-0.11 `message.format.version` (magic v0/v1): only modeled for seed 001's UNSUPPORTED_FOR_MESSAGE_FORMAT rule; Kafka 4 removed the config (KIP-724). */
const legacyFormat = (config: ParsedTopicConfig): boolean => config.messageFormatVersion !== undefined && /^0\.(8|9|10)\b/.test(config.messageFormatVersion);

/** Step 6: Kafka's `LogValidator.validateBatch` for client batches. */
function validateBatchHeader(batch: RecordBatch, ctx: ValidationContext): void {
  const { tp } = ctx;
  const countFromOffsets = lastOffset(batch) - batch.baseOffset + 1;
  if (countFromOffsets <= 0)
    throw fail(KafkaErrorCode.INVALID_RECORD, `Batch has an invalid offset range: [${batch.baseOffset}, ${lastOffset(batch)}] in topic partition ${tp}.`);
  if (batch.recordCount <= 0) throw fail(KafkaErrorCode.INVALID_RECORD, `Invalid reported count for record batch: ${batch.recordCount} in topic partition ${tp}.`);
  if (countFromOffsets !== batch.recordCount)
    throw fail(
      KafkaErrorCode.INVALID_RECORD,
      `Inconsistent batch offset range [${batch.baseOffset}, ${lastOffset(batch)}] and count of records ${batch.recordCount} in topic partition ${tp}.`,
    );
  if (isControl(batch)) throw fail(KafkaErrorCode.INVALID_RECORD, `Clients are not allowed to write control records in topic partition ${tp}.`);
  if (batch.producerId !== NO_PRODUCER_ID && batch.baseSequence < 0)
    throw fail(KafkaErrorCode.INVALID_RECORD, `Invalid sequence number ${batch.baseSequence} in record batch with producerId ${batch.producerId} in topic partition ${tp}.`);
  if (legacyFormat(ctx.config) && (isTransactional(batch) || batch.producerId !== NO_PRODUCER_ID))
    throw fail(
      KafkaErrorCode.UNSUPPORTED_FOR_MESSAGE_FORMAT,
      `${isTransactional(batch) ? 'Transactional' : 'Idempotent'} records cannot be used with magic version 1 (topic ${tp} has message.format.version ${ctx.config.messageFormatVersion})`,
    );
  if (isTransactional(batch) && batch.producerId === NO_PRODUCER_ID)
    throw fail(KafkaErrorCode.INVALID_RECORD, `Transactional record batch without a producer id in topic partition ${tp}.`);
}

interface RecordProblem {
  code: number;
  batchIndex: number;
  message: string;
}

/** Step 7: Kafka's `LogValidator.validateRecord` (offsets, key, timestamp) for every record. */
function validateRecords(batch: RecordBatch, ctx: ValidationContext): RecordProblem[] {
  const problems: RecordProblem[] = [];
  const { config, now, tp } = ctx;
  const compressed = (batch.attributes & COMPRESSION_MASK) !== 0;
  batch.records.forEach((record, i) => {
    const offset = batch.baseOffset + record.offsetDelta;
    // Kafka checks inner offsets of compressed batches only (an uncompressed v2 batch with
    // odd offset deltas is accepted by a Kafka 4 broker; the embedded log numbers records by index)
    if (compressed && record.offsetDelta !== i) {
      problems.push({ code: KafkaErrorCode.INVALID_RECORD, batchIndex: i, message: `Inner record at index ${i} inside the compressed record batch does not have incremental offsets, expected offset is ${offset - record.offsetDelta + i} in topic partition ${tp}.` });
      return;
    }
    if (config.compacted && record.key === null) {
      problems.push({ code: KafkaErrorCode.INVALID_RECORD, batchIndex: i, message: `Compacted topic cannot accept message without key in topic partition ${tp}` }); // Kafka 4.x text (no final period)
      return;
    }
    if (!config.logAppendTime) {
      const ts = batch.baseTimestamp + record.timestampDelta;
      if (ts !== -1 && (now - ts > config.timestampBeforeMaxMs || ts - now > config.timestampAfterMaxMs)) {
        // Kafka prints now - before.max.ms in long arithmetic (hugely negative for the Long.MAX default)
        const lo = (BigInt(now) - BigInt(config.timestampBeforeMaxMsText)).toString();
        problems.push({
          code: KafkaErrorCode.INVALID_TIMESTAMP,
          batchIndex: i,
          message: `Timestamp ${ts} of message with offset ${offset} is out of range. The timestamp should be within [${lo}, ${now + config.timestampAfterMaxMs}]`,
        });
      }
    }
  });
  return problems;
}
