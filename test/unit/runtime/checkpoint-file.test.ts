/**
 * The checkpoint files `.checkpoint` (task folders, the global folder):
 * reading and writing as Kafka's `OffsetCheckpoint`. Ported from Kafka's
 * streams `OffsetCheckpointTest` (inputs and expectations unchanged, the
 * file format is sluice's JSON): testReadWrite, shouldNotWriteCheckpointWhenNoOffsets,
 * shouldDeleteExistingCheckpointWhenNoOffsets, shouldSkipInvalidOffsetsDuringRead,
 * shouldThrowOnInvalidOffsetInWrite, shouldThrowIOExceptionWhenWritingToNotExistedFile.
 * Not ported: shouldReadAndWriteSentinelOffset (sluice has no OFFSET_UNKNOWN sentinel).
 * Issue 28 item 2: a checkpoint that cannot be right is skipped with a WARN, never fatal.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { IllegalStateError } from '../../../src/errors.js';
import { readGlobalCheckpoint, writeGlobalCheckpoint } from '../../../src/runtime/internal/global-state-files.js';
import { removeTaskCheckpoint, taskOffsetSum } from '../../../src/runtime/internal/task-checkpoint.js';

const topic = 'topic';

function warnings(): { logger: pino.Logger; lines: string[] } {
  const lines: string[] = [];
  const logger = pino({ level: 'warn' }, { write: (l: string) => void lines.push((JSON.parse(l) as { msg: string }).msg) });
  return { logger, lines };
}

describe('OffsetCheckpoint (Kafka OffsetCheckpointTest, ported)', () => {
  const dirs: string[] = [];
  const temp = (): string => {
    const dir = mkdtempSync(join(tmpdir(), 'sluice-checkpoint-'));
    dirs.push(dir);
    return dir;
  };
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('testReadWrite', () => {
    const dir = temp();
    const offsets = new Map([
      [`${topic}-0`, 0],
      [`${topic}-1`, 1],
      [`${topic}-2`, 2],
    ]);
    writeGlobalCheckpoint(dir, offsets);
    expect(readGlobalCheckpoint(dir)).toEqual(offsets);
    removeTaskCheckpoint(dir);
    expect(existsSync(join(dir, '.checkpoint'))).toBe(false);
    offsets.set(`${topic}-3`, 3);
    writeGlobalCheckpoint(dir, offsets);
    expect(readGlobalCheckpoint(dir)).toEqual(offsets);
  });

  it('shouldNotWriteCheckpointWhenNoOffsets', () => {
    const dir = temp();
    writeGlobalCheckpoint(dir, new Map());
    expect(existsSync(join(dir, '.checkpoint'))).toBe(false);
    expect(readGlobalCheckpoint(dir)).toEqual(new Map());
    removeTaskCheckpoint(dir); // deleting a non-existing checkpoint file is fine
  });

  it('shouldDeleteExistingCheckpointWhenNoOffsets', () => {
    const dir = temp();
    const offsets = new Map([[`${topic}-0`, 1]]);
    writeGlobalCheckpoint(dir, offsets);
    expect(existsSync(join(dir, '.checkpoint'))).toBe(true);
    expect(readGlobalCheckpoint(dir)).toEqual(offsets);
    writeGlobalCheckpoint(dir, new Map());
    expect(existsSync(join(dir, '.checkpoint'))).toBe(false);
    expect(readGlobalCheckpoint(dir)).toEqual(new Map());
  });

  it('shouldSkipInvalidOffsetsDuringRead (with a WARN naming file, partition and offset)', () => {
    const dir = temp();
    writeFileSync(join(dir, '.checkpoint'), JSON.stringify({ [`${topic}-0`]: -1 }));
    const { logger, lines } = warnings();
    expect(readGlobalCheckpoint(dir, logger).size).toBe(0);
    expect(lines).toEqual([expect.stringMatching(/^checkpoint file .*\.checkpoint: offset -1 of topic-0 cannot be right: ignored; that partition restores from the start$/)]);
    expect(taskOffsetSum(dir)).toBeUndefined();
  });

  it('shouldThrowOnInvalidOffsetInWrite', () => {
    const dir = temp();
    const offsets = new Map([
      [`${topic}-0`, 0],
      [`${topic}-1`, -1], // invalid
      [`${topic}-2`, 2],
    ]);
    expect(() => writeGlobalCheckpoint(dir, offsets)).toThrow(IllegalStateError);
    expect(existsSync(join(dir, '.checkpoint'))).toBe(false);
  });

  it('shouldThrowIOExceptionWhenWritingToNotExistedFile', () => {
    expect(() => writeGlobalCheckpoint('/not_existed_dir', new Map([[`${topic}-0`, 0]]))).toThrow(/no such file or directory/);
  });
});

describe('checkpoint files that cannot be right (issue 28 item 2)', () => {
  it('non-numeric, fractional and unsafe offsets are skipped with a WARN each; the valid ones are kept', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sluice-checkpoint-'));
    try {
      writeFileSync(join(dir, '.checkpoint'), JSON.stringify({ 'a-0': 'abc', 'a-1': 1.5, 'a-2': 2 ** 60, 'a-3': 7, 'a-4': null }));
      const { logger, lines } = warnings();
      expect(readGlobalCheckpoint(dir, logger)).toEqual(new Map([['a-3', 7]]));
      expect(lines).toHaveLength(4);
      expect(lines[0]).toMatch(/offset "abc" of a-0 cannot be right/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a file that is not a checkpoint (not JSON, an array) is ignored as a whole with a WARN', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sluice-checkpoint-'));
    try {
      for (const content of ['garbage', '[1,2]', '42']) {
        writeFileSync(join(dir, '.checkpoint'), content);
        const { logger, lines } = warnings();
        expect(readGlobalCheckpoint(dir, logger)).toEqual(new Map());
        expect(lines).toEqual([expect.stringMatching(/is corrupt \(not a JSON object of offsets\): ignored; its stores restore from the start of their changelogs$/)]);
        expect(taskOffsetSum(dir)).toBeUndefined();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
