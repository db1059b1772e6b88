/**
 * Input and output of the HA scenarios, through the cluster port (the same
 * code on real Kafka and the embedded cluster):
 * - keys are Longs 0..N-1, key k always goes to input partition k mod P, so
 *   key k belongs to task `0_<k mod P>` whatever partition its output lands on;
 * - {@link loadKeys}: one record (value 1) per key, the state to move;
 * - {@link Trickle}: a steady trickle of value-1 records on every partition,
 *   cycling through that partition's keys, counting what it sent per key;
 * - {@link OutputTail}: a read_committed group consumer on the output topic,
 *   from the beginning: per key the last sum seen and every break of the
 *   sequence 1, 2, 3, ... (a duplicate or a loss); per task the times its
 *   committed outputs were seen (once {@link OutputTail.record} is on).
 */
import type { ClusterPort, GroupConsumerPort, RawProducerPort } from '../../src/cluster/port.js';
import type { WireRecord } from '../../src/records/types.js';

const long = (n: number): Buffer => {
  const b = Buffer.alloc(8);
  b.writeBigInt64BE(BigInt(n));
  return b;
};
const readLong = (b: Buffer | null): number => (b === null ? Number.NaN : Number(b.readBigInt64BE()));
const wire = (key: number): WireRecord => ({ key: long(key), value: long(1), headers: {}, timestamp: Date.now() });

/** The task of key `k` with `partitions` input partitions. */
export const taskOfKey = (k: number, partitions: number): string => `0_${k % partitions}`;

/** Produces one value-1 record per key 0..keys-1 (key k to partition k mod `partitions`). */
export async function loadKeys(cluster: ClusterPort, topic: string, partitions: number, keys: number): Promise<void> {
  const producer = cluster.producer({ clientId: 'ha-loader' });
  await producer.connect();
  try {
    const BATCH = 5000;
    for (let p = 0; p < partitions; p++) {
      let batch: WireRecord[] = [];
      const pending: Promise<unknown>[] = [];
      for (let k = p; k < keys; k += partitions) {
        batch.push(wire(k));
        if (batch.length === BATCH) {
          pending.push(producer.produce({ topic, partition: p, records: batch }));
          batch = [];
          if (pending.length >= 8) await Promise.all(pending.splice(0));
        }
      }
      if (batch.length > 0) pending.push(producer.produce({ topic, partition: p, records: batch }));
      await Promise.all(pending);
    }
  } finally {
    await producer.close();
  }
}

/** A steady trickle of input: one record per partition every `everyMs`. */
export class Trickle {
  /** Records sent per key. */
  readonly sent = new Map<number, number>();
  total = 0;
  #timer: NodeJS.Timeout | undefined;
  #busy: Promise<void> | undefined;
  #producer: RawProducerPort | undefined;
  readonly #next: number[];

  constructor(private readonly cluster: ClusterPort, private readonly topic: string, private readonly partitions: number, private readonly keys: number) {
    this.#next = Array.from({ length: partitions }, (_, p) => p);
  }

  async start(everyMs: number): Promise<void> {
    const producer = (this.#producer = this.cluster.producer({ clientId: 'ha-trickle' }));
    await producer.connect();
    this.#timer = setInterval(() => {
      if (this.#busy) return; // a slow ack: skip a tick rather than pile up
      this.#busy = this.#tick(producer).finally(() => (this.#busy = undefined));
    }, everyMs);
  }

  async #tick(producer: RawProducerPort): Promise<void> {
    const sends: Promise<unknown>[] = [];
    for (let p = 0; p < this.partitions; p++) {
      const k = this.#next[p]!;
      this.#next[p] = k + this.partitions < this.keys ? k + this.partitions : p;
      sends.push(producer.produce({ topic: this.topic, partition: p, records: [wire(k)] }).then(() => {
        this.sent.set(k, (this.sent.get(k) ?? 0) + 1);
        this.total++;
      }));
    }
    await Promise.all(sends);
  }

  /** Stops and waits for the last sends. */
  async stop(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    await this.#busy;
    await this.#producer?.close();
  }
}

/** One break of a key's output sequence. */
export interface SequenceBreak {
  key: number;
  expected: number;
  got: number;
}

/** The read_committed view of the output topic (see the module comment). */
export class OutputTail {
  /** Key → last sum seen. */
  readonly last = new Map<number, number>();
  readonly breaks: SequenceBreak[] = [];
  /** Task → times (ms) its committed outputs were seen, while recording. */
  readonly seen = new Map<string, number[]>();
  records = 0;
  recording = false;
  #consumer: GroupConsumerPort | undefined;

  constructor(private readonly partitions: number) {}

  async start(cluster: ClusterPort, topic: string, groupId: string): Promise<void> {
    const consumer = (this.#consumer = cluster.consumer({ groupId, isolationLevel: 'read_committed', autoOffsetReset: 'earliest', sessionTimeoutMs: 30_000, heartbeatIntervalMs: 1000 }));
    await consumer.subscribe([topic]);
    await consumer.run({
      onAssignment: () => Promise.resolve(),
      eachBatch: (batch) => {
        const now = Date.now();
        const touched = new Set<string>();
        for (const r of batch.records) {
          const key = readLong(r.key);
          const value = readLong(r.value);
          const expected = (this.last.get(key) ?? 0) + 1;
          if (value !== expected) this.breaks.push({ key, expected, got: value });
          if (value > (this.last.get(key) ?? 0)) this.last.set(key, value);
          this.records++;
          touched.add(taskOfKey(key, this.partitions));
        }
        if (this.recording) {
          for (const task of touched) {
            let times = this.seen.get(task);
            if (!times) this.seen.set(task, (times = []));
            times.push(now);
          }
        }
        return Promise.resolve();
      },
    });
  }

  /** The first time a committed output of `task` was seen after `after`. */
  firstAfter(task: string, after: number): number | undefined {
    return this.seen.get(task)?.find((t) => t > after);
  }

  async stop(): Promise<void> {
    await this.#consumer?.close();
  }
}

/**
 * Keys whose last committed sum differs from what was sent (1 from the load
 * plus the trickle's records): the losses (a duplicate shows as a
 * {@link OutputTail.breaks} entry). Returns their count and the first 10.
 */
export function countMismatches(tail: OutputTail, keys: number, trickle: Trickle): { count: number; sample: SequenceBreak[] } {
  const sample: SequenceBreak[] = [];
  let count = 0;
  for (let k = 0; k < keys; k++) {
    const expected = 1 + (trickle.sent.get(k) ?? 0);
    const got = tail.last.get(k) ?? 0;
    if (got === expected) continue;
    count++;
    if (sample.length < 10) sample.push({ key: k, expected, got });
  }
  return { count, sample };
}
