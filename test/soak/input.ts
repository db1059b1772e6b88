/**
 * The soak input (Kafka Streams' `EosTestDriver.generate`): record i has a key
 * `k<j>` drawn at random from `k0..k(K-1)` and, as value, its sequence number
 * within that key (1, 2, 3, ...), so the true count and sum of every key are
 * known. Each record goes to the partition Java's default partitioner gives
 * its key (murmur2), as the app's sinks do, so `data` partition p must equal
 * input partition p.
 */
import type { Producer } from 'kafkajs';
import { partitionFor } from '../../src/records/partitioner.js';
import { soakKafka } from './kafka-io.js';

/** Produces the soak input in chunks through one idempotent producer. */
export class InputProducer {
  readonly #producer: Producer;
  readonly #seq = new Map<string, number>();
  produced = 0;

  constructor(
    brokers: string[],
    private readonly topic: string,
    private readonly keys: number,
    private readonly partitions: number,
    private readonly random: () => number,
  ) {
    this.#producer = soakKafka(brokers).producer({ idempotent: true, maxInFlightRequests: 1 });
  }

  async connect(): Promise<void> {
    await this.#producer.connect();
  }

  /** Produces the next `count` records (acks=all), in sends of at most 1000. */
  async produce(count: number): Promise<void> {
    for (let done = 0; done < count; ) {
      const n = Math.min(1000, count - done);
      const messages = [];
      for (let i = 0; i < n; i++) {
        const key = `k${Math.floor(this.random() * this.keys)}`;
        const seq = (this.#seq.get(key) ?? 0) + 1;
        this.#seq.set(key, seq);
        const value = Buffer.alloc(8);
        value.writeBigInt64BE(BigInt(seq));
        messages.push({ key, value, partition: partitionFor(Buffer.from(key), this.partitions) });
      }
      await this.#producer.send({ topic: this.topic, acks: -1, messages });
      done += n;
      this.produced += n;
    }
  }

  async close(): Promise<void> {
    await this.#producer.disconnect().catch(() => undefined);
  }
}
