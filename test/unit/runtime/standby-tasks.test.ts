/**
 * Standby tasks (`src/runtime/internal/standby-tasks.ts`, `standby-task.ts`)
 * against a scripted partition reader: they follow their changelogs
 * read_committed from the stores' checkpoints, report live offset sums, stop
 * source changelogs at the group's committed offset, close (writing the task
 * checkpoint file) when their task becomes active here, and re-create a copy
 * whose position fell out of range.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import type { PartitionReaderPort, TopicPartition } from '../../../src/cluster/port.js';
import { KafkaErrorCode, KafkaProtocolError } from '../../../src/errors.js';
import type { ChangelogRecord, ManagedStateStore, StoreInitContext } from '../../../src/state/store-contract.js';
import type { TopologyRuntime } from '../../../src/processors/task-contract.js';
import { resolveConfig } from '../../../src/runtime/config.js';
import { StandbyTasks } from '../../../src/runtime/internal/standby-tasks.js';
import { ChangelogReader } from '../../../src/runtime/internal/changelog-reader.js';
import { taskOffsetSum } from '../../../src/runtime/internal/task-checkpoint.js';
import { waitFor } from '../../helpers/index.js';

const dirs: string[] = [];
const running: StandbyTasks[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.closeAll()));
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

interface FakeStore extends ManagedStateStore {
  restored: ChangelogRecord[];
  context: StoreInitContext | undefined;
  closed: number;
}

function fakeStore(name: string, checkpoint: number | undefined): FakeStore {
  const store: FakeStore = {
    name, persistent: true, loggingEnabled: true, changelogConfig: {}, restored: [], context: undefined, closed: 0,
    init: (c) => void (store.context = c),
    checkpoint: () => checkpoint,
    restoreBatch: (records) => void store.restored.push(...records),
    flush: () => undefined,
    commit: () => undefined,
    close: () => void store.closed++,
    isOpen: () => true,
  };
  return store;
}

/** A changelog of `length` data records per partition, the last followed by a commit marker (nextOffset = length + 1). */
function scriptedReader(length: number, outOfRangeOnce?: { from: number }): PartitionReaderPort & { fetches: Array<{ tp: TopicPartition; offset: number }> } {
  const fetches: Array<{ tp: TopicPartition; offset: number }> = [];
  let failed = false;
  return {
    fetches,
    endOffsets: async () => [length + 1, length + 1],
    fetch: async (tp, offset) => {
      fetches.push({ tp, offset });
      if (outOfRangeOnce && !failed && offset >= outOfRangeOnce.from) {
        failed = true;
        throw new KafkaProtocolError(KafkaErrorCode.OFFSET_OUT_OF_RANGE);
      }
      const records = Array.from({ length: Math.max(0, length - offset) }, (_, i) => ({ topic: tp.topic, partition: tp.partition, offset: offset + i, key: Buffer.from(`k${offset + i}`), value: Buffer.from('v'), timestamp: 0, headers: {} }));
      return { records, nextOffset: Math.max(offset, length + 1), endOffset: length + 1 };
    },
    close: async () => undefined,
  };
}

function topology(stores: Map<string, FakeStore[]>, checkpoint: number | undefined, sourceChangelogs = new Map<string, string>()): TopologyRuntime {
  return {
    subtopologies: [{ id: 0, sourceTopics: ['in'] }],
    sourceChangelogs: () => sourceChangelogs,
    createTask: (taskId: { subtopology: number; partition: number }) => {
      const store = fakeStore(sourceChangelogs.size > 0 ? 'table' : 'counts', checkpoint);
      const id = `${taskId.subtopology}_${taskId.partition}`;
      stores.set(id, [...(stores.get(id) ?? []), store]);
      return { stores: [store] };
    },
  } as unknown as TopologyRuntime;
}

function standbys(o: { reader: PartitionReaderPort; checkpoint?: number; sourceChangelogs?: Map<string, string>; committed?: number; activeStarting?: () => boolean }) {
  const dir = mkdtempSync(join(tmpdir(), 'sluice-standby-unit-'));
  dirs.push(dir);
  const stores = new Map<string, FakeStore[]>();
  const config = resolveConfig({ applicationId: 'app', bootstrapServers: 'localhost:9092' });
  const tasks = new StandbyTasks({
    topology: topology(stores, o.checkpoint, o.sourceChangelogs), config,
    directories: { lockTask: (id) => { const d = join(dir, id); rmSync(d, { force: true, recursive: true }); mkdirSync(d, { recursive: true }); return d; }, unlockTask: () => undefined },
    changelogs: new ChangelogReader(() => o.reader, pino({ level: 'silent' })), cache: undefined,
    committed: async (tps) => tps.map((tp) => ({ ...tp, offset: o.committed ?? -1 })),
    logger: pino({ level: 'silent' }),
    ...(o.activeStarting ? { activeTasksStarting: o.activeStarting } : {}),
  });
  running.push(tasks);
  return { tasks, stores, dir };
}


