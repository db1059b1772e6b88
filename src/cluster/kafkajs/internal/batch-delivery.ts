/**
 * Helpers of the group consumer's batch delivery: per-partition serialization,
 * heartbeats while a handler runs, and record conversion.
 */
import type { KafkaMessage } from 'kafkajs';
import type { ConsumedRecord, Headers } from '../../port.js';

/** Runs tasks one after the other per key; tasks of different keys run concurrently. */
export class PartitionSerializer {
  private readonly tails = new Map<string, Promise<void>>();

  /** Runs `task` after every earlier task of `key` settled; resolves or rejects with it. */
  run(key: string, task: () => Promise<void>): Promise<void> {
    const current = (this.tails.get(key) ?? Promise.resolve()).then(task);
    const tail = current.catch(() => undefined);
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return current;
  }

  /** Resolves once every task of `key` started so far has settled. */
  idle(key: string): Promise<void> {
    return this.tails.get(key) ?? Promise.resolve();
  }
}

/**
 * Calls `heartbeat` every `intervalMs` until the returned stop function is
 * called. Failures (e.g. REBALANCE_IN_PROGRESS) are ignored here: kafkajs sees
 * the rebalance on its own heartbeat after the batch and re-joins then.
 */
export function startHeartbeats(heartbeat: () => Promise<void>, intervalMs: number): () => void {
  const timer = setInterval(() => {
    heartbeat().catch(() => undefined);
  }, intervalMs);
  return () => clearInterval(timer);
}

/** Converts a kafkajs message; repeated header keys keep their last value. */
export function toConsumedRecord(topic: string, partition: number, m: KafkaMessage): ConsumedRecord {
  const headers: Headers = {};
  const from = m.headers;
  // for..in + hasOwn: Object.entries' array of pairs per record is not needed (most records have no headers)
  if (from !== undefined) {
    for (const name in from) {
      if (!Object.hasOwn(from, name)) continue;
      const value = from[name];
      const last = Array.isArray(value) ? value[value.length - 1] : value;
      // A null header value (length -1 on the wire) arrives as null and stays null.
      if (last !== undefined) Object.defineProperty(headers, name, { value: last, writable: true, enumerable: true, configurable: true });
    }
  }
  return {
    topic,
    partition,
    offset: Number(m.offset),
    key: m.key ?? null,
    value: m.value ?? null,
    headers,
    timestamp: Number(m.timestamp),
  };
}
