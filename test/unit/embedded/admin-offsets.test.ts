// The embedded admin's offset operations `sluice reset` uses, and Kafka's rule that deleting a topic
// deletes the groups' committed offsets of it (the embedded cluster kept them: a recreated internal
// topic was then read from the old offset, skipping its first records).
import { describe, expect, it } from 'vitest';
import { EmbeddedKafkaCluster } from '../../../src/cluster/embedded/embedded-cluster.js';

describe('embedded admin offsets', () => {
  it('deleting a topic forgets the committed offsets of it, not those of a topic whose name it prefixes', async () => {
    const cluster = new EmbeddedKafkaCluster();
    const admin = cluster.admin();
    await admin.createTopic('a', { partitions: 2 });
    await admin.createTopic('a-b', { partitions: 1 });
    await cluster.produce('a', [{ value: 'x', partition: 0 }, { value: 'y', partition: 1 }]);
    await cluster.produce('a-b', [{ value: 'z' }]);
    await admin.setCommittedOffsets!('g', 'a', new Map([[0, 1], [1, 1]]));
    await admin.setCommittedOffsets!('g', 'a-b', new Map([[0, 1]]));
    await admin.deleteTopic('a');
    await admin.createTopic('a', { partitions: 2 });
    expect(await admin.committedOffsets('g', 'a')).toEqual([-1, -1]);
    expect(await admin.committedOffsets('g', 'a-b')).toEqual([1]);
    await cluster.close();
  });

  it('offsetsForTime: the first offset at or after the timestamp, -1 past the last record', async () => {
    const cluster = new EmbeddedKafkaCluster();
    const admin = cluster.admin();
    await admin.createTopic('t', { partitions: 1 });
    await cluster.produce('t', [1000, 2000, 3000].map((timestamp) => ({ value: 'v', timestamp })));
    expect(await admin.offsetsForTime!('t', 0)).toEqual([0]);
    expect(await admin.offsetsForTime!('t', 1500)).toEqual([1]);
    expect(await admin.offsetsForTime!('t', 3000)).toEqual([2]);
    expect(await admin.offsetsForTime!('t', 3001)).toEqual([-1]);
    await cluster.close();
  });
});
