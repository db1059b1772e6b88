/**
 * The app builder (src/runtime/internal/app-builder.ts): the one place a
 * KafkaStreams app is put together from its resolved config.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ClusterPort, PartitionReaderPort } from '../../../src/cluster/port.js';
import { resolveConfig, type KafkaStreamsConfig } from '../../../src/runtime/config.js';
import { AppBuilder } from '../../../src/runtime/internal/app-builder.js';
import { clusterFor } from '../../../src/runtime/internal/app-cluster.js';
import { RestoreProgress } from '../../../src/runtime/internal/restore-progress.js';
import type { TaskManager } from '../../../src/runtime/internal/task-manager.js';
import { EmbeddedKafkaCluster } from './fixtures.js';
import { pino } from 'pino';

function builderFor(config: KafkaStreamsConfig): AppBuilder {
  return new AppBuilder(resolveConfig(config), {
    processId: 'p-1', progress: new RestoreProgress(pino({ level: 'silent' })), onFatal: () => undefined, onTaskFatal: () => undefined,
  });
}

afterEach(() => vi.useRealTimers());

describe('app builder', () => {
  it('connect(): the given cluster itself, else kafkajs on bootstrapServers', async () => {
    const cluster = new EmbeddedKafkaCluster({ tickIntervalMs: 0 });
    try {
      const parts = builderFor({ applicationId: 'b', cluster }).connect();
      expect(parts.cluster).toBe(cluster);
      await parts.admin.close();
    } finally {
      await cluster.close();
    }
    expect(clusterFor({ bootstrapServers: ['127.0.0.1:1'], clientId: 'b' }).kind).toBe('kafka');
  });

  it('is the runtime\'s one createKafkaCluster call site (the CLI may keep the public factory)', () => {
    const callers: string[] = [];
    const walk = (dir: string): void => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path);
        else if (path.endsWith('.ts') && /createKafkaCluster\(/.test(readFileSync(path, 'utf8').replace(/^\s*(\*|\/\/).*$/gm, '').replace(/(['"`]).*?\1/g, ''))) callers.push(path);
      }
    };
    walk(join('src', 'runtime'));
    expect(callers).toEqual([join('src', 'runtime', 'internal', 'app-cluster.ts')]);
  });

  it.each([
    [100, 50],
    [30_000, 100],
    [6, 5],
  ])('startTimers(): commitIntervalMs %i ticks the task manager every %i ms until stopped', (commitIntervalMs, every) => {
    vi.useFakeTimers();
    const tick = vi.fn();
    const stop = builderFor({ applicationId: 'b', bootstrapServers: '127.0.0.1:1', processingGuarantee: 'at_least_once', commitIntervalMs }).startTimers({ tick } as unknown as TaskManager);
    vi.advanceTimersByTime(every * 3);
    expect(tick).toHaveBeenCalledTimes(3);
    stop();
    vi.advanceTimersByTime(every * 10);
    expect(tick).toHaveBeenCalledTimes(3);
  });

  it('stateRuntime(): the one changelog reader, its port opened on first use, read_committed, <clientId>-changelog, closed by closeChangelogReader()', async () => {
    const close = vi.fn(async () => undefined);
    const reader = vi.fn(() => ({ close }) as unknown as PartitionReaderPort);
    const builder = builderFor({ applicationId: 'b', bootstrapServers: '127.0.0.1:1', clientId: 'worker', processingGuarantee: 'at_least_once', consumerConfig: { 'request.timeout.ms': 5000 } });
    const cluster = { reader } as unknown as ClusterPort;
    const runtime = builder.stateRuntime(cluster);
    expect(reader).not.toHaveBeenCalled();
    expect(runtime.changelogs).toBe(builder.changelogs(cluster));
    expect(runtime.changelogs.port()).toBe(runtime.changelogs.port());
    expect(reader).toHaveBeenCalledTimes(1);
    expect(reader).toHaveBeenCalledWith({ isolationLevel: 'read_committed', clientId: 'worker-changelog', connection: { requestTimeoutMs: 5000 } });
    await builder.closeChangelogReader();
    expect(close).toHaveBeenCalledTimes(1);
  });
});
