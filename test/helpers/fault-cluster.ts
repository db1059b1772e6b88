/**
 * Client-side fault injection for any cluster port: a decorator whose raw
 * producers answer the next N produce requests to a topic with a Kafka error
 * before the request reaches the cluster, or (`afterAppend`) after the
 * cluster wrote it — what NOT_ENOUGH_REPLICAS_AFTER_APPEND or a late
 * REQUEST_TIMED_OUT look like. On real Kafka this is how the contract suite
 * makes these errors happen on demand. (An `afterAppend` fault is for
 * give-up scenarios: the raw producer saw a success, so a retry of the same
 * records is a new write, not a de-duplicated one.)
 */
import type { ClusterPort, ProduceAck, ProduceBatch, RawProducerOptions, RawProducerPort } from '../../src/cluster/port.js';
import { KafkaProtocolError, kafkaErrorName } from '../../src/errors.js';

/** A cluster port with {@link failProduce}. */
export interface FaultInjectingCluster {
  readonly cluster: ClusterPort;
  /** The next `count` produce requests to `topic` reject with `code` (before reaching the cluster). */
  failProduce(fault: { topic: string; code: number; count?: number; afterAppend?: boolean }): void;
  /** Removes every pending fault. */
  clearFaults(): void;
}

/** Wraps `inner` so that produce faults can be injected client-side. */
export function withProduceFaults(inner: ClusterPort): FaultInjectingCluster {
  const faults: Array<{ topic: string; code: number; remaining: number; afterAppend: boolean }> = [];
  const take = (topic: string): (KafkaProtocolError & { afterAppend: boolean }) | undefined => {
    const fault = faults.find((f) => f.topic === topic && f.remaining > 0);
    if (!fault) return undefined;
    fault.remaining -= 1;
    const when = fault.afterAppend ? 'after the cluster wrote the batch' : 'before the request';
    return Object.assign(new KafkaProtocolError(fault.code, `${kafkaErrorName(fault.code)} (${fault.code}): injected by the test ${when}`), { afterAppend: fault.afterAppend });
  };
  const wrapProducer = (producer: RawProducerPort): RawProducerPort => ({
    get transactionalId() {
      return producer.transactionalId;
    },
    connect: () => producer.connect(),
    beginTransaction: () => producer.beginTransaction(),
    produce: async (batch: ProduceBatch): Promise<ProduceAck> => {
      const error = take(batch.topic);
      if (error?.afterAppend) await producer.produce(batch);
      if (error) throw error;
      return producer.produce(batch);
    },
    sendOffsets: (groupId, offsets) => producer.sendOffsets(groupId, offsets),
    commitTransaction: () => producer.commitTransaction(),
    abortTransaction: () => producer.abortTransaction(),
    close: () => producer.close(),
  });
  const cluster: ClusterPort = {
    kind: inner.kind,
    admin: () => inner.admin(),
    consumer: (options) => inner.consumer(options),
    producer: (options: RawProducerOptions) => wrapProducer(inner.producer(options)),
  };
  return {
    cluster,
    failProduce: ({ topic, code, count = 1, afterAppend = false }) => {
      faults.push({ topic, code, remaining: count, afterAppend });
    },
    clearFaults: () => {
      faults.length = 0;
    },
  };
}
