/**
 * Baseline contract of the real broker through kafkajs 2.2.4: what sluice's
 * kafkajs adapter relies on (produce/consume with a group, transactions with
 * sendOffsets, read_committed vs read_uncommitted). If one of these fails on a
 * new Kafka version, see README "Kafka compatibility".
 */
import { expect, it } from 'vitest';
import {
  createTopic,
  describeKafka,
  readAll,
  uniqueGroup,
  uniqueName,
  uniqueTopic,
  useKafkaClients,
  waitFor,
  type ReadRecord,
} from '../helpers/index.js';

const values = (records: ReadRecord[]) => records.map((r) => r.value?.toString());

describeKafka('kafka baseline (kafkajs on a real broker)', (brokers) => {
  const clients = useKafkaClients(() => brokers);

  async function committedOffsets(groupId: string, topic: string): Promise<Record<number, string>> {
    const admin = clients().admin();
    await admin.connect();
    const [result] = await admin.fetchOffsets({ groupId, topics: [topic] });
    return Object.fromEntries(result!.partitions.map((p) => [p.partition, p.offset]));
  }

  async function transactionalProducer() {
    const producer = clients().producer({ transactionalId: uniqueName('baseline-tx'), idempotent: true, maxInFlightRequests: 1 });
    await producer.connect();
    return producer;
  }

  it('produces and consumes through a consumer group that commits its offsets', async () => {
    const topic = await createTopic(brokers, uniqueTopic('baseline-pc'), { partitions: 2 });
    const producer = clients().producer({ idempotent: true, maxInFlightRequests: 1 });
    await producer.connect();
    await producer.send({ topic, messages: [{ key: 'a', value: 'one', partition: 0 }, { key: 'c', value: 'three', partition: 0 }] });
    await producer.send({ topic, messages: [{ key: 'b', value: 'two', partition: 1, headers: { h: 'x' } }] });

    const groupId = uniqueGroup('baseline-pc');
    const consumer = clients().consumer({ groupId });
    await consumer.connect();
    await consumer.subscribe({ topics: [topic], fromBeginning: true });
    const seen: string[] = [];
    await consumer.run({ eachMessage: async ({ message }) => void seen.push(message.value!.toString()) });
    await waitFor(() => seen.length >= 3, { message: 'three consumed records' });
    expect(seen.sort()).toEqual(['one', 'three', 'two']);
    await waitFor(async () => {
      const offsets = await committedOffsets(groupId, topic);
      return offsets[0] === '2' && offsets[1] === '1';
    }, { message: 'auto-committed offsets 2 and 1' });

    const all = await readAll(brokers, topic, { isolation: 'read_uncommitted' });
    expect(all.map((r) => [r.partition, r.offset, r.key?.toString(), r.value?.toString()])).toEqual([
      [0, 0, 'a', 'one'],
      [0, 1, 'c', 'three'],
      [1, 0, 'b', 'two'],
    ]);
    expect(all[2]!.headers.h?.toString()).toBe('x');
  });

  it('commits a transaction with sendOffsets: output and input offsets become visible together', async () => {
    const input = await createTopic(brokers, uniqueTopic('baseline-tx-in'));
    const output = await createTopic(brokers, uniqueTopic('baseline-tx-out'), { partitions: 2 });
    const groupId = uniqueGroup('baseline-tx');
    const plain = clients().producer();
    await plain.connect();
    await plain.send({ topic: input, messages: [{ value: 'i0' }, { value: 'i1' }, { value: 'i2' }] });

    const producer = await transactionalProducer();
    const tx = await producer.transaction();
    await tx.send({ topic: output, messages: [{ key: 'k', value: 'o0', partition: 0 }] });
    await tx.send({ topic: output, messages: [{ key: 'k', value: 'o1', partition: 1 }] });
    await tx.sendOffsets({ consumerGroupId: groupId, topics: [{ topic: input, partitions: [{ partition: 0, offset: '3' }] }] });

    // Open transaction: invisible to read_committed, visible to read_uncommitted, offsets not committed.
    expect(await readAll(brokers, output, { isolation: 'read_committed' })).toEqual([]);
    expect(values(await readAll(brokers, output, { isolation: 'read_uncommitted' }))).toEqual(['o0', 'o1']);
    expect((await committedOffsets(groupId, input))[0]).toBe('-1');

    await tx.commit();
    // EndTxn returns before the commit markers are written: the last stable offset catches up shortly after.
    const visible = await waitFor(async () => {
      const records = await readAll(brokers, output, { isolation: 'read_committed' });
      return records.length === 2 && records;
    }, { message: 'two committed output records' });
    expect(values(visible)).toEqual(['o0', 'o1']);
    await waitFor(async () => (await committedOffsets(groupId, input))[0] === '3', { message: 'committed input offset 3' });
  });

  it('aborts a transaction: invisible to read_committed, visible to read_uncommitted, offsets not committed', async () => {
    const input = await createTopic(brokers, uniqueTopic('baseline-abort-in'));
    const output = await createTopic(brokers, uniqueTopic('baseline-abort-out'));
    const groupId = uniqueGroup('baseline-abort');
    const producer = await transactionalProducer();

    const aborted = await producer.transaction();
    await aborted.send({ topic: output, messages: [{ value: 'aborted-1' }, { value: 'aborted-2' }] });
    await aborted.sendOffsets({ consumerGroupId: groupId, topics: [{ topic: input, partitions: [{ partition: 0, offset: '5' }] }] });
    await aborted.abort();

    const committed = await producer.transaction();
    await committed.send({ topic: output, messages: [{ value: 'committed-1' }] });
    await committed.commit();

    const visible = await waitFor(async () => {
      const records = await readAll(brokers, output, { isolation: 'read_committed' });
      return records.length > 0 && records;
    }, { message: 'the committed record' });
    expect(values(visible)).toEqual(['committed-1']);
    const uncommitted = await readAll(brokers, output, { isolation: 'read_uncommitted' });
    expect(values(uncommitted)).toEqual(['aborted-1', 'aborted-2', 'committed-1']);
    // Offsets 0-1 aborted data, 2 abort marker, 3 committed record, 4 commit marker.
    expect(uncommitted.map((r) => r.offset)).toEqual([0, 1, 3]);
    expect((await committedOffsets(groupId, input))[0]).toBe('-1');
  });
});
