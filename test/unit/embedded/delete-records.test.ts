/**
 * DeleteRecords on the embedded cluster (the log start offset), beyond the contract cases of
 * test/contract/internal-topic-settings.test.ts: a log purged to its end keeps its offsets, and a group
 * member whose committed offset fell below the log start resets per autoOffsetReset (as a Kafka consumer
 * does) instead of crashing.
 */
import { describe, expect, it } from 'vitest';
import { EmbeddedKafkaCluster } from '../../../src/cluster/embedded/embedded-cluster.js';
import type { ConsumedRecord } from '../../../src/cluster/port.js';
import { waitFor } from '../../helpers/index.js';

const records = (n: number, from = 0) => Array.from({ length: n }, (_, i) => ({ key: `k${from + i}`, value: `v${from + i}`, partition: 0 }));

describe('embedded DeleteRecords', () => {
  it('a log purged to its end keeps its offsets: the next record gets the old high watermark', async () => {
    const cluster = new EmbeddedKafkaCluster();
    await cluster.createTopic('t', { partitions: 1 });
    await cluster.produce('t', records(5));
    const admin = cluster.admin();
    await admin.deleteRecords!('t', new Map([[0, 5]]));
    expect([await admin.startOffsets!('t'), await cluster.endOffsets('t')]).toEqual([[5], [5]]);
    const [written] = await cluster.produce('t', records(1, 5));
    expect(written?.offset).toBe(5);
    expect((await cluster.readCommitted('t')).map((r) => r.offset)).toEqual([5]);
    await cluster.close();
  });

  it.each([
    ['earliest', ['k4', 'k5', 'k6']],
    ['latest', ['k7']],
  ] as const)('a committed offset below the log start: the member resets to %s', async (autoOffsetReset, expected) => {
    const cluster = new EmbeddedKafkaCluster();
    await cluster.createTopic('t', { partitions: 1 });
    await cluster.produce('t', records(7));
    const first = cluster.consumer({ groupId: 'g' });
    let assigned = false;
    await first.subscribe(['t']);
    await first.run({ onAssignment: async ({ assigned: tps }) => void (assigned ||= tps.length > 0), eachBatch: async () => undefined });
    await waitFor(() => assigned, { timeoutMs: 3_000, message: 'first member assigned' });
    await first.commitOffsets([{ topic: 't', partition: 0, offset: 2 }]);
    await first.close();
    expect(await cluster.committedOffsets('g', 't')).toEqual([2]);
    await cluster.admin().deleteRecords!('t', new Map([[0, 4]]));
    const seen: ConsumedRecord[] = [];
    const errors: Error[] = [];
    const consumer = cluster.consumer({ groupId: 'g', autoOffsetReset });
    await consumer.subscribe(['t']);
    await consumer.run({ onAssignment: async () => undefined, eachBatch: async (b) => void seen.push(...b.records), onError: (e) => void errors.push(e) });
    if (autoOffsetReset === 'latest') {
      await new Promise((r) => setTimeout(r, 100));
      await cluster.produce('t', records(1, 7));
    }
    await waitFor(() => seen.length === expected.length, { timeoutMs: 3_000, message: `${expected.length} records` });
    expect(seen.map((r) => r.key?.toString())).toEqual(expected);
    expect(errors).toEqual([]);
    await consumer.close();
    await cluster.close();
  });
});
