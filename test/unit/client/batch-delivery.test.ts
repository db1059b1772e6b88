import { describe, expect, it, vi } from 'vitest';
import { PartitionSerializer, startHeartbeats, toConsumedRecord } from '../../../src/cluster/kafkajs/internal/batch-delivery.js';


describe('PartitionSerializer', () => {
  it('never overlaps tasks of one key, runs different keys concurrently, survives a failing task', async () => {
    const s = new PartitionSerializer();
    const log: string[] = [];
    let release!: () => void;
    const blocked = new Promise<void>((r) => (release = r));
    const a1 = s.run('a', async () => {
      log.push('a1-start');
      await blocked;
      log.push('a1-end');
      throw new Error('a1 failed');
    });
    const a2 = s.run('a', async () => void log.push('a2'));
    const b1 = s.run('b', async () => void log.push('b1'));
    await b1;
    expect(log).toEqual(['a1-start', 'b1']);
    const idle = s.idle('a');
    release();
    await expect(a1).rejects.toThrow('a1 failed');
    await a2;
    await idle;
    expect(log).toEqual(['a1-start', 'b1', 'a1-end', 'a2']);
  });
});

describe('startHeartbeats', () => {
  it('beats every interval until stopped, ignoring failures', async () => {
    // fake timers: the count must not depend on how busy the machine is
    vi.useFakeTimers();
    try {
      let beats = 0;
      const stop = startHeartbeats(async () => {
        beats += 1;
        throw new Error('REBALANCE_IN_PROGRESS');
      }, 10);
      await vi.advanceTimersByTimeAsync(55);
      stop();
      expect(beats).toBe(5);
      await vi.advanceTimersByTimeAsync(30);
      expect(beats).toBe(5);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('toConsumedRecord', () => {
  it('converts offsets and timestamps to numbers and keeps the last value of a repeated header', () => {
    const record = toConsumedRecord('t', 2, {
      offset: '41',
      timestamp: '1700000000000',
      key: null,
      value: Buffer.from('v'),
      headers: { a: Buffer.from('1'), r: [Buffer.from('x'), Buffer.from('y')] },
      attributes: 0,
      size: 0,
    } as never);
    expect(record).toMatchObject({ topic: 't', partition: 2, offset: 41, timestamp: 1700000000000, key: null });
    expect(record.value?.toString()).toBe('v');
    expect(record.headers.r?.toString()).toBe('y');
    expect(record.headers.a?.toString()).toBe('1');
  });
});
