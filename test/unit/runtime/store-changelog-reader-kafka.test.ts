/**
 * Ported from Apache Kafka's `StoreChangelogReaderTest`
 * (streams/src/test/java/org/apache/kafka/streams/processor/internals/StoreChangelogReaderTest.java),
 * `shouldRestoreFromPositionAndCheckForCompletion`, for both task types
 * (ACTIVE: `TaskStateManager` restoration; STANDBY: the standby updater),
 * both going through the instance's changelog reader. Inputs and expected
 * outputs as Kafka's: the store is at offset 5, the changelog's end offset is
 * 10, the changelog holds records at 6, 7, 8 (null key: ignored), 9 and 11
 * (beyond the end: skipped by the active restoration even with the gap at 10).
 * ACTIVE restores 3 records and completes (restore start, batch and end
 * reported); STANDBY has no end and applies 4.
 * Also `shouldRestoreToLimitInStandbyState`: a standby of a store whose
 * changelog is its source topic, at offset 3, reads only below the group's
 * committed offset: 7 → 2 records restored (5, 6), 10 → 4 (7 and 9; 8 has no
 * key), 15 → 6 (10, 11), then records 12–15 arrive → 9 (15 is at the limit).
 * Kafka re-reads the committed offset every commit interval (100 ms in the
 * test); sluice's standbys every second, so the steps wait for it instead of
 * moving a mock clock.
 * One translation: Kafka's store metadata offset is the last offset restored
 * (5, so the consumer position is 6); sluice's store checkpoint is the next
 * offset to read, so the store answers 6 (and 4 for the offset 3).
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import type { PartitionReaderPort } from '../../../src/cluster/port.js';
import type { TaskRecordCollector } from '../../../src/eos/record-collector.js';
import type { TopologyRuntime } from '../../../src/processors/task-contract.js';
import { resolveConfig } from '../../../src/runtime/config.js';
import { ChangelogReader } from '../../../src/runtime/internal/changelog-reader.js';
import { RestoreProgress } from '../../../src/runtime/internal/restore-progress.js';
import { StandbyTasks } from '../../../src/runtime/internal/standby-tasks.js';
import { TaskStateManager } from '../../../src/runtime/internal/state-manager.js';
import type { ChangelogRecord, ManagedStateStore } from '../../../src/state/store-contract.js';
import { waitFor } from '../../helpers/index.js';

const silent = pino({ level: 'silent' });
const storeName = 'store1';
const topicName = 'app-store1-changelog';
const dirs: string[] = [];
const standbys: StandbyTasks[] = [];
afterEach(async () => {
  await Promise.all(standbys.splice(0).map((s) => s.closeAll()));
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** Kafka's MockConsumer with the test's records: 6, 7, 8 (null key), 9, 11; end offset 10. */
function consumer(): PartitionReaderPort {
  const offsets = [6, 7, 8, 9, 11];
  return {
    endOffsets: async () => [10],
    fetch: async (_tp, offset) => {
      const records = offsets
        .filter((o) => o >= offset)
        .map((o) => ({ topic: topicName, partition: 0, offset: o, key: o === 8 ? null : Buffer.from('key'), value: Buffer.from('value'), timestamp: 0, headers: {} }));
      return { records, nextOffset: Math.max(offset, 12), endOffset: 10 };
    },
    close: async () => undefined,
  };
}

function store(checkpoint = 6): ManagedStateStore & { restored: ChangelogRecord[] } {
  const s: ManagedStateStore & { restored: ChangelogRecord[] } = {
    name: storeName, persistent: true, loggingEnabled: true, changelogConfig: {}, restored: [],
    init: () => undefined,
    checkpoint: () => checkpoint,
    restoreBatch: (records) => void s.restored.push(...records),
    flush: () => undefined,
    commit: () => undefined,
    close: () => undefined,
    isOpen: () => true,
  };
  return s;
}

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'sluice-scr-kafka-'));
  dirs.push(dir);
  return dir;
}

