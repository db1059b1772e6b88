import fc from 'fast-check';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { sluiceKafkaJs } from '../../../src/cluster/kafkajs/internal/patches.js';
import { groupMessagesPerPartition } from '../../../src/cluster/kafkajs/internal/linear-grouping.js';

type Group = typeof groupMessagesPerPartition;
const original = createRequire(import.meta.url)('kafkajs/src/producer/groupMessagesPerPartition.js') as Group;

describe('linear groupMessagesPerPartition', () => {
  it('groups exactly as kafkajs does (same partitions, same order), in one pass', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ partition: fc.integer({ min: 0, max: 5 }), n: fc.nat() })), fc.boolean(), (messages, noMetadata) => {
        const args = { topic: 't', partitionMetadata: noMetadata ? [] : [{}, {}], messages, partitioner: ({ message }: { message: unknown }) => (message as { partition: number }).partition };
        expect(groupMessagesPerPartition(args)).toEqual(original(args));
      }),
    );
  });

  it("is the module sluice's private kafkajs copy uses", () => {
    const { internals } = sluiceKafkaJs();
    expect(internals.load('producer/groupMessagesPerPartition.js')).toBe(groupMessagesPerPartition);
  });
});
