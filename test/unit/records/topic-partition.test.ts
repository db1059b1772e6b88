import { describe, expect, it } from 'vitest';
import { parseTopicPartitionKey, topicPartitionKey } from '../../../src/records/topic-partition.js';

describe('topicPartitionKey', () => {
  it('prints <topic>-<partition>, as Kafka does, and ignores extra fields', () => {
    expect(topicPartitionKey({ topic: 'orders', partition: 3 })).toBe('orders-3');
    expect(topicPartitionKey({ topic: 'orders', partition: 3, offset: 9 } as { topic: string; partition: number })).toBe('orders-3');
  });

  it('is unambiguous for topics with dashes: the last dash separates', () => {
    const tps = [
      { topic: 'a-1', partition: 0 },
      { topic: 'a', partition: 10 },
      { topic: 'my-topic-3', partition: 12 },
    ];
    for (const tp of tps) expect(parseTopicPartitionKey(topicPartitionKey(tp))).toEqual(tp);
    expect(new Set(tps.map(topicPartitionKey)).size).toBe(tps.length);
  });

  it('refuses a string that is not a key', () => {
    expect(() => parseTopicPartitionKey('orders')).toThrow(/not a topic-partition key/);
    expect(() => parseTopicPartitionKey('orders-x')).toThrow(TypeError);
  });
});
