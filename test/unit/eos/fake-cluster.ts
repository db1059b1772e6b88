/**
 * A small in-memory fake of the cluster port for the producer's unit tests:
 * topics with configs, a transactional log per partition, broker-side checks
 * (compacted topics need keys, max.message.bytes), fencing by transactional id
 * and injectable produce faults.
 */
import type {
  AdminPort,
  ClusterPort,
  GroupConsumerPort,
  ProduceAck,
  ProduceBatch,
  RawProducerOptions,
  RawProducerPort,
  TopicDescription,
  TopicPartitionOffset,
  WireRecord,
} from '../../../src/cluster/port.js';
import { KafkaProtocolError, ProducerFencedError } from '../../../src/errors.js';

interface LogEntry {
  record: WireRecord;
  producer: number;
  status: 'open' | 'committed' | 'aborted';
}

interface Fault {
  code: number;
  remaining: number;
  topic?: string;
  recordErrors?: boolean;
}

export class FakeCluster implements ClusterPort {
  readonly kind = 'embedded' as const;
  readonly topics = new Map<string, { partitions: number; config: Record<string, string>; logs: LogEntry[][] }>();
  readonly produceCalls: Array<{ topic: string; partition: number; count: number; ok: boolean }> = [];
  readonly offsets: Array<{ groupId: string; offsets: TopicPartitionOffset[]; producer: number }> = [];
  readonly faults: Fault[] = [];
  /** When false, INVALID_RECORD is answered without record_errors (an old broker). */
  recordErrors = true;
  describeCalls = 0;
  produceDelayMs = 0;
  endTxnFault: number | undefined;
  #nextProducerId = 1;
  /** transactionalId -> current producer id (epoch owner). */
  readonly owners = new Map<string, number>();

  createTopic(name: string, partitions = 1, config: Record<string, string> = {}): void {
    this.topics.set(name, { partitions, config, logs: Array.from({ length: partitions }, () => []) });
  }

  /** Fails the next `count` produce requests (optionally of one topic) with `code`. */
  injectProduceError(code: number, count: number, topic?: string): void {
    this.faults.push({ code, remaining: count, topic });
  }

  readCommitted(topic: string): Array<WireRecord & { partition: number }> {
    const t = this.topics.get(topic);
    if (!t) return [];
    return t.logs.flatMap((log, partition) => log.filter((e) => e.status === 'committed').map((e) => ({ ...e.record, partition })));
  }

  readUncommitted(topic: string): WireRecord[] {
    return this.topics.get(topic)?.logs.flatMap((l) => l.map((e) => e.record)) ?? [];
  }

  admin(): AdminPort {
    const notFound = (name: string) => new KafkaProtocolError(3, undefined, { errorMessage: `topic ${name} does not exist` });
    return {
      createTopic: async (name, options) => this.createTopic(name, options?.partitions ?? 1, options?.config ?? {}),
      deleteTopic: async (name) => void this.topics.delete(name),
      listTopics: async () => [...this.topics.keys()],
      describeTopic: async (name): Promise<TopicDescription> => {
        this.describeCalls++;
        const t = this.topics.get(name);
        if (!t) throw notFound(name);
        return { name, partitions: t.partitions, config: { ...t.config } };
      },
      alterTopicConfig: async (name, config) => {
        const t = this.topics.get(name);
        if (!t) throw notFound(name);
        Object.assign(t.config, config);
      },
      endOffsets: async (name) => this.topics.get(name)?.logs.map((l) => l.length) ?? [],
      committedOffsets: async () => [],
      close: async () => undefined,
    };
  }

  consumer(): GroupConsumerPort {
    throw new Error('not in the fake');
  }

  producer(options: RawProducerOptions): RawProducerPort {
    const id = this.#nextProducerId++;
    const txId = options.transactionalId;
    let fenced: Error | undefined;
    let open: Array<LogEntry> = [];
    const check = (): void => {
      if (fenced) throw fenced;
      if (txId !== undefined && this.owners.get(txId) !== id) {
        fenced = new ProducerFencedError(`fenced by a newer producer of ${txId}`, { cause: new KafkaProtocolError(90) });
        throw fenced;
      }
    };
    const end = async (status: 'committed' | 'aborted'): Promise<void> => {
      check();
      if (this.endTxnFault !== undefined) {
        fenced = new KafkaProtocolError(this.endTxnFault);
        throw fenced;
      }
      for (const e of open) e.status = status;
      for (const o of this.offsets) if (o.producer === id) o.producer = status === 'committed' ? -1 : -2;
      open = [];
    };
    return {
      transactionalId: txId,
      connect: async () => {
        if (txId !== undefined) {
          const previous = this.owners.get(txId);
          if (previous !== undefined) this.#abortOpen(previous);
          this.owners.set(txId, id);
        }
      },
      beginTransaction: async () => check(),
      produce: async (batch: ProduceBatch): Promise<ProduceAck> => {
        if (this.produceDelayMs) await new Promise((r) => setTimeout(r, this.produceDelayMs));
        const result = this.#produce(batch, id, txId !== undefined, check);
        if (txId !== undefined) open.push(...result.entries);
        return result.ack;
      },
      sendOffsets: async (groupId, offsets) => {
        check();
        this.offsets.push({ groupId, offsets, producer: id });
      },
      commitTransaction: () => end('committed'),
      abortTransaction: () => end('aborted'),
      close: async () => undefined,
    };
  }

  #abortOpen(producer: number): void {
    for (const t of this.topics.values())
      for (const log of t.logs) for (const e of log) if (e.producer === producer && e.status === 'open') e.status = 'aborted';
  }

  #produce(batch: ProduceBatch, producer: number, transactional: boolean, check: () => void): { ack: ProduceAck; entries: LogEntry[] } {
    const call = { topic: batch.topic, partition: batch.partition, count: batch.records.length, ok: false };
    this.produceCalls.push(call);
    check();
    const fault = this.faults.find((f) => f.remaining > 0 && (f.topic === undefined || f.topic === batch.topic));
    if (fault) {
      fault.remaining--;
      throw new KafkaProtocolError(fault.code);
    }
    const t = this.topics.get(batch.topic);
    if (!t || batch.partition >= t.partitions) throw new KafkaProtocolError(3);
    const size = 61 + batch.records.reduce((n, r) => n + 20 + (r.key?.length ?? 0) + (r.value?.length ?? 0), 0);
    if (size > Number(t.config['max.message.bytes'] ?? 1048588)) throw new KafkaProtocolError(10);
    if ((t.config['cleanup.policy'] ?? '').includes('compact')) {
      const bad = batch.records.flatMap((r, i) => (r.key === null ? [i] : []));
      if (bad.length > 0) {
        throw new KafkaProtocolError(87, undefined, {
          errorMessage: 'One or more records have been rejected',
          recordErrors: this.recordErrors ? bad.map((i) => ({ batchIndex: i, message: 'Compacted topic cannot accept message without key' })) : [],
        });
      }
    }
    const log = t.logs[batch.partition]!;
    const baseOffset = log.length;
    const entries = batch.records.map((record) => ({ record, producer, status: transactional ? ('open' as const) : ('committed' as const) }));
    log.push(...entries);
    call.ok = true;
    return { ack: { topic: batch.topic, partition: batch.partition, baseOffset }, entries };
  }
}
