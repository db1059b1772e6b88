/**
 * Delivery of one partition batch (DESIGN.md §4 steps 2-4): retries retriable
 * errors with exponential back-off until the delivery timeout, turns broker
 * record_errors into per-record errors and re-sends the innocent records,
 * and isolates culprits by splitting a rejected batch in halves when the broker
 * named none. Fatal and fencing errors are handed to the producer.
 */
import type { ProduceAck, ProduceBatch } from '../../cluster/port.js';
import {
  DeliveryTimeoutError,
  InvalidRecordError,
  InvalidTimestampError,
  KafkaErrorCode,
  KafkaProtocolError,
  RecordTooLargeError,
  StreamsError,
  errorKindOf,
} from '../../errors.js';
import { backoffDelay, sleep } from '../../internal/backoff.js';
import type { PendingSend } from './types.js';

/** What the sender needs from the producer. */
export interface SenderContext {
  produce(batch: ProduceBatch): Promise<ProduceAck>;
  /** An error that stops delivery of records not yet written (fatal, abort, close), if any. */
  stopError(): Error | undefined;
  /** The producer's fatal error: records acknowledged after it still fail (their transaction cannot commit). */
  fatalError(): Error | undefined;
  /** Moves the producer to its fatal state; returns the error to hand every record. */
  onFatal(error: unknown): Error;
  /** The broker rejected records of `topic` for record reasons: refresh its cached config. */
  onRecordRejection(topic: string): void;
  /**
   * Records timed out after an error that leaves it unknown whether the broker
   * wrote them (REQUEST_TIMED_OUT, NETWORK_EXCEPTION, a non-Kafka error): they
   * cannot be excluded from the transaction for sure, so it must not commit.
   */
  onUnknownOutcome(error: Error): void;
  retryBackoffMs: number;
  deliveryTimeoutMs: number;
}

/** Delivers `records` (one partition, in order); settles every record; never rejects. */
export async function deliverBatch(ctx: SenderContext, topic: string, partition: number, records: PendingSend[]): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    const stop = ctx.stopError();
    if (stop) return settleAll(records, stop);
    let ack: ProduceAck;
    try {
      ack = await ctx.produce({ topic, partition, records: records.map((r) => r.wire) });
    } catch (err) {
      const kind = errorKindOf(err);
      if (kind === 'retriable') {
        const remaining = Math.min(...records.map((r) => r.deadline)) - Date.now();
        if (remaining <= 0) {
          const timeout = new DeliveryTimeoutError(
            `${records.length} record(s) for ${topic}-${partition} could not be delivered within deliveryTimeoutMs=${ctx.deliveryTimeoutMs} ` +
              `after ${attempt + 1} attempt(s); last error: ${(err as Error).message}`,
            { cause: err },
          );
          if (outcomeUnknown(err)) ctx.onUnknownOutcome(timeout);
          return settleAll(records, timeout);
        }
        await sleep(Math.min(backoffDelay(attempt, ctx.retryBackoffMs), remaining));
        continue;
      }
      if (kind === 'record' && err instanceof StreamsError) {
        ctx.onRecordRejection(topic);
        return isolateCulprits(ctx, topic, partition, records, err);
      }
      return settleAll(records, ctx.onFatal(err));
    }
    const fatal = ctx.fatalError();
    if (fatal) return settleAll(records, fatal);
    records.forEach((r, i) =>
      r.settle(null, { topic, partition, offset: ack.baseOffset + i, timestamp: r.wire.timestamp }),
    );
    return;
  }
}

/**
 * A batch was rejected for record reasons. With record_errors the named
 * culprits fail and the rest is re-sent; without, the batch is split in
 * halves (sent in order) until a record fails on its own.
 */
async function isolateCulprits(
  ctx: SenderContext,
  topic: string,
  partition: number,
  records: PendingSend[],
  err: StreamsError,
): Promise<void> {
  const named = err instanceof KafkaProtocolError ? err.recordErrors.filter((e) => e.batchIndex >= 0 && e.batchIndex < records.length) : [];
  if (named.length > 0) {
    const culprits = new Map(named.map((e) => [e.batchIndex, e.message]));
    const innocent: PendingSend[] = [];
    records.forEach((r, i) => {
      if (culprits.has(i)) r.settle(recordError(err, culprits.get(i) ?? null, topic, partition), null);
      else innocent.push(r);
    });
    if (innocent.length > 0) await deliverBatch(ctx, topic, partition, innocent);
    return;
  }
  if (records.length === 1) {
    const message = err instanceof KafkaProtocolError ? err.errorMessage : null;
    return (records[0] as PendingSend).settle(recordError(err, message, topic, partition), null);
  }
  const mid = Math.ceil(records.length / 2);
  await deliverBatch(ctx, topic, partition, records.slice(0, mid));
  await deliverBatch(ctx, topic, partition, records.slice(mid));
}

/** The record's own error for a broker rejection. */
function recordError(err: StreamsError, brokerMessage: string | null, topic: string, partition: number): StreamsError {
  if (!(err instanceof KafkaProtocolError)) return err;
  const detail = brokerMessage ?? err.errorMessage ?? err.message;
  const what = `The broker rejected the record for ${topic}-${partition} (${err.code}): ${detail}`;
  switch (err.kafkaCode) {
    case KafkaErrorCode.INVALID_TIMESTAMP:
      return new InvalidTimestampError(what, { cause: err });
    case KafkaErrorCode.MESSAGE_TOO_LARGE:
    case KafkaErrorCode.RECORD_LIST_TOO_LARGE:
      return new RecordTooLargeError(
        `${what}; the record alone is larger than the topic's max.message.bytes: raise the topic config 'max.message.bytes' or send a smaller record`,
        { cause: err },
      );
    default:
      return new InvalidRecordError(what, { cause: err });
  }
}

/** True when a failed produce may nevertheless have been written by the broker. */
function outcomeUnknown(err: unknown): boolean {
  if (!(err instanceof KafkaProtocolError)) return true;
  return err.kafkaCode === KafkaErrorCode.REQUEST_TIMED_OUT || err.kafkaCode === KafkaErrorCode.NETWORK_EXCEPTION;
}

function settleAll(records: PendingSend[], error: Error): void {
  for (const r of records) r.settle(error, null);
}
