/**
 * The code snippets of shared/API.md, kept as written (only wrapped in
 * functions, with `console.log` replaced by a `log` parameter), imported from
 * the public entry points. `npm run typecheck` compiles this file, and
 * test/unit/api-contract.test.ts both type-checks it with the compiler API and
 * runs it.
 */
import {
  StreamsBuilder, Topology, KafkaStreams, Serdes, KeyValue,
  TransactionalProducer, TxnSendOption,
  ProductionExceptionHandlerResponse, // also DeserializationHandlerResponse, ProcessingHandlerResponse
  IllegalStateError, RecordTooLargeError, InvalidRecordError, InvalidTimestampError,
  ProducerFencedError, SerializationError, StreamsError,
} from '../../src/index.js';
import { EmbeddedKafkaCluster, TopologyTestDriver } from '../../src/testing.js';

/** Every name of API.md's "Entry points" import, used so that the compiler resolves each one. */
export const entryPointValues = {
  StreamsBuilder, Topology, KafkaStreams, Serdes, KeyValue,
  TransactionalProducer, TxnSendOption, ProductionExceptionHandlerResponse,
  IllegalStateError, RecordTooLargeError, InvalidRecordError, InvalidTimestampError,
  ProducerFencedError, SerializationError, StreamsError,
  EmbeddedKafkaCluster, TopologyTestDriver,
};

/** `KeyValue<K, V> = { key, value }` at the type level. */
export const pair: KeyValue<string, number> = { key: 'a', value: 1 };

/** API.md "Building a topology". */
export function buildingATopology(log: (text: string) => void): Topology {
  const builder = new StreamsBuilder();
  builder
    .stream<string, string>('in', { keySerde: Serdes.String(), valueSerde: Serdes.String() })
    .filter((key, value) => value !== '')
    .map((key, value) => ({ key: value.slice(0, 3), value }))   // KeyValue<K, V> = { key, value }
    .mapValues((value) => value.toUpperCase())
    .to('out', { keySerde: Serdes.String(), valueSerde: Serdes.String() });
  const topology: Topology = builder.build();
  log(topology.describe().toString());
  return topology;
}

/**
 * API.md "The embedded cluster", returning what each call gave. The snippet
 * produces to `in` without creating it; like a Kafka broker without topic
 * auto-creation the embedded cluster needs the topic first, so it is created
 * here before the snippet.
 */
export async function theEmbeddedCluster(cluster: EmbeddedKafkaCluster) {
  await cluster.createTopic('in', { partitions: 2 });
  await cluster.createTopic('out', { partitions: 3, config: { 'cleanup.policy': 'compact', 'max.message.bytes': '2048' } });
  await cluster.produce('in', [{ key: 'k1', value: 'v1', partition: 0, headers: {}, timestamp: Date.now() }]); // plain, non-transactional
  const endOffsets = await cluster.endOffsets('in');                     // number[]: next offset per partition
  const committedOffsets = await cluster.committedOffsets('orders-app', 'in'); // number[]: committed offset per partition, -1 if none
  const readCommitted = await cluster.readCommitted('out');                 // records visible to a read_committed reader
  const readUncommitted = await cluster.readUncommitted('out');               // everything appended, aborted data included
  const inRecords = await cluster.readCommitted('in');
  return { endOffsets, committedOffsets, readCommitted, readUncommitted, inRecords };
}

/** API.md "The producer on its own" (on a cluster where `out` exists). */
export async function theProducerOnItsOwn(cluster: EmbeddedKafkaCluster) {
  const producer = new TransactionalProducer({ transactionalId: 'tx-1', cluster /* or bootstrapServers */ });
  await producer.initTransactions();
  producer.beginTransaction();
  const meta = await producer.send({ topic: 'out', key: 'k', value: 'v' }, undefined, TxnSendOption.IGNORE_SEND_ERRORS);
  await producer.commitTransaction();   // or abortTransaction()
  await producer.close();
  return meta;
}

/** True when A and B are the same type. */
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends (<T>() => T extends B ? 1 : 2) ? true : false;

/** The API.md state strings, exactly (a compile error if the union differs). */
export const stateUnionMatches: Equal<
  KafkaStreams['state'],
  'CREATED' | 'REBALANCING' | 'RUNNING' | 'PENDING_SHUTDOWN' | 'NOT_RUNNING' | 'PENDING_ERROR' | 'ERROR'
> = true;

/** A serde is `{ serialize(topic, data, headers?): Buffer | null; deserialize(topic, data, headers?): T }`. */
export const serdeShape: {
  serialize(topic: string, data: string, headers?: Record<string, Buffer | string>): Buffer | null;
  deserialize(topic: string, data: Buffer, headers?: Record<string, Buffer | string>): string;
} = Serdes.String();

/** `app.metrics()` has at least these numeric fields. */
export type MetricsAtLeast = Pick<ReturnType<KafkaStreams['metrics']>, 'recordsProcessed' | 'recordsProduced' | 'droppedRecords' | 'commits' | 'aborts'>;
export const metricsAreNumbers: Equal<MetricsAtLeast[keyof MetricsAtLeast], number> = true;

/** Handler responses are the strings 'CONTINUE' and 'FAIL'. */
export const continueIsString: 'CONTINUE' = ProductionExceptionHandlerResponse.CONTINUE;
