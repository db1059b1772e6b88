/**
 * The fault-injection options of the `EmbeddedKafkaCluster` (see its README).
 */
import type { RecordErrorEntry } from '../../errors.js';

/** A scheduled produce failure. */
export interface ProduceFault {
  topic: string;
  /** Omit to fail produce requests to any partition of the topic. */
  partition?: number;
  /** Kafka error code to answer, e.g. `KafkaErrorCode.NOT_LEADER_OR_FOLLOWER`. */
  code: number;
  /** How many produce requests fail (default 1). */
  count?: number;
  /** record_errors to return with the error. */
  recordErrors?: RecordErrorEntry[];
  /** error_message to return with the error. */
  errorMessage?: string;
  /**
   * Answer the error only after handling the request (the batch is appended,
   * or recognised as a duplicate): what NOT_ENOUGH_REPLICAS_AFTER_APPEND or a
   * REQUEST_TIMED_OUT after the leader's append look like to the client.
   */
  afterAppend?: boolean;
}

/** A scheduled failure of a transaction coordinator request. */
export interface TxnFault {
  transactionalId: string;
  api: 'AddPartitionsToTxn' | 'AddOffsetsToTxn' | 'TxnOffsetCommit' | 'EndTxn';
  /** Kafka error code, e.g. `KafkaErrorCode.CONCURRENT_TRANSACTIONS`. */
  code: number;
  /** How many requests fail (default 1). */
  count?: number;
}

/** Latency added before requests are handled (real milliseconds). */
export interface Latency {
  produceMs?: number;
  fetchMs?: number;
}
