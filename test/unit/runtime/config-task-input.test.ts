import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../src/runtime/config.js';
import { ConfigError } from '../../../src/errors.js';

const base = { applicationId: 'task-input-config', bootstrapServers: 'localhost:9092' };

describe('task-input config keys (max.task.idle.ms, buffered.records.per.partition)', () => {
  it("defaults as Kafka Streams: maxTaskIdleMs 0, bufferedRecordsPerPartition 1000", () => {
    const c = resolveConfig(base);
    expect([c.maxTaskIdleMs, c.bufferedRecordsPerPartition]).toEqual([0, 1000]);
  });

  it('takes -1 (never wait) and other values', () => {
    const c = resolveConfig({ ...base, maxTaskIdleMs: -1, bufferedRecordsPerPartition: 5 });
    expect([c.maxTaskIdleMs, c.bufferedRecordsPerPartition]).toEqual([-1, 5]);
    expect(resolveConfig({ ...base, maxTaskIdleMs: 250 }).maxTaskIdleMs).toBe(250);
  });

  it.each([
    [{ maxTaskIdleMs: -2 }, /'maxTaskIdleMs' must be a whole number >= -1/],
    [{ maxTaskIdleMs: 1.5 }, /'maxTaskIdleMs'/],
    [{ maxTaskIdleMs: '100' }, /'maxTaskIdleMs'/],
    [{ bufferedRecordsPerPartition: 0 }, /'bufferedRecordsPerPartition' must be a whole number >= 1/],
  ])('rejects %o naming the key', (extra, message) => {
    expect(() => resolveConfig({ ...base, ...extra } as never)).toThrow(ConfigError);
    expect(() => resolveConfig({ ...base, ...extra } as never)).toThrow(message);
  });

  it('asyncCallTimeoutMs: default 30000; a value that is no whole number of ms >= 1 is a ConfigError naming the key', () => {
    expect(resolveConfig(base).asyncCallTimeoutMs).toBe(30_000);
    expect(resolveConfig({ ...base, asyncCallTimeoutMs: 500 }).asyncCallTimeoutMs).toBe(500);
    expect(() => resolveConfig({ ...base, asyncCallTimeoutMs: 0 })).toThrow(/'asyncCallTimeoutMs'/);
    expect(() => resolveConfig({ ...base, asyncCallTimeoutMs: 2.5 })).toThrow(ConfigError);
  });
});
