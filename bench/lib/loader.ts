/** The fast input loader: kafkajs, acks -1, large batches, several sends in flight. */
import type { Kafka as KafkaClient, Message } from 'kafkajs';
import { inputValue, keyOf, PARTITIONS } from './workload.js';

/** Records per produce call (spread over all partitions). */
const CHUNK = 8000;
/** Produce calls in flight at once. */
const IN_FLIGHT = 4;

/** Keys and values generated once per process and reused by every contender's load. */
const cache: { keys: string[]; values: string[] } = { keys: [], values: [] };

function ensureGenerated(records: number): void {
  for (let id = cache.values.length; id < records; id++) {
    cache.keys.push(keyOf(id));
    cache.values.push(inputValue(id));
  }
}

/** Options of {@link loadInput}. */
export interface LoadOptions {
  /** The key of record `id` (default `k<id>`). */
  keyOf?: (id: number) => string;
  /**
   * The record's event time (default: the time of its produce call). When
   * given, the sends go one after the other, so that every partition holds
   * the records in id order (event times in order: none is late).
   */
  timestampOf?: (id: number) => number;
}

/**
 * Writes input records 0..records-1 to `topic` (record i to partition i % 8,
 * key `k<i>` or `keyOf(i)`, the 100-byte JSON value) and resolves once all are acknowledged.
 * @returns elapsed milliseconds
 */
export async function loadInput(kafka: KafkaClient, topic: string, records: number, { keyOf, timestampOf }: LoadOptions = {}): Promise<number> {
  ensureGenerated(records);
  const started = Date.now();
  const inFlight = timestampOf ? 1 : IN_FLIGHT;
  const producer = kafka.producer({ allowAutoTopicCreation: false, idempotent: false, maxInFlightRequests: inFlight });
  await producer.connect();
  try {
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < records) {
        const from = next;
        const to = Math.min(records, from + CHUNK);
        next = to;
        const messages: Message[] = [];
        const now = String(Date.now());
        for (let id = from; id < to; id++) {
          const timestamp = timestampOf ? String(timestampOf(id)) : now;
          messages.push({ key: keyOf ? keyOf(id) : (cache.keys[id] ?? null), value: cache.values[id] ?? null, partition: id % PARTITIONS, timestamp });
        }
        await producer.send({ topic, acks: -1, messages });
      }
    };
    await Promise.all(Array.from({ length: inFlight }, worker));
  } finally {
    await producer.disconnect().catch(() => undefined);
  }
  return Date.now() - started;
}

/** Writes a few extra records (the windowed workload's flush records: key, partition, event time; value `{}`). */
export async function loadExtra(kafka: KafkaClient, topic: string, rows: ReadonlyArray<{ partition: number; key: string; timestamp: number }>): Promise<number> {
  const started = Date.now();
  const producer = kafka.producer({ allowAutoTopicCreation: false, idempotent: false, maxInFlightRequests: 1 });
  await producer.connect();
  try {
    await producer.send({ topic, acks: -1, messages: rows.map((r) => ({ key: r.key, value: '{}', partition: r.partition, timestamp: String(r.timestamp) })) });
  } finally {
    await producer.disconnect().catch(() => undefined);
  }
  return Date.now() - started;
}