describe("Kafka's StoreChangelogReaderTest through sluice's changelog reader", () => {
  it('shouldRestoreFromPositionAndCheckForCompletion (ACTIVE)', async () => {
    const s = store();
    const progress = new RestoreProgress(silent);
    const calls: string[] = [];
    progress.listener = {
      onRestoreStart: (t, name, start, end) => void calls.push(`start ${t.topic}-${t.partition} ${name} ${start} ${end}`),
      onBatchRestored: (_t, name, last, count) => void calls.push(`batch ${name} ${last} ${count}`),
      onRestoreEnd: (_t, name, total) => void calls.push(`end ${name} ${total}`),
    };
    const dir = tempDir();
    const manager = new TaskStateManager({
      taskId: { subtopology: 0, partition: 0 }, id: '0_0', stores: [s],
      collector: { changelogNextOffset: () => undefined, sendChangelog: () => undefined } as unknown as TaskRecordCollector,
      recordContext: () => ({ timestamp: 0, headers: {} }), logger: silent, exactlyOnce: true, stopped: () => false,
      runtime: { applicationId: 'app', directories: { lockTask: () => dir, unlockTask: () => undefined }, changelogs: new ChangelogReader(consumer, silent), cache: undefined, progress },
    });
    await manager.initializeAndRestore();
    // totalRestored 3: 6, 7, 9 (8 has no key, 11 is beyond the end offset 10)
    expect(s.restored.map((r) => r.offset)).toEqual([6, 7, 9]);
    expect(calls).toEqual([`start ${topicName}-0 ${storeName} 6 10`, `batch ${storeName} 9 3`, `end ${storeName} 3`]);
    expect(progress.metrics().restoredRecords).toBe(3);
  });

  it('shouldRestoreFromPositionAndCheckForCompletion (STANDBY)', async () => {
    const s = store();
    const dir = tempDir();
    const topology = { subtopologies: [{ id: 0, sourceTopics: ['in'] }], sourceChangelogs: () => new Map(), createTask: () => ({ stores: [s] }) } as unknown as TopologyRuntime;
    const tasks = new StandbyTasks({
      topology, config: resolveConfig({ applicationId: 'app', bootstrapServers: 'localhost:9092' }),
      directories: { lockTask: (id) => { const d = join(dir, id); mkdirSync(d, { recursive: true }); return d; }, unlockTask: () => undefined },
      changelogs: new ChangelogReader(consumer, silent), cache: undefined, committed: async () => [], logger: silent,
    });
    standbys.push(tasks);
    tasks.update(['0_0'], new Set());
    // totalRestored 4: 6, 7, 9, 11 (8 has no key; a standby has no end offset)
    await waitFor(() => tasks.appliedRecords().get('0_0') === 4, { timeoutMs: 5_000, message: 'the standby applied 4 records' });
    expect(s.restored.map((r) => r.offset)).toEqual([6, 7, 9, 11]);
    expect(tasks.offsetSums().get('0_0')).toBe(12);
  });

  it('shouldRestoreToLimitInStandbyState (a source topic as changelog: only below the committed offset)', { timeout: 20_000 }, async () => {
    const s = store(4);
    const dir = tempDir();
    const log = new Map<number, Buffer | null>([[5, Buffer.from('key')], [6, Buffer.from('key')], [7, Buffer.from('key')], [8, null], [9, Buffer.from('key')], [10, Buffer.from('key')], [11, Buffer.from('key')]]);
    const source: PartitionReaderPort = {
      endOffsets: async () => [Math.max(...log.keys()) + 1],
      fetch: async (_tp, offset) => {
        const records = [...log].filter(([o]) => o >= offset).map(([o, key]) => ({ topic: 'source', partition: 0, offset: o, key, value: Buffer.from('value'), timestamp: 0, headers: {} }));
        return { records, nextOffset: Math.max(offset, ...records.map((r) => r.offset + 1)), endOffset: Math.max(...log.keys()) + 1 };
      },
      close: async () => undefined,
    };
    let committed = 7;
    const topology = { subtopologies: [{ id: 0, sourceTopics: ['source'] }], sourceChangelogs: () => new Map([[storeName, 'source']]), createTask: () => ({ stores: [s] }) } as unknown as TopologyRuntime;
    const tasks = new StandbyTasks({
      topology, config: resolveConfig({ applicationId: 'app', bootstrapServers: 'localhost:9092' }),
      directories: { lockTask: (id) => { const d = join(dir, id); mkdirSync(d, { recursive: true }); return d; }, unlockTask: () => undefined },
      changelogs: new ChangelogReader(() => source, silent), cache: undefined, committed: async (tps) => tps.map((t) => ({ ...t, offset: committed })), logger: silent,
    });
    standbys.push(tasks);
    tasks.update(['0_0'], new Set());
    const restored = async (n: number) => {
      await waitFor(() => tasks.appliedRecords().get('0_0') === n, { timeoutMs: 5_000, message: `totalRestored ${n}` });
      return s.restored.map((r) => r.offset);
    };
    expect(await restored(2)).toEqual([5, 6]);
    committed = 10;
    expect(await restored(4)).toEqual([5, 6, 7, 9]);
    committed = 15;
    expect(await restored(6)).toEqual([5, 6, 7, 9, 10, 11]);
    for (const o of [12, 13, 14, 15]) log.set(o, Buffer.from('key'));
    expect(await restored(9)).toEqual([5, 6, 7, 9, 10, 11, 12, 13, 14]);
    await new Promise((r) => setTimeout(r, 300));
    expect(tasks.appliedRecords().get('0_0')).toBe(9);
    expect(tasks.offsetSums().get('0_0')).toBe(15);
  });
});
