/**
 * Record, header and topic-partition types shared by every layer (ground).
 */

/**
 * Header values as sluice hands them to users: strings, raw bytes, or `null`
 * (Kafka allows a null header value: the record format writes its length as -1,
 * and it is read back as `null`, as Java's `Header.value()` returns null).
 */
export type Headers = Record<string, string | Buffer | null>;

/** A topic and a partition. */
export interface TopicPartition {
  topic: string;
  partition: number;
}

/** A topic-partition with an offset (the next offset to read, as Kafka commits it). */
export interface TopicPartitionOffset extends TopicPartition {
  offset: number;
}

/** One record, already serialized, as it is written to a partition. */
export interface WireRecord {
  key: Buffer | null;
  value: Buffer | null;
  headers: Headers;
  /** CreateTime in ms since the epoch. */
  timestamp: number;
}

/** One record as read back from a partition. */
export interface ConsumedRecord extends WireRecord {
  topic: string;
  partition: number;
  offset: number;
}
