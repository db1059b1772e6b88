/**
 * The pure parts of `numStreamThreads`: one instance's metrics over its
 * threads, what of a config a worker thread can receive, and a thread's
 * identity riding on its config.
 */
import { describe, expect, it } from 'vitest';
import { aggregateMetrics, newTaskMetrics, type KafkaStreamsMetrics } from '../../../src/runtime/metrics.js';
import { identityOf, plainConfig, threadConfig } from '../../../src/runtime/internal/stream-thread-identity.js';
import { mergeThreadMetrics } from '../../../src/runtime/internal/thread-metrics.js';
import type { KafkaStreamsConfig } from '../../../src/runtime/config.js';
import { MessageChannel } from 'node:worker_threads';
import { consumerClientId, threadInstanceId } from '../../../src/runtime/internal/group-member.js';
import { ThreadStoreClient } from '../../../src/runtime/internal/thread-store-calls.js';
import { InvalidStateStoreError } from '../../../src/runtime/interactive-queries.js';

function threadMetrics(tasks: Record<string, { processed: number; owned: boolean }>, extra: Partial<KafkaStreamsMetrics> = {}): KafkaStreamsMetrics {
  const byId = new Map(Object.entries(tasks).map(([id, t]) => [id, { ...newTaskMetrics(), recordsProcessed: t.processed, commits: 1, lag: { [`in-${id}`]: 2 } }]));
  const owned = new Set(Object.entries(tasks).filter(([, t]) => t.owned).map(([id]) => id));
  return { ...aggregateMetrics(byId, owned, 1), ...extra };
}

describe('mergeThreadMetrics', () => {
  it('sums the counters of every thread and joins their tasks', () => {
    const merged = mergeThreadMetrics([threadMetrics({ '0_0': { processed: 5, owned: true } }), threadMetrics({ '0_1': { processed: 7, owned: true } })]);
    expect(merged.recordsProcessed).toBe(12);
    expect(merged.commits).toBe(2);
    expect(merged.rebalances).toBe(2);
    expect(merged.consumerLag).toBe(4);
    expect(Object.keys(merged.tasks).sort()).toEqual(['0_0', '0_1']);
  });

  it('a task that moved between two threads shows once, from the thread that owns it', () => {
    const merged = mergeThreadMetrics([threadMetrics({ '0_0': { processed: 3, owned: false } }), threadMetrics({ '0_0': { processed: 9, owned: true } })]);
    expect(merged.tasks['0_0']).toMatchObject({ recordsProcessed: 9, owned: true });
  });

  it('averages async-step latencies by calls and keeps the max', () => {
    const a = threadMetrics({}, { asyncProcessors: { enrich: { inFlight: 1, calls: 10, failed: 0, avgLatencyMs: 10, maxLatencyMs: 30, avgQueueMs: 1 } } });
    const b = threadMetrics({}, { asyncProcessors: { enrich: { inFlight: 2, calls: 30, failed: 1, avgLatencyMs: 20, maxLatencyMs: 50, avgQueueMs: 3 } } });
    expect(mergeThreadMetrics([a, b]).asyncProcessors?.enrich).toEqual({ inFlight: 3, calls: 40, failed: 1, avgLatencyMs: 17.5, maxLatencyMs: 50, avgQueueMs: 2.5 });
  });

  it('one thread: its metrics unchanged', () => {
    const only = threadMetrics({ '0_0': { processed: 1, owned: true } });
    expect(mergeThreadMetrics([only])).toBe(only);
  });
});

describe('plainConfig', () => {
  it('keeps strings, numbers, booleans, byte arrays and plain objects; leaves out functions and class instances, naming them', () => {
    const handler = { handle: () => 'CONTINUE' };
    class Serde {}
    const config = {
      applicationId: 'a', bootstrapServers: ['h:9092'], commitIntervalMs: 100, numStreamThreads: 2, streamThreadModule: new URL('file:///srv/app.js'),
      ssl: { ca: [Buffer.from('pem')], rejectUnauthorized: true }, topicConfig: { 'min.insync.replicas': '2' },
      productionExceptionHandler: handler, defaultKeySerde: new Serde(), sasl: { mechanism: 'oauthbearer', oauthBearerProvider: async () => ({ value: 't' }) },
    } as unknown as KafkaStreamsConfig;
    const { plain, dropped } = plainConfig(config);
    expect(Object.keys(plain).sort()).toEqual(['applicationId', 'bootstrapServers', 'commitIntervalMs', 'numStreamThreads', 'ssl', 'streamThreadModule', 'topicConfig']);
    expect(plain.streamThreadModule).toBe('file:///srv/app.js');
    expect(dropped.sort()).toEqual(['defaultKeySerde', 'productionExceptionHandler', 'sasl']);
    expect(() => structuredClone(plain)).not.toThrow();
  });
});

describe('thread identity', () => {
  it('rides on the thread config under a symbol: no config key, one thread', () => {
    const given = { applicationId: 'a', bootstrapServers: 'h:9092', numStreamThreads: 4 } as KafkaStreamsConfig;
    const config = threadConfig(given, { index: 3, processId: 'p-1' });
    expect(identityOf(config)).toEqual({ index: 3, processId: 'p-1' });
    expect(identityOf(given)).toBeUndefined();
    expect(config.numStreamThreads).toBe(1);
    expect(Object.keys(config).sort()).toEqual(['applicationId', 'bootstrapServers', 'numStreamThreads']);
  });
});

describe('ThreadStoreClient', () => {
  it('a worker thread that does not answer a store query in time: InvalidStateStoreError naming the thread and the bound, no hang', () => {
    const { port1, port2 } = new MessageChannel();
    try {
      const client = new ThreadStoreClient(port1, new SharedArrayBuffer(4), 3, 30);
      const started = Date.now();
      expect(() => client.stores('counts', false)).toThrow(InvalidStateStoreError);
      expect(() => client.stores('counts', false)).toThrow(/Stream thread 3 did not answer a store query within 30 ms/);
      expect(Date.now() - started).toBeLessThan(2000);
    } finally {
      port1.close();
      port2.close();
    }
  });
});

describe('client and member ids per stream thread', () => {
  it('thread 1 keeps the ids it always had; thread i >= 2 gets -StreamThread-<i> / -<i> (static members of one instance never fence each other)', () => {
    expect(consumerClientId('app', 1)).toBe('app-consumer');
    expect(consumerClientId('app', 3)).toBe('app-StreamThread-3-consumer');
    expect(threadInstanceId('orders-host-a', 1)).toBe('orders-host-a');
    expect(threadInstanceId('orders-host-a', 2)).toBe('orders-host-a-2');
  });
});
