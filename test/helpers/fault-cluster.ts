/**
 * Client-side fault injection for any cluster port: a decorator whose raw
 * producers answer the next N produce requests to a topic with a Kafka error
 * before the request reaches the cluster. On real Kafka this is how the
 * contract suite makes a retriable error happen on demand; the retry that
 * follows goes to the real broker.
 */
import type { ClusterPort, ProduceAck, ProduceBatch, RawProducerOptions, RawProducerPort } from '../../src/cluster/port.js';
import { KafkaProtocolError, kafkaErrorName } from '../../src/errors.js';

/** A cluster port with {@link failProduce}. */
export interface FaultInjectingCluster {
  readonly cluster: ClusterPort;
  /** The next `count` produce requests to `topic` reject with `code` (before reaching the cluster). */
  failProduce(fault: { topic: string; code: number; count?: number }): void;
}

/** Wraps `inner` so that produce faults can be injected client-side. */
export function withProduceFaults(inner: ClusterPort): FaultInjectingCluster {
  const faults: Array<{ topic: string; code: number; remaining: number }> = [];
  const take = (topic: string): KafkaProtocolError | undefined => {
    const fault = faults.find((f) => f.topic === topic && f.remaining > 0);
    if (!fault) return undefined;
    fault.remaining -= 1;
    return new KafkaProtocolError(fault.code, `${kafkaErrorName(fault.code)} (${fault.code}): injected by the test before the request`);
  };
  const wrapProducer = (producer: RawProducerPort): RawProducerPort => ({
    get transactionalId() {
      return producer.transactionalId;
    },
    connect: () => producer.connect(),
    beginTransaction: () => producer.beginTransaction(),
    produce: (batch: ProduceBatch): Promise<ProduceAck> => {
      const error = take(batch.topic);
      return error ? Promise.reject(error) : producer.produce(batch);
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
    failProduce: ({ topic, code, count = 1 }) => {
      faults.push({ topic, code, remaining: count });
    },
  };
}
