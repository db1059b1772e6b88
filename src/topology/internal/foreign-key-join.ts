/**
 * The foreign-key KTable–KTable join (KIP-213), built as Kafka's
 * `KTableImpl.doJoinOnForeignKey`: `left.join(right, extractor, joiner, tableJoined?|named?, materialized?)`
 * and `leftJoin(...)`. Each left row joins the right row whose key is
 * `extractor(value, key)`; the result is keyed by the left key.
 *
 * Records travel through two internal topics: the subscription-registration
 * topic (keyed by the foreign key, co-partitioned with the right table) and
 * the subscription-response topic (keyed by the left key, co-partitioned
 * with the left table); the right side keeps every subscription in the
 * subscription store, keyed `CombinedKey(fk, pk)`.
 */
import { TopologyError } from '../../errors.js';
import { CombinedKeySchema } from '../../processors/dsl/foreign-key/combined-key.js';
import { foreignTableJoinSupplier } from '../../processors/dsl/foreign-key/foreign-table-join.js';
import { responseJoinSupplier } from '../../processors/dsl/foreign-key/response-join.js';
import { subscriptionJoinSupplier, subscriptionReceiveSupplier } from '../../processors/dsl/foreign-key/subscription-receive.js';
import { subscriptionSendSupplier } from '../../processors/dsl/foreign-key/subscription-send.js';
import { responseWrapperSerde, type SubscriptionResponseWrapper } from '../../processors/dsl/foreign-key/subscription-response-wrapper.js';
import { subscriptionWrapperSerde } from '../../processors/dsl/foreign-key/subscription-wrapper.js';
import { KTableSourceSupplier } from '../../processors/dsl/ktable-source.js';
import { isOutputVersioned } from '../../processors/dsl/ktable-contract.js';
import type { StreamPartitioner } from '../../processors/processor.js';
import { Stores } from '../../state/stores.js';
import { dslKeyValueSupplier } from '../../state/dsl-store-suppliers.js';
import type { Serde } from '../../serdes/serde.js';
import { Serdes } from '../../serdes/serdes.js';
import type { Materialized } from '../options.js';
import { isTableJoined, type TableJoined } from '../table-joined.js';
import { addInternalTopic, sizeInternalTopicByReaders } from '../topology.js';
import type { BuilderContext } from './builder-context.js';
import { requireNonNull, validateName } from './checks.js';
import type { NewTable, TableParts } from './dsl-parts.js';
import type { AnyValueJoiner } from '../joiners.js';
import type { ValueMapper, ValueMapperWithKey } from '../value-mappers.js';
import { resolveJoiner, resolveMapper } from './key-first.js';
import { isVersionedSupplier, materializedName, timestampedStoreBuilder } from './materialize.js';

const FK_JOIN = 'KTABLE-FK-JOIN-';
const SUBSCRIPTION_REGISTRATION = `${FK_JOIN}SUBSCRIPTION-REGISTRATION-`;
const SUBSCRIPTION_RESPONSE = `${FK_JOIN}SUBSCRIPTION-RESPONSE-`;
const SUBSCRIPTION_PROCESSOR = `${FK_JOIN}SUBSCRIPTION-PROCESSOR-`;
const FK_JOIN_STATE_STORE_NAME = `${FK_JOIN}SUBSCRIPTION-STATE-STORE-`;
const RESPONSE_RESOLVER = `${FK_JOIN}SUBSCRIPTION-RESPONSE-RESOLVER-PROCESSOR-`;
const FK_JOIN_OUTPUT = `${FK_JOIN}OUTPUT-`;
const TOPIC_SUFFIX = '-topic';

/** The `(tableJoined | named | materialized)?, materialized?` tail of the overloads. */
function splitOptions(third: unknown, fourth: unknown, argCount: number): { tableJoined: TableJoined<unknown, unknown>; materialized: Materialized<unknown, unknown> | undefined } {
  if (argCount > 2) requireNonNull(third, 'tableJoined');
  if (argCount > 3) requireNonNull(fourth, 'materialized');
  if (typeof third === 'string') return { tableJoined: { name: third }, materialized: fourth as Materialized<unknown, unknown> | undefined };
  if (fourth !== undefined || third === undefined || isTableJoined(third)) {
    return { tableJoined: (third ?? {}) as TableJoined<unknown, unknown>, materialized: fourth as Materialized<unknown, unknown> | undefined };
  }
  return { tableJoined: {}, materialized: third as Materialized<unknown, unknown> };
}

