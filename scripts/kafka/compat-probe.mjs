#!/usr/bin/env node
// Checks what kafkajs 2.2.4 can do against a Kafka cluster; used to write the
// compatibility matrix of README.md. Prints one line per step, PASS or FAIL
// with the exact error (kafkajs error type/name and message).
//   node scripts/kafka/compat-probe.mjs 127.0.0.1:19092
import { randomUUID } from 'node:crypto';
import kafkajs from 'kafkajs';

const { Kafka, logLevel } = kafkajs;
const brokers = (process.argv[2] ?? process.env.KAFKA_BROKERS ?? '127.0.0.1:9092').split(',');
const id = randomUUID().slice(0, 8);
const kafka = new Kafka({ clientId: `probe-${id}`, brokers, logLevel: logLevel.NOTHING, retry: { retries: 2 } });
const results = [];

async function step(name, fn) {
  const t0 = Date.now();
  try {
    const detail = await fn();
    results.push(true);
    console.log(`PASS ${name}${detail ? `: ${detail}` : ''} (${Date.now() - t0} ms)`);
  } catch (err) {
    results.push(false);
    const e = err;
    console.log(`FAIL ${name}: ${e?.name} ${e?.type ?? ''} ${e?.message}${e?.cause ? ` / cause: ${e.cause.message}` : ''}`);
  }
}

async function readTopic(topic, isolation, expected, timeoutMs = 15_000) {
  const consumer = kafka.consumer({ groupId: `probe-read-${isolation}-${randomUUID()}`, readUncommitted: isolation === 'read_uncommitted', maxWaitTimeInMs: 100 });
  const got = [];
  await consumer.connect();
  try {
    await consumer.subscribe({ topic, fromBeginning: true });
    await consumer.run({ eachMessage: async ({ message }) => void got.push(message.value?.toString()) });
    const end = Date.now() + timeoutMs;
    while (got.length < expected && Date.now() < end) await new Promise((r) => setTimeout(r, 100));
    await new Promise((r) => setTimeout(r, 500));
    return got;
  } finally {
    await consumer.disconnect();
  }
}

const admin = kafka.admin();
const topicIn = `probe-in-${id}`;
const topicOut = `probe-out-${id}`;
const group = `probe-group-${id}`;

await step('ApiVersions + Metadata (admin connect, listTopics)', async () => { await admin.connect(); return `${(await admin.listTopics()).length} topics`; });
await step('CreateTopics', async () => { await admin.createTopics({ waitForLeaders: true, topics: [{ topic: topicIn, numPartitions: 2 }, { topic: topicOut, numPartitions: 2 }] }); });
await step('DescribeConfigs', async () => {
  const r = await admin.describeConfigs({ includeSynonyms: false, resources: [{ type: 2, name: topicIn, configNames: ['max.message.bytes'] }] });
  return r.resources[0].configEntries.map((c) => `${c.configName}=${c.configValue}`).join(',');
});
const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
await step('Produce (idempotent, InitProducerId)', async () => {
  await producer.connect();
  const r = await producer.send({ topic: topicIn, messages: [{ key: 'a', value: 'in-1', partition: 0 }, { key: 'b', value: 'in-2', partition: 0 }] });
  return `offset ${r[0].baseOffset}`;
});
await step('ListOffsets (admin.fetchTopicOffsets)', async () => JSON.stringify((await admin.fetchTopicOffsets(topicIn)).map((o) => [o.partition, o.high])));
await step('Consumer group: JoinGroup/SyncGroup/Fetch/OffsetCommit', async () => {
  const consumer = kafka.consumer({ groupId: group, maxWaitTimeInMs: 100 });
  await consumer.connect();
  const got = [];
  await consumer.subscribe({ topic: topicIn, fromBeginning: true });
  await consumer.run({ eachMessage: async ({ message }) => void got.push(message.value?.toString()) });
  const end = Date.now() + 20_000;
  while (got.length < 2 && Date.now() < end) await new Promise((r) => setTimeout(r, 100));
  await consumer.disconnect();
  if (got.length !== 2) throw new Error(`consumed ${got.length} of 2`);
  return got.join(',');
});
await step('OffsetFetch (admin.fetchOffsets)', async () => {
  const r = await admin.fetchOffsets({ groupId: group, topics: [topicIn] });
  const p0 = r[0].partitions.find((p) => p.partition === 0);
  if (p0.offset !== '2') throw new Error(`committed offset ${p0.offset}, expected 2`);
  return JSON.stringify(r[0].partitions);
});
const txGroup = `probe-txgroup-${id}`;
await step('Transaction commit + sendOffsets (AddPartitionsToTxn, AddOffsetsToTxn, TxnOffsetCommit, EndTxn)', async () => {
  const tp = kafka.producer({ transactionalId: `probe-tx-${id}`, idempotent: true, maxInFlightRequests: 1 });
  await tp.connect();
  try {
    const tx = await tp.transaction();
    await tx.send({ topic: topicOut, messages: [{ key: 'k', value: 'committed-1', partition: 0 }] });
    await tx.sendOffsets({ consumerGroupId: txGroup, topics: [{ topic: topicIn, partitions: [{ partition: 0, offset: '2' }] }] });
    await tx.commit();
  } finally {
    await tp.disconnect();
  }
});
await step('read_committed sees the committed transaction', async () => {
  const got = await readTopic(topicOut, 'read_committed', 1);
  if (!got.includes('committed-1')) throw new Error(`got ${JSON.stringify(got)}`);
  return got.join(',');
});
await step('committed transactional offsets visible (OffsetFetch)', async () => {
  const r = await admin.fetchOffsets({ groupId: txGroup, topics: [topicIn] });
  const p0 = r[0].partitions.find((p) => p.partition === 0);
  if (p0.offset !== '2') throw new Error(`offset ${p0.offset}`);
});
await step('Transaction abort', async () => {
  const tp = kafka.producer({ transactionalId: `probe-tx2-${id}`, idempotent: true, maxInFlightRequests: 1 });
  await tp.connect();
  try {
    const tx = await tp.transaction();
    await tx.send({ topic: topicOut, messages: [{ key: 'k', value: 'aborted-1', partition: 1 }] });
    await tx.sendOffsets({ consumerGroupId: `${txGroup}-abort`, topics: [{ topic: topicIn, partitions: [{ partition: 0, offset: '1' }] }] });
    await tx.abort();
  } finally {
    await tp.disconnect();
  }
});
await step('read_committed hides aborted, read_uncommitted shows it', async () => {
  const rc = await readTopic(topicOut, 'read_committed', 2, 3000);
  const ru = await readTopic(topicOut, 'read_uncommitted', 2);
  if (rc.includes('aborted-1')) throw new Error(`read_committed saw aborted: ${rc}`);
  if (!ru.includes('aborted-1')) throw new Error(`read_uncommitted missed aborted: ${ru}`);
  return `rc=${rc} ru=${ru}`;
});
await step('DeleteTopics', async () => { await admin.deleteTopics({ topics: [topicIn, topicOut] }); });
await producer.disconnect().catch(() => {});
await admin.disconnect().catch(() => {});
console.log(`${results.filter(Boolean).length} passed, ${results.filter((r) => !r).length} failed`);
process.exitCode = results.every(Boolean) ? 0 : 1;
