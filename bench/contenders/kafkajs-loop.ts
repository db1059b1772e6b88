/**
 * Contender "plain kafkajs loop": a consume-transform-produce loop written the
 * way kafkajs documents exactly-once (https://kafka.js.org/docs/transactions):
 * a read_committed consumer with eachBatch, a transactional idempotent producer,
 * one transaction per batch carrying the batch's output and its offsets
 * (sendOffsets), commit, then resolve the offset.
 * Usage: node --import tsx bench/contenders/kafkajs-loop.ts --brokers B --group G --input I --output O
 */
import kafkajs from 'kafkajs';
import type { Message } from 'kafkajs';
import { transform } from '../lib/workload.js';
import { contenderArgs, emit, markFirst, onStop } from './common.js';

const { Kafka, logLevel, Partitioners } = kafkajs;

async function main(): Promise<void> {
  const args = contenderArgs();
  const kafka = new Kafka({ clientId: `${args.group}-client`, brokers: args.brokers, logLevel: logLevel.ERROR });
  const producer = kafka.producer({
    transactionalId: `${args.group}-txn`,
    idempotent: true,
    maxInFlightRequests: 1,
    createPartitioner: Partitioners.DefaultPartitioner,
  });
  // maxWaitTimeInMs 500 as sluice's consumer uses (kafkajs' default 5000 only delays an empty fetch, and a disconnect).
  const consumer = kafka.consumer({ groupId: args.group, readUncommitted: false, maxWaitTimeInMs: 500 });
  // The run is complete (every offset committed) when the runner stops us; a
  // disconnect waits for the consumer's long poll (maxWaitTimeInMs 5 s), so it is bounded.
  let commits = 0;
  onStop(async () => {
    emit('metrics', { metrics: { commits } });
    await consumer.disconnect();
    await producer.disconnect();
  }, 5000);
  await producer.connect();
  await consumer.connect();
  await consumer.subscribe({ topics: [args.input], fromBeginning: true });
  await consumer.run({
    autoCommit: false,
    eachBatchAutoResolve: false,
    eachBatch: async ({ batch, resolveOffset, heartbeat, isRunning, isStale }) => {
      if (batch.messages.length === 0 || !isRunning() || isStale()) return;
      markFirst();
      const messages: Message[] = [];
      for (const m of batch.messages) {
        const out = m.value ? transform(m.value.toString('utf8')) : null;
        if (out !== null) messages.push({ key: m.key, value: out });
      }
      const next = String(Number(batch.lastOffset()) + 1);
      const transaction = await producer.transaction();
      try {
        if (messages.length > 0) await transaction.send({ topic: args.output, messages });
        await transaction.sendOffsets({
          consumerGroupId: args.group,
          topics: [{ topic: batch.topic, partitions: [{ partition: batch.partition, offset: next }] }],
        });
        await transaction.commit();
        commits++;
      } catch (err) {
        await transaction.abort();
        throw err;
      }
      resolveOffset(batch.lastOffset());
      await heartbeat();
    },
  });
  emit('running');
}

main().catch((err: unknown) => {
  emit('error', { message: String(err) });
  process.exit(1);
});