/** Kafka's `NamedInternal.suffixWithOrElseGet`: burns an index either way; `<name><suffix>` when the join is named. */
function namer(ctx: BuilderContext, base: string | undefined): (suffix: string, prefix: string) => string {
  return (suffix, prefix) => {
    const generated = ctx.newName(prefix);
    return base === undefined ? generated : validateName(`${base}${suffix}`);
  };
}

/**
 * A user's `StreamPartitioner` of a foreign-key join: called with a null
 * value, as Kafka's `StreamPartitioner<K, Void>`; it must choose one
 * partition (a multicast would subscribe or answer twice).
 */
function valueless<K, W>(partitioner: StreamPartitioner<K, unknown>): StreamPartitioner<K, W> {
  return (topic, key, _value, numPartitions) => {
    const chosen = partitioner(topic, key, null, numPartitions);
    if (Array.isArray(chosen)) {
      throw new TopologyError(`The partitioner of a foreign-key join (TableJoined) returned several partitions for topic '${topic}'; it must return one partition number (or undefined for the default)`);
    }
    return chosen;
  };
}

/**
 * `table.join/leftJoin(other, extractor, joiner, ...)`: adds the join's
 * nodes in Kafka's order (so generated names match Kafka's):
 * 1. both tables send old values (the right one so unchanged values need no
 *    fan-out; the left one so a changed foreign key can be unsubscribed);
 * 2. subscription-registration topic, send processor, sink and source;
 * 3. subscription store, receive processor, subscription join (reads the
 *    right table), foreign-table join (the right table's updates);
 * 4. subscription-response topic, sink (back to the left record's
 *    partition, or `tableJoined.partitioner`) and source;
 * 5. response resolver (reads the left table, drops stale responses,
 *    applies the joiner);
 * 6. the result table (materialized when `materialized` names a store).
 */
