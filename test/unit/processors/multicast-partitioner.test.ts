/**
 * Multicast stream partitioners (KIP-837): a sink's partitioner may return an
 * array of partitions (the record goes to each), an empty one (the record is
 * dropped and counted in `droppedRecords`) or undefined (the default murmur2
 * partitioning). Ported from Kafka's RecordCollectorTest
 * shouldSendOnlyToEvenPartitions, shouldBroadcastToAllPartitions,
 * shouldDropAllRecords and shouldUseDefaultPartitionerAsPartitionReturnsEmptyOptional
 * (same 9 keys, 3 partitions, same counts), run through a whole exactly-once app
 * on the embedded cluster, so the runtime's collector does the sending.
 */
import { describe, expect, it } from 'vitest';
import { KafkaStreams, Serdes, Topology, type StreamPartitioner } from '../../../src/index.js';
import { EmbeddedKafkaCluster } from '../../../src/testing.js';

const S = Serdes.String();
const KEYS = ['3', '9', '27', '81', '243', '28', '82', '244', '245'];

async function run(partitioner: StreamPartitioner<string, string>) {
  const cluster = new EmbeddedKafkaCluster();
  await cluster.createTopic('in', { partitions: 1 });
  await cluster.createTopic('out', { partitions: 3 });
  await cluster.produce('in', KEYS.map((key) => ({ key, value: '0' })));
  const topology = new Topology()
    .addSource('src', 'in', { keySerde: S, valueSerde: S })
    .addSink('sink', 'out', { keySerde: S, valueSerde: S, partitioner }, 'src');
  const app = new KafkaStreams(topology, { applicationId: 'multicast', cluster, processingGuarantee: 'exactly_once' });
  try {
    await app.start();
    for (let i = 0; i < 400 && ((await cluster.committedOffsets('multicast', 'in'))[0] ?? -1) < KEYS.length; i++) await new Promise((r) => setTimeout(r, 25));
    const out = await cluster.readCommitted('out');
    const perPartition = [0, 1, 2].map((p) => out.filter((r) => r.partition === p).length);
    return { total: out.length, perPartition, dropped: app.metrics().droppedRecords };
  } finally {
    await app.close();
    await cluster.close();
  }
}

describe('multicast stream partitioners (KIP-837), RecordCollectorTest ported', () => {
  it('shouldSendOnlyToEvenPartitions: 9 records to partitions 0 and 2 of 3, 18 in all', async () => {
    const even: StreamPartitioner<string, string> = (_t, _k, _v, n) => Array.from({ length: Math.ceil(n / 2) }, (_, i) => i * 2);
    expect(await run(even)).toEqual({ total: 18, perPartition: [9, 0, 9], dropped: 0 });
  });

  it('shouldBroadcastToAllPartitions: 27 records, 9 per partition', async () => {
    const all: StreamPartitioner<string, string> = (_t, _k, _v, n) => Array.from({ length: n }, (_, i) => i);
    expect(await run(all)).toEqual({ total: 27, perPartition: [9, 9, 9], dropped: 0 });
  });

  it('shouldDropAllRecords: nothing sent, 9 dropped records', async () => {
    expect(await run(() => [])).toEqual({ total: 0, perPartition: [0, 0, 0], dropped: 9 });
  });

  it('shouldUseDefaultPartitionerAsPartitionReturnsEmptyOptional: undefined keeps murmur2 partitioning, one record each', async () => {
    const result = await run(() => undefined);
    expect(result.total).toBe(9);
    expect(result.dropped).toBe(0);
  });

  it('a partition out of range is a processing error naming the sink and the range', async () => {
    const cluster = new EmbeddedKafkaCluster();
    await cluster.createTopic('in', { partitions: 1 });
    await cluster.createTopic('out', { partitions: 3 });
    await cluster.produce('in', [{ key: 'k', value: 'v' }]);
    const topology = new Topology()
      .addSource('src', 'in', { keySerde: S, valueSerde: S })
      .addSink('sink', 'out', { keySerde: S, valueSerde: S, partitioner: () => [0, 3] }, 'src');
    const app = new KafkaStreams(topology, { applicationId: 'multicast-bad', cluster });
    try {
      await app.start();
      for (let i = 0; i < 400 && app.state !== 'ERROR'; i++) await new Promise((r) => setTimeout(r, 25));
      expect(app.state).toBe('ERROR');
      expect(String(app.error)).toContain("Sink 'sink': the stream partitioner chose partition 3 of topic 'out', which has partitions 0..2");
    } finally {
      await app.close();
      await cluster.close();
    }
  });
});
