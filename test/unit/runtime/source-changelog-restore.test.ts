/**
 * The state manager with a store whose changelog is its table source's topic
 * (`reuse.ktable.source.topics`): no changelog sink, restoration from the
 * source partition up to min(end, committed offset) skipping keyless
 * records (Kafka's StoreChangelogReader for source changelogs), and the
 * committed source offset as the store's checkpoint.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import type { PartitionReaderPort } from '../../../src/cluster/port.js';
import type { TaskRecordCollector } from '../../../src/eos/record-collector.js';
import type { ChangelogRecord, ManagedStateStore, StoreInitContext } from '../../../src/state/store-contract.js';
import { TaskStateManager, type StateRuntime } from '../../../src/runtime/internal/state-manager.js';
import type { RestoreProgress } from '../../../src/runtime/internal/restore-progress.js';
import { ChangelogReader } from '../../../src/runtime/internal/changelog-reader.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function fakeStore(name: string, checkpoint: number | undefined) {
  const restored: ChangelogRecord[] = [];
  const commits: Array<number | undefined> = [];
  let context: StoreInitContext | undefined;
  const store: ManagedStateStore = {
    name, persistent: true, loggingEnabled: true, changelogConfig: {},
    init: (c) => void (context = c),
    checkpoint: () => checkpoint,
    restoreBatch: (records) => void restored.push(...records),
    flush: () => undefined,
    commit: (offset) => void commits.push(offset),
    close: () => undefined,
    isOpen: () => true,
  };
  return { store, restored, commits, context: () => context };
}

/** Source topic 'prices' partition 0: offsets 0..9, offset 3 without key; end offset 10. */
const reader: PartitionReaderPort = {
  endOffsets: async () => [10],
  fetch: async (_tp: unknown, offset: number) => ({
    records: Array.from({ length: 10 - offset }, (_, i) => ({ offset: offset + i, key: offset + i === 3 ? null : Buffer.from(`k${offset + i}`), value: Buffer.from('v'), timestamp: 0, headers: {} })),
    nextOffset: 10,
    endOffset: 10,
  }),
} as unknown as PartitionReaderPort;

function manager(store: ManagedStateStore, committedOffset: number | undefined) {
  const dir = mkdtempSync(join(tmpdir(), 'sluice-srcchg-unit-'));
  dirs.push(dir);
  const progress = { start: () => undefined, batch: () => undefined, end: () => undefined } as unknown as RestoreProgress;
  const runtime: StateRuntime = { applicationId: 'app', directories: { lockTask: () => dir, unlockTask: () => undefined }, changelogs: new ChangelogReader(() => reader, pino({ level: 'silent' })), cache: undefined, progress };
  return new TaskStateManager({
    taskId: { subtopology: 0, partition: 0 }, id: '0_0', stores: [store],
    collector: { changelogNextOffset: () => undefined } as unknown as TaskRecordCollector,
    recordContext: () => ({ timestamp: 0, headers: {} }), runtime, logger: pino({ level: 'silent' }), exactlyOnce: true, stopped: () => false,
    sourceChangelogs: new Map([['prices-store', 'prices']]), committedOffset: (topic) => (topic === 'prices' ? committedOffset : undefined),
  });
}

describe('source-topic changelog restoration', () => {
  it('reads the source partition from the checkpoint to the committed offset, skipping keyless records; no changelog sink', async () => {
    const fake = fakeStore('prices-store', 2);
    await manager(fake.store, 7).initializeAndRestore();
    expect(fake.context()?.changelog).toBeUndefined();
    expect(fake.restored.map((r) => r.offset)).toEqual([2, 4, 5, 6]);
  });

  it('no committed offset: nothing is restored (the task reads the source from its reset position)', async () => {
    const fake = fakeStore('prices-store', undefined);
    await manager(fake.store, undefined).initializeAndRestore();
    expect(fake.restored).toEqual([]);
  });

  it('a checkpoint beyond the committed offset is TASK_CORRUPTED', async () => {
    const fake = fakeStore('prices-store', 9);
    await expect(manager(fake.store, 5).initializeAndRestore()).rejects.toMatchObject({ code: 'TASK_CORRUPTED' });
  });

  it('committed(): the checkpoint is the source offset this commit committed (none: unchanged)', async () => {
    const fake = fakeStore('prices-store', undefined);
    const m = manager(fake.store, 0);
    await m.initializeAndRestore();
    m.committed(new Map([['prices', 12]]));
    m.committed(new Map());
    expect(fake.commits).toEqual([12, undefined]);
  });
});