describe('standby tasks', () => {
  it('follow the changelog from the checkpoint to its end (markers included) and report live offset sums', async () => {
    const reader = scriptedReader(10);
    const { tasks, stores } = standbys({ reader, checkpoint: 4 });
    tasks.update(['0_0', '0_1'], new Set());
    await waitFor(() => tasks.offsetSums().get('0_0') === 11 && tasks.offsetSums().get('0_1') === 11, { timeoutMs: 5_000, message: 'standbys at the changelog end' });
    const store = stores.get('0_0')?.[0];
    expect(store?.restored.map((r) => r.offset)).toEqual([4, 5, 6, 7, 8, 9]);
    // the sink the store keeps once promoted: while a standby, a write is refused (a standby never writes)
    expect(() => store?.context?.changelog?.send('counts', Buffer.from('k'), null, 0)).toThrow(/standby task does not process records/);
    expect(store?.context?.recordContext()).toEqual({ timestamp: 0, headers: {} });
    expect(store?.context?.cache).toBeUndefined();
    expect(tasks.appliedRecords().get('0_1')).toBe(6);
    expect(reader.fetches.some((f) => f.tp.topic === 'app-counts-changelog' && f.tp.partition === 1)).toBe(true);
    expect(tasks.storesNamed('counts').map((s) => s.taskId).sort()).toEqual(['0_0', '0_1']);
  });

  it('close when their task becomes active here, writing the task checkpoint file the assignor reads', async () => {
    const { tasks, stores, dir } = standbys({ reader: scriptedReader(10) });
    tasks.update(['0_0'], new Set());
    await waitFor(() => tasks.offsetSums().get('0_0') === 11, { timeoutMs: 5_000, message: 'standby at the end' });
    tasks.update(['0_0'], new Set(['0_0']));
    expect(tasks.ids).toEqual([]);
    expect(stores.get('0_0')?.[0]?.closed).toBeGreaterThan(0);
    expect(taskOffsetSum(join(dir, '0_0'))).toBe(11);
    tasks.update(['0_0'], new Set(['0_0']));
    expect(tasks.ids).toEqual([]); // never opened while the task is active here
  });

  it('read a source changelog only below the group committed offset', async () => {
    const reader = scriptedReader(10);
    const { tasks, stores } = standbys({ reader, sourceChangelogs: new Map([['table', 'in']]), committed: 7 });
    tasks.update(['0_0'], new Set());
    await waitFor(() => tasks.offsetSums().get('0_0') === 7, { timeoutMs: 5_000, message: 'standby at the committed offset' });
    await new Promise((r) => setTimeout(r, 300));
    expect(stores.get('0_0')?.[0]?.restored.map((r) => r.offset)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(reader.fetches.every((f) => f.tp.topic === 'in')).toBe(true);
  });

  it('wipe and re-create a copy whose position is out of range, reading it again from 0', async () => {
    const reader = scriptedReader(10, { from: 3 });
    const { tasks, stores } = standbys({ reader, checkpoint: undefined });
    tasks.update(['0_0'], new Set());
    await waitFor(() => (stores.get('0_0')?.length ?? 0) === 2 && tasks.offsetSums().get('0_0') === 11, { timeoutMs: 5_000, message: 're-created standby at the end' });
    expect(stores.get('0_0')?.[0]?.closed).toBeGreaterThan(0);
    expect(stores.get('0_0')?.[1]?.restored.map((r) => r.offset)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it('no longer assigned: closed; closeAll stops the updater', async () => {
    const reader = scriptedReader(3);
    const { tasks, stores } = standbys({ reader });
    tasks.update(['0_0', '0_1'], new Set());
    tasks.update(['0_1'], new Set());
    expect(tasks.ids).toEqual(['0_1']);
    expect(stores.get('0_0')?.[0]?.closed).toBe(1);
    await tasks.closeAll();
    const before = reader.fetches.length;
    await new Promise((r) => setTimeout(r, 250));
    expect(reader.fetches.length).toBe(before);
    expect(tasks.ids).toEqual([]);
  });

  it('wait while an active task of the instance starts or restores, then catch up', async () => {
    const reader = scriptedReader(10);
    let starting = true;
    const { tasks } = standbys({ reader, activeStarting: () => starting });
    tasks.update(['0_0'], new Set());
    await new Promise((r) => setTimeout(r, 300));
    expect(reader.fetches).toEqual([]);
    starting = false;
    await waitFor(() => tasks.offsetSums().get('0_0') === 11, { timeoutMs: 5_000, message: 'standby caught up once no active task starts' });
  });
});