export function foreignKeyJoin<K, V>(table: TableParts<K, V>, kind: 'inner' | 'left', otherArg: TableParts<unknown, unknown> | null | undefined, args: unknown[]): NewTable<K, unknown> {
  const [extractorArg, joinerArg, third, fourth] = args;
  const other = requireNonNull(otherArg, 'foreignKeyTable');
  const extractor = resolveMapper(extractorArg as ValueMapper<V, unknown> | ValueMapperWithKey<K, V, unknown>, 'foreignKeyExtractor');
  const joiner = resolveJoiner(joinerArg as AnyValueJoiner<K, V | null, unknown, unknown>);
  const { tableJoined, materialized } = splitOptions(third, fourth, args.length);
  const ctx = table.ctx;
  const topology = ctx.topology;
  const leftJoin = kind === 'left';
  const name = namer(ctx, tableJoined.name === undefined ? undefined : validateName(tableJoined.name));
  const fallback = <T>(serde: Serde<T> | undefined, side: 'key' | 'value'): Serde<T> =>
    serde ?? ((side === 'key' ? ctx.defaultKeySerde : ctx.defaultValueSerde) as Serde<T> | undefined) ?? Serdes.Json<T>();
  const keySerde = fallback(table.serdes.key, 'key');
  const valueSerde = fallback(table.serdes.value, 'value');
  const foreignKeySerde = fallback(other.serdes.key, 'key');
  const foreignValueSerde = fallback(other.serdes.value, 'value');

  // 1. old values
  other.enableSendingOldValues(true);
  table.enableSendingOldValues(true);

  // 2. subscription registration
  const subscriptionTopic = `${name('-subscription-registration', SUBSCRIPTION_REGISTRATION)}${TOPIC_SUFFIX}`;
  const pkTopic = `${subscriptionTopic}-pk`;
  const fkTopic = `${subscriptionTopic}-fk`;
  const valueHashTopic = `${subscriptionTopic}-vh`;
  addInternalTopic(topology, subscriptionTopic);
  sizeInternalTopicByReaders(topology, subscriptionTopic);
  const subscriptionSerde = subscriptionWrapperSerde(keySerde, pkTopic);
  const keySchema = new CombinedKeySchema(foreignKeySerde, fkTopic, keySerde, pkTopic);
  const sendName = name('-subscription-registration-processor', SUBSCRIPTION_REGISTRATION);
  topology.addProcessor(
    sendName,
    subscriptionSendSupplier<K, V, unknown>({ extractor: extractor as (v: V, k: K) => unknown, foreignKeySerializer: foreignKeySerde, foreignKeyTopic: fkTopic, valueSerializer: valueSerde, valueHashTopic, leftJoin, useVersionedSemantics: isOutputVersioned(table) }),
    table.nodeName,
  );
  const subscriptionSink = name('-subscription-registration-sink', 'KTABLE-SINK-');
  const otherPartitioner = tableJoined.otherPartitioner;
  topology.addSink(subscriptionSink, subscriptionTopic, { keySerializer: foreignKeySerde, valueSerializer: subscriptionSerde, ...(otherPartitioner ? { partitioner: valueless(otherPartitioner) } : {}) }, sendName);
  const subscriptionSource = name('-subscription-registration-source', 'KTABLE-SOURCE-');
  topology.addSource(subscriptionSource, subscriptionTopic, { keyDeserializer: foreignKeySerde, valueDeserializer: subscriptionSerde });
  topology.copartition(subscriptionSource, other.nodeName);

  // 3. the right side
  const storeName = name('-subscription-store', FK_JOIN_STATE_STORE_NAME);
  const store = Stores.timestampedKeyValueStoreBuilder(dslKeyValueSupplier({ name: storeName, timestamped: true }, undefined), Serdes.Buffer(), subscriptionSerde).withCachingDisabled();
  const receiveName = name('-subscription-receive', SUBSCRIPTION_PROCESSOR);
  topology.addProcessor(receiveName, subscriptionReceiveSupplier(storeName, keySchema), subscriptionSource);
  topology.addStateStore(store, receiveName);
  const foreignView = other.valueGetterSupplier();
  const joinForeignName = name('-subscription-join-foreign', SUBSCRIPTION_PROCESSOR);
  topology.addProcessor(joinForeignName, subscriptionJoinSupplier(foreignView), receiveName);
  connectStores(ctx, joinForeignName, foreignView.storeNames());
  const foreignJoinName = name('-foreign-join-subscription', SUBSCRIPTION_PROCESSOR);
  topology.addProcessor(foreignJoinName, foreignTableJoinSupplier(storeName, keySchema, isOutputVersioned(other)), other.nodeName);
  topology.connectProcessorAndStateStores(foreignJoinName, storeName);

  // 4. subscription response
  const responseTopic = `${name('-subscription-response', SUBSCRIPTION_RESPONSE)}${TOPIC_SUFFIX}`;
  addInternalTopic(topology, responseTopic);
  sizeInternalTopicByReaders(topology, responseTopic);
  const responseSerde = responseWrapperSerde(foreignValueSerde);
  const partitioner = tableJoined.partitioner;
  const responsePartitioner: StreamPartitioner<K, SubscriptionResponseWrapper<unknown>> = partitioner
    ? valueless(partitioner as StreamPartitioner<K, unknown>)
    : (_topic, _key, response) => response.primaryPartition ?? undefined;
  const responseSink = name('-subscription-response-sink', 'KTABLE-SINK-');
  topology.addSink(responseSink, responseTopic, { keySerializer: keySerde, valueSerializer: responseSerde, partitioner: responsePartitioner }, joinForeignName, foreignJoinName);
  const responseSource = name('-subscription-response-source', 'KTABLE-SOURCE-');
  topology.addSource(responseSource, responseTopic, { keyDeserializer: keySerde, valueDeserializer: responseSerde });
  topology.copartition(responseSource, table.nodeName);

  // 5. response resolver
  const leftView = table.valueGetterSupplier();
  const resolverName = name('-subscription-response-resolver', RESPONSE_RESOLVER);
  topology.addProcessor(
    resolverName,
    responseJoinSupplier<K, V, unknown, unknown>({ values: leftView, valueSerializer: valueSerde, valueHashTopic, joiner: joiner as (v: V | null, vo: unknown, k: K) => unknown, leftJoin }),
    responseSource,
  );
  connectStores(ctx, resolverName, leftView.storeNames());

  // 6. result table
  const resultName = name('-result', FK_JOIN_OUTPUT);
  const queryable = materializedName(materialized);
  const resultStoreName = queryable ?? ctx.newName(`${FK_JOIN_OUTPUT}STATE-STORE-`);
  const resultSerdes = { key: (materialized?.keySerde as Serde<K> | undefined) ?? keySerde, value: materialized?.valueSerde };
  const result = new KTableSourceSupplier<K, unknown>(resultStoreName, () => {
    topology.addStateStore(timestampedStoreBuilder(resultStoreName, materialized ?? {}, resultSerdes.key, fallback(resultSerdes.value, 'value')), resultName);
  }, isVersionedSupplier(materialized?.storeSupplier));
  topology.addProcessor(resultName, result, resolverName);
  if (queryable !== undefined) result.materialize();
  return { nodeName: resultName, supplier: result, queryableStoreName: queryable, serdes: resultSerdes };
}

function connectStores(ctx: BuilderContext, processor: string, storeNames: string[]): void {
  if (storeNames.length > 0) ctx.topology.connectProcessorAndStateStores(processor, ...storeNames);
}
