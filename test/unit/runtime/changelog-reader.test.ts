/**
 * The instance's one changelog reader (`src/runtime/internal/changelog-reader.ts`)
 * against a scripted partition reader: the port is opened lazily and once per
 * isolation level, closed once; `read` keeps records below `end`, drops keyless
 * ones when `keyed`, and moves past markers; `readTo` reads in batches to the
 * end, stops early when told, and stops at an idle partition.
 */
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import type { PartitionReaderPort, TopicPartition } from '../../../src/cluster/port.js';
import { ChangelogReader, type ChangelogIsolation } from '../../../src/runtime/internal/changelog-reader.js';

const TP: TopicPartition = { topic: 'app-counts-changelog', partition: 0 };

/** Data at offsets 0..length-1 (offset 3 keyless), a commit marker at `length`; each fetch returns at most `perFetch` records. */
function scripted(length: number, perFetch: number) {
  const fetches: number[] = [];
  let closed = 0;
  const port: PartitionReaderPort = {
    endOffsets: async () => [length + 1],
    fetch: async (_tp, offset) => {
      fetches.push(offset);
      const records = Array.from({ length: Math.max(0, Math.min(perFetch, length - offset)) }, (_, i) => ({
        topic: TP.topic, partition: 0, offset: offset + i, key: offset + i === 3 ? null : Buffer.from(`k${offset + i}`), value: Buffer.from('v'), timestamp: 0, headers: {},
      }));
      const last = records[records.length - 1];
      return { records, nextOffset: last === undefined ? Math.max(offset, length + 1) : last.offset + 1 === length ? length + 1 : last.offset + 1, endOffset: length + 1 };
    },
    close: async () => void closed++,
  };
  return { port, fetches, closed: () => closed };
}

function reader(port: PartitionReaderPort) {
  const opened: ChangelogIsolation[] = [];
  const changelogs = new ChangelogReader((isolation) => {
    opened.push(isolation);
    return port;
  }, pino({ level: 'silent' }));
  return { changelogs, opened };
}

describe('the changelog reader of an instance', () => {
  it('opens its read_committed port on first use, once; a second port only for read_uncommitted; closes each once', async () => {
    const s = scripted(10, 100);
    const { changelogs, opened } = reader(s.port);
    expect(opened).toEqual([]);
    await changelogs.read(TP, 0, { maxBytes: 1024, maxWaitMs: 0 });
    await changelogs.endOffsets(TP.topic);
    expect(opened).toEqual(['read_committed']);
    await changelogs.read(TP, 0, { maxBytes: 1024, maxWaitMs: 0, isolation: 'read_uncommitted' });
    expect(opened).toEqual(['read_committed', 'read_uncommitted']);
    await changelogs.close();
    await changelogs.close();
    expect(s.closed()).toBe(2);
    expect(changelogs.port()).toBeUndefined();
    await expect(changelogs.read(TP, 0, { maxBytes: 1024, maxWaitMs: 0 })).rejects.toMatchObject({ code: 'STATE_RESTORE_FAILED' });
  });

  it('read: records below end, keyless ones dropped when keyed, next capped at end; past the marker at the end', async () => {
    const { changelogs } = reader(scripted(10, 100).port);
    const bounded = await changelogs.read(TP, 2, { end: 6, keyed: true, maxBytes: 1024, maxWaitMs: 0 });
    expect(bounded.records.map((r) => r.offset)).toEqual([2, 4, 5]);
    expect(bounded.next).toBe(6);
    const all = await changelogs.read(TP, 8, { maxBytes: 1024, maxWaitMs: 0 });
    expect(all.records.map((r) => r.offset)).toEqual([8, 9]);
    expect(all.next).toBe(11);
    const nothing = await changelogs.read(TP, 11, { maxBytes: 1024, maxWaitMs: 0 });
    expect(nothing).toEqual({ records: [], next: 11, idle: true });
  });

  it('readTo: batch by batch to the end (the marker passed); stops early when the sink says so', async () => {
    const s = scripted(10, 3);
    const { changelogs } = reader(s.port);
    const batches: number[][] = [];
    const full = await changelogs.readTo(TP, 1, 11, { stopped: () => false, apply: (b) => void batches.push(b.records.map((r) => r.offset)) }, { maxBytes: 1024, maxWaitMs: 0 });
    expect(batches).toEqual([[1, 2, 3], [4, 5, 6], [7, 8, 9]]);
    expect(full).toEqual({ position: 11, count: 9 });
    let applied = 0;
    const early = await changelogs.readTo(TP, 0, 11, { stopped: () => applied >= 1, apply: () => void applied++ }, { maxBytes: 1024, maxWaitMs: 0 });
    expect(early).toEqual({ position: 0, count: 3 });
  });

  it('readTo: an end beyond what the partition holds stops at the idle partition instead of spinning', async () => {
    const s = scripted(4, 100);
    const { changelogs } = reader(s.port);
    const reached = await changelogs.readTo(TP, 0, 50, { stopped: () => false, apply: () => undefined }, { maxBytes: 1024, maxWaitMs: 0 });
    expect(reached).toEqual({ position: 5, count: 4 });
    expect(s.fetches).toEqual([0, 5]);
  });
});
