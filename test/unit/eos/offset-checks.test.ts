/**
 * Issue 12 item 3, unit level: sendOffsetsToTransaction reads a topic's
 * partition count afresh before refusing a partition (partitions may have been
 * added since it was cached), and a refused call sends nothing.
 */
import { describe, expect, it } from 'vitest';
import { IllegalArgumentError } from '../../../src/errors.js';
import { TransactionalProducer } from '../../../src/runtime/transactional-producer.js';
import { FakeCluster } from './fake-cluster.js';

describe('sendOffsetsToTransaction checks', () => {
  it('a partition added after the count was cached is accepted; a refused call sends no offsets', async () => {
    const cluster = new FakeCluster();
    cluster.createTopic('in', 1);
    const p = new TransactionalProducer({ transactionalId: 'tx-off', cluster, retryBackoffMs: 1 });
    await p.initTransactions();
    p.beginTransaction();
    await p.sendOffsetsToTransaction([{ topic: 'in', partition: 0, offset: 1 }], 'g');
    await expect(p.sendOffsetsToTransaction([{ topic: 'in', partition: 2, offset: 5 }], 'g')).rejects.toBeInstanceOf(IllegalArgumentError);
    expect(cluster.offsets).toHaveLength(1);
    cluster.createTopic('in', 3); // the topic grew to 3 partitions
    await p.sendOffsetsToTransaction([{ topic: 'in', partition: 2, offset: 5 }], 'g');
    expect(cluster.offsets.map((o) => o.offsets)).toEqual([[{ topic: 'in', partition: 0, offset: 1 }], [{ topic: 'in', partition: 2, offset: 5 }]]);
    await p.commitTransaction();
    await p.close();
  });
});
