/**
 * The state directory (`src/runtime/internal/state-directory.ts`): task
 * folders, per-process locks (with a real second process holding one, and a
 * SIGKILLed holder whose lock is taken over at once) and the cleanup of
 * obsolete task folders. Cases ported from Kafka's `StateDirectoryTest` name
 * their Java method; inputs and expected outputs are Kafka's (task ids
 * `TaskId(0, 0)` are `0_0`; MockTime is the `now` option).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StreamsError, taskReactionTo } from '../../../src/errors.js';
import { lockGlobalDir, unlockGlobalDir } from '../../../src/runtime/internal/global-state-files.js';
import { DEFAULT_STATE_CLEANUP_DELAY_MS, LOCK_FILE_NAME, StateDirectory, defaultStateDir } from '../../../src/runtime/internal/state-directory.js';

const applicationId = 'applicationId';
let stateDir: string;
let time: number;
let directory: StateDirectory;
const children: ChildProcess[] = [];

const make = (options: Partial<ConstructorParameters<typeof StateDirectory>[0]> = {}) =>
  new StateDirectory({ applicationId, stateDir, now: () => time, ...options });
const appDir = () => join(stateDir, applicationId);
const lockError = (f: () => unknown): StreamsError => {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(StreamsError);
    return e as StreamsError;
  }
  throw new Error('expected a StreamsError');
};

/** A second node process that locks `taskDir` through the same module and reports its pid once it holds it. */
async function lockInChild(taskId: string, threadIndex = 1): Promise<ChildProcess> {
  const module = new URL('../../../src/runtime/internal/state-directory.ts', import.meta.url).pathname;
  const script = `
    const { StateDirectory } = await import(${JSON.stringify(module)});
    const d = new StateDirectory({ applicationId: ${JSON.stringify(applicationId)}, stateDir: ${JSON.stringify(stateDir)}, threadIndex: ${threadIndex} });
    d.lockTask(${JSON.stringify(taskId)});
    process.stdout.write('locked\\n');
    setInterval(() => {}, 1000);
  `;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  await new Promise<void>((resolve, reject) => {
    let err = '';
    child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    child.stdout!.on('data', (d: Buffer) => d.toString().includes('locked') && resolve());
    child.on('exit', (code) => reject(new Error(`child exited (${code}) before locking: ${err}`)));
  });
  return child;
}

const killed = (child: ChildProcess) => new Promise<void>((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.on('exit', () => resolve())));

beforeEach(() => {
  stateDir = join(mkdtempSync(join(tmpdir(), 'sluice-statedir-')), 'kafka-state');
  time = Date.now();
  directory = make();
});
afterEach(async () => {
  directory.close();
  for (const child of children.splice(0)) {
    child.kill('SIGKILL');
    await killed(child);
  }
  rmSync(join(stateDir, '..'), { recursive: true, force: true });
});

describe('StateDirectory: folders', () => {
  it('the default root is <os tmpdir>/sluice and the cleanup delay 10 minutes (state.cleanup.delay.ms)', () => {
    expect(defaultStateDir()).toBe(join(tmpdir(), 'sluice'));
    expect(new StateDirectory({ applicationId: 'x' }).appDir).toBe(join(tmpdir(), 'sluice', 'x'));
    expect(DEFAULT_STATE_CLEANUP_DELAY_MS).toBe(600_000);
  });

  // StateDirectoryTest.shouldCreateTaskStateDirectory
  it('shouldCreateTaskStateDirectory', () => {
    const taskDirectory = directory.getOrCreateDirectoryForTask({ subtopology: 0, partition: 0 });
    expect(taskDirectory).toBe(join(appDir(), '0_0'));
    expect(statSync(taskDirectory).isDirectory()).toBe(true);
  });

  // StateDirectoryTest.shouldCreateDirectoriesIfParentDoesntExist (the root is created lazily here, with its parents)
  it('shouldCreateDirectoriesIfParentDoesntExist', () => {
    const nested = join(stateDir, 'foo', 'state-dir');
    const d = new StateDirectory({ applicationId, stateDir: nested });
    const taskDir = d.getOrCreateDirectoryForTask('0_0');
    expect(existsSync(nested)).toBe(true);
    expect(existsSync(taskDir)).toBe(true);
  });

  // StateDirectoryTest.shouldHaveSecurePermissions
  it('shouldHaveSecurePermissions', () => {
    directory.getOrCreateDirectoryForTask('0_0');
    expect(statSync(stateDir).mode & 0o777).toBe(0o750);
    expect(statSync(appDir()).mode & 0o777).toBe(0o750);
  });

  // StateDirectoryTest.shouldThrowProcessorStateExceptionIfStateDirOccupied
  it('shouldThrowProcessorStateExceptionIfStateDirOccupied', () => {
    mkdirSync(stateDir, { recursive: true });
    writeFileSync(appDir(), '');
    const e = lockError(() => directory.getOrCreateDirectoryForTask('0_0'));
    expect(e.code).toBe('STATE_DIR_ERROR');
    expect(e.message).toContain(appDir());
  });

  // StateDirectoryTest.shouldThrowProcessorStateExceptionIfTestDirOccupied
  it('shouldThrowProcessorStateExceptionIfTestDirOccupied', () => {
    mkdirSync(appDir(), { recursive: true });
    writeFileSync(join(appDir(), '0_0'), '');
    expect(lockError(() => directory.getOrCreateDirectoryForTask('0_0')).code).toBe('STATE_DIR_ERROR');
  });

  // StateDirectoryTest.shouldReportDirectoryEmpty (the checkpoint file does not count; a store folder does)
  it('shouldReportDirectoryEmpty', () => {
    const taskId = '0_0';
    expect(directory.directoryForTaskIsEmpty(taskId)).toBe(true);
    directory.lockTask(taskId);
    expect(directory.directoryForTaskIsEmpty(taskId)).toBe(true);
    writeFileSync(join(directory.getOrCreateDirectoryForTask(taskId), '.checkpoint'), 'topic 0 0\n');
    expect(directory.directoryForTaskIsEmpty(taskId)).toBe(true);
    const dbDir = join(directory.getOrCreateDirectoryForTask(taskId), 'db', 'store1');
    mkdirSync(dbDir, { recursive: true });
    expect(directory.directoryForTaskIsEmpty(taskId)).toBe(false);
    rmSync(join(dbDir, '..'), { recursive: true });
    expect(directory.directoryForTaskIsEmpty(taskId)).toBe(true);
    directory.unlockTask(taskId);
    expect(directory.directoryForTaskIsEmpty(taskId)).toBe(true);
  });

  // StateDirectoryTest.shouldOnlyListNonEmptyTaskDirectories
  it('shouldOnlyListNonEmptyTaskDirectories', () => {
    mkdirSync(join(stateDir, 'foo'), { recursive: true });
    const taskDir1 = directory.getOrCreateDirectoryForTask('0_0');
    const taskDir2 = directory.getOrCreateDirectoryForTask('0_1');
    mkdirSync(join(taskDir1, 'store'));
    expect(directory.listAllTaskDirectories()).toEqual([{ taskId: '0_0', path: taskDir1 }, { taskId: '0_1', path: taskDir2 }]);
    expect(directory.listNonEmptyTaskDirectories()).toEqual([{ taskId: '0_0', path: taskDir1 }]);
    rmSync(taskDir1, { recursive: true });
    expect(directory.listAllTaskDirectories()).toEqual([{ taskId: '0_1', path: taskDir2 }]);
    expect(directory.listNonEmptyTaskDirectories()).toEqual([]);
  });

  // StateDirectoryTest.shouldReturnEmptyArrayIfStateDirDoesntExist
  it('shouldReturnEmptyArrayIfStateDirDoesntExist', () => {
    expect(existsSync(stateDir)).toBe(false);
    expect(directory.listAllTaskDirectories()).toEqual([]);
  });

  // StateDirectoryTest.shouldReturnEmptyArrayIfListFilesReturnsNull
  it('shouldReturnEmptyArrayIfListFilesReturnsNull', () => {
    mkdirSync(stateDir, { recursive: true });
    writeFileSync(appDir(), '');
    expect(directory.listAllTaskDirectories()).toHaveLength(0);
  });
});

describe('StateDirectory: locks within this process', () => {
  it('lockTask creates the folder and a lock file naming this process (pid, hostname, start token)', () => {
    const dir = directory.lockTask({ subtopology: 1, partition: 2 });
    expect(dir).toBe(join(appDir(), '1_2'));
    const lock = JSON.parse(readFileSync(join(dir, LOCK_FILE_NAME), 'utf8')) as Record<string, unknown>;
    expect(lock).toMatchObject({ pid: process.pid, hostname: hostname(), applicationId, taskId: '1_2' });
    expect(typeof lock.token).toBe('string');
    expect(directory.isLocked('1_2')).toBe(true);
    directory.unlockTask('1_2');
    expect(existsSync(join(dir, LOCK_FILE_NAME))).toBe(false);
    expect(directory.isLocked('1_2')).toBe(false);
  });

  // StateDirectoryTest.shouldBeTrueIfAlreadyHoldsLock — sluice differs on purpose: locks are per process
  // (not per thread) and a second lock of a held folder means two tasks would share it, so it is refused.
  it('locking a folder this process holds again is refused (two tasks never share a folder), through any instance', () => {
    directory.lockTask('0_0');
    const again = lockError(() => directory.lockTask('0_0'));
    expect(again.code).toBe('STATE_DIR_LOCKED');
    expect(again.message).toContain(join(appDir(), '0_0'));
    const other = make();
    expect(lockError(() => other.lockTask('0_0')).code).toBe('STATE_DIR_LOCKED');
    directory.unlockTask('0_0');
    expect(other.lockTask('0_0')).toBe(join(appDir(), '0_0'));
    other.close();
  });

  // StateDirectoryTest.shouldBeAbleToUnlockEvenWithoutLocking
  it('shouldBeAbleToUnlockEvenWithoutLocking', () => {
    expect(() => directory.unlockTask('0_0')).not.toThrow();
  });

  // StateDirectoryTest.shouldNotUnLockStateDirLockedByAnotherThread (another instance of this process stands in for the thread)
  it('shouldNotUnLockStateDirLockedByAnotherThread', () => {
    const other = make();
    other.lockTask('0_0');
    directory.unlockTask('0_0');
    expect(() => directory.lockTask('0_0')).toThrow(/holds it already/);
    other.unlockTask('0_0');
    expect(directory.lockTask('0_0')).toBe(join(appDir(), '0_0'));
  });

  // StateDirectoryTest.shouldLockMultipleTaskDirectories
  it('shouldLockMultipleTaskDirectories', () => {
    expect(directory.lockTask('0_0')).toBe(join(appDir(), '0_0'));
    expect(directory.lockTask('1_0')).toBe(join(appDir(), '1_0'));
    directory.unlockTask('0_0');
    directory.unlockTask('1_0');
  });
});

describe('StateDirectory: locks across processes', () => {
  // StateDirectoryTest.shouldNotLockStateDirLockedByAnotherThread, with a real second process
  it('a folder a live process holds is refused with STATE_DIR_LOCKED naming the folder, the holder pid and the fix', async () => {
    const child = await lockInChild('0_0');
    const e = lockError(() => directory.lockTask('0_0'));
    expect(e.code).toBe('STATE_DIR_LOCKED');
    expect(e.kind).toBe('fatal');
    expect(taskReactionTo(e)).toBe('policy'); // the uncaught-exception policy decides (src/error-table.ts)
    expect(e.message).toContain(join(appDir(), '0_0'));
    expect(e.message).toContain(`process ${child.pid}`);
    expect(e.message).toMatch(/same applicationId 'applicationId' and the same stateDir.*give each instance its own stateDir/);
    // nothing was changed: the holder's lock file is intact
    expect(JSON.parse(readFileSync(join(appDir(), '0_0', LOCK_FILE_NAME), 'utf8'))).toMatchObject({ pid: child.pid });
    // and another task's folder is free
    expect(directory.lockTask('0_1')).toBe(join(appDir(), '0_1'));
  });

  it('the lock of a SIGKILLed holder is stale and taken over at once', async () => {
    const child = await lockInChild('0_0');
    expect(() => directory.lockTask('0_0')).toThrow(/STATE_DIR_LOCKED|holds it/);
    child.kill('SIGKILL');
    await killed(child);
    expect(directory.lockTask('0_0')).toBe(join(appDir(), '0_0'));
    expect(JSON.parse(readFileSync(join(appDir(), '0_0', LOCK_FILE_NAME), 'utf8'))).toMatchObject({ pid: process.pid });
  });

  it('a lock naming a live pid that started at another time (a reused pid) is stale; an unreadable lock file is taken over', () => {
    const dir = directory.getOrCreateDirectoryForTask('0_0');
    writeFileSync(join(dir, LOCK_FILE_NAME), JSON.stringify({ pid: process.pid, hostname: hostname(), token: 'linux:old-boot:1', applicationId, taskId: '0_0', lockedAt: '' }));
    expect(directory.lockTask('0_0')).toBe(dir);
    directory.unlockTask('0_0');
    writeFileSync(join(dir, LOCK_FILE_NAME), 'garbage');
    expect(directory.lockTask('0_0')).toBe(dir);
  });

  it('a lock held on another host (a shared volume) is refused, naming the host and the lock file to delete', () => {
    const dir = directory.getOrCreateDirectoryForTask('0_0');
    writeFileSync(join(dir, LOCK_FILE_NAME), JSON.stringify({ pid: 1, hostname: 'elsewhere', token: 'x', applicationId, taskId: '0_0', lockedAt: 'then' }));
    const e = lockError(() => directory.lockTask('0_0'));
    expect(e.message).toContain("host 'elsewhere'");
    expect(e.message).toContain(join(dir, LOCK_FILE_NAME));
  });
});

describe('StateDirectory: cleanup of obsolete task folders', () => {
  // StateDirectoryTest.shouldCleanUpTaskStateDirectoriesThatAreNotCurrentlyLocked
  it('shouldCleanUpTaskStateDirectoriesThatAreNotCurrentlyLocked', () => {
    for (const t of ['0_0', '1_0', '2_0']) mkdirSync(join(directory.getOrCreateDirectoryForTask(t), 'store'));
    directory.lockTask('0_0');
    directory.lockTask('1_0');
    const dir = (t: string) => ({ taskId: t, path: join(appDir(), t) });
    expect(directory.listAllTaskDirectories()).toEqual([dir('0_0'), dir('1_0'), dir('2_0')]);
    expect(directory.listNonEmptyTaskDirectories()).toEqual([dir('0_0'), dir('1_0'), dir('2_0')]);
    time += 5000;
    expect(directory.cleanRemovedTasks(0)).toEqual(['2_0']);
    expect(directory.listAllTaskDirectories()).toEqual([dir('0_0'), dir('1_0')]);
    expect(directory.listNonEmptyTaskDirectories()).toEqual([dir('0_0'), dir('1_0')]);
  });

  // StateDirectoryTest.shouldCleanupStateDirectoriesWhenLastModifiedIsLessThanNowMinusCleanupDelay
  it('shouldCleanupStateDirectoriesWhenLastModifiedIsLessThanNowMinusCleanupDelay', () => {
    const dir = directory.getOrCreateDirectoryForTask('2_0');
    mkdirSync(join(dir, 'store'));
    const cleanupDelayMs = 60000;
    directory.cleanRemovedTasks(cleanupDelayMs);
    expect(existsSync(dir)).toBe(true);
    expect(directory.listAllTaskDirectories()).toHaveLength(1);
    expect(directory.listNonEmptyTaskDirectories()).toHaveLength(1);
    time += cleanupDelayMs + 1000;
    directory.cleanRemovedTasks(cleanupDelayMs);
    expect(existsSync(dir)).toBe(false);
    expect(directory.listAllTaskDirectories()).toHaveLength(0);
    expect(directory.listNonEmptyTaskDirectories()).toHaveLength(0);
  });

  // StateDirectoryTest.shouldCleanupObsoleteTaskDirectoriesAndDeleteTheDirectoryItself (the log line is Kafka's)
  it('shouldCleanupObsoleteTaskDirectoriesAndDeleteTheDirectoryItself', () => {
    const messages: string[] = [];
    const logger = { child: () => logger, info: (_: unknown, m: string) => messages.push(m), debug: () => {}, warn: () => {} };
    directory = make({ logger: logger as never });
    const dir = directory.getOrCreateDirectoryForTask('2_0');
    mkdirSync(join(dir, 'store'));
    expect(directory.listAllTaskDirectories()).toHaveLength(1);
    expect(directory.listNonEmptyTaskDirectories()).toHaveLength(1);
    time += 5000;
    directory.cleanRemovedTasks(0);
    expect(existsSync(dir)).toBe(false);
    expect(directory.listAllTaskDirectories()).toHaveLength(0);
    expect(directory.listNonEmptyTaskDirectories()).toHaveLength(0);
    expect(messages.some((m) => m.includes('Deleting obsolete state directory'))).toBe(true);
  });

  // StateDirectoryTest.shouldNotRemoveNonTaskDirectoriesAndFiles
  it('shouldNotRemoveNonTaskDirectoriesAndFiles', () => {
    const otherDir = join(stateDir, 'foo');
    mkdirSync(otherDir, { recursive: true });
    mkdirSync(join(appDir(), 'not-a-task'), { recursive: true });
    time += 5000;
    directory.cleanRemovedTasks(0);
    expect(existsSync(otherDir)).toBe(true);
    expect(existsSync(join(appDir(), 'not-a-task'))).toBe(true);
  });

  it('a folder another live process holds is never deleted; the folder of a dead holder is, once the delay passed', async () => {
    const child = await lockInChild('3_0');
    const dir = join(appDir(), '3_0');
    const old = (Date.now() - 120_000) / 1000;
    utimesSync(dir, old, old);
    expect(directory.cleanRemovedTasks(60_000)).toEqual([]);
    expect(existsSync(join(dir, LOCK_FILE_NAME))).toBe(true);
    child.kill('SIGKILL');
    await killed(child);
    utimesSync(dir, old, old);
    expect(directory.cleanRemovedTasks(60_000)).toEqual(['3_0']);
    expect(existsSync(dir)).toBe(false);
  });

  it('unlocking counts as a modification: a folder just released waits for the delay', () => {
    directory.lockTask('0_0');
    directory.unlockTask('0_0');
    time = Date.now();
    expect(directory.cleanRemovedTasks(60_000)).toEqual([]);
    time += 61_000;
    expect(directory.cleanRemovedTasks(60_000)).toEqual(['0_0']);
  });
});

describe('StateDirectory: one folder per stream thread (numStreamThreads)', () => {
  const threadDir = (i: number) => join(appDir(), `stream-thread-${i}`);
  const storeIn = (d: StateDirectory, taskId: string) => mkdirSync(join(d.getOrCreateDirectoryForTask(taskId), 'store'));

  it('thread 1 (the default) keeps <stateDir>/<applicationId>; thread i >= 2 uses <stateDir>/<applicationId>/stream-thread-<i>', () => {
    const thread1 = make({ threadIndex: 1 });
    const thread3 = make({ threadIndex: 3 });
    expect(directory.threadIndex).toBe(1);
    expect(directory.appDir).toBe(appDir());
    expect(thread1.appDir).toBe(appDir());
    expect(thread3.appDir).toBe(threadDir(3));
    expect(thread3.applicationDir).toBe(appDir());
    expect(thread3.taskDir('0_1')).toBe(join(threadDir(3), '0_1'));
    expect(thread3.getOrCreateDirectoryForTask('0_1')).toBe(join(threadDir(3), '0_1'));
    for (const dir of [stateDir, appDir(), threadDir(3), join(threadDir(3), '0_1')]) expect(statSync(dir).mode & 0o777).toBe(0o750);
  });

  it('a bad threadIndex is refused with INVALID_CONFIG', () => {
    for (const threadIndex of [0, -1, 1.5, Number.NaN]) expect(lockError(() => make({ threadIndex })).code).toBe('INVALID_CONFIG');
  });

  it("each thread locks its own task folders (lock files inside its folder) and its own global folder", () => {
    const thread2 = make({ threadIndex: 2 });
    try {
      expect(directory.lockTask('0_0')).toBe(join(appDir(), '0_0'));
      expect(thread2.lockTask('0_0')).toBe(join(threadDir(2), '0_0'));
      expect(existsSync(join(threadDir(2), '0_0', LOCK_FILE_NAME))).toBe(true);
      // a second instance of thread 2 in this process is still refused
      expect(lockError(() => make({ threadIndex: 2 }).lockTask('0_0')).code).toBe('STATE_DIR_LOCKED');
      const global1 = lockGlobalDir(directory.appDir, applicationId);
      const global2 = lockGlobalDir(thread2.appDir, applicationId);
      expect([global1, global2]).toEqual([join(appDir(), 'global'), join(threadDir(2), 'global')]);
      unlockGlobalDir(global1);
      unlockGlobalDir(global2);
    } finally {
      thread2.close();
    }
  });

  it('a thread folder another live process holds is refused (two processes sharing a stateDir still detect each other)', async () => {
    const child = await lockInChild('1_0', 2);
    const e = lockError(() => make({ threadIndex: 2 }).lockTask('1_0'));
    expect(e.code).toBe('STATE_DIR_LOCKED');
    expect(e.message).toContain(join(threadDir(2), '1_0'));
    expect(e.message).toContain(`process ${child.pid}`);
    // cleanUp() of thread 1 refuses too and keeps the held folder
    expect(lockError(() => directory.clean()).code).toBe('STATE_DIR_LOCKED');
    expect(existsSync(join(threadDir(2), '1_0', LOCK_FILE_NAME))).toBe(true);
  });

  it("thread 1's task listing skips the stream-thread-* folders; each thread lists its own tasks", () => {
    const thread2 = make({ threadIndex: 2 });
    const warnings: string[] = [];
    const logger = { child: () => logger, info: () => {}, debug: () => {}, warn: (_: unknown, m: string) => warnings.push(m) };
    directory = make({ logger: logger as never });
    storeIn(directory, '0_0');
    storeIn(thread2, '0_0');
    storeIn(thread2, '1_1');
    thread2.getOrCreateDirectoryForTask('2_2');
    expect(directory.listAllTaskDirectories()).toEqual([{ taskId: '0_0', path: join(appDir(), '0_0') }]);
    expect(directory.listNonEmptyTaskDirectories()).toEqual([{ taskId: '0_0', path: join(appDir(), '0_0') }]);
    expect(thread2.listAllTaskDirectories().map((d) => d.path)).toEqual(['0_0', '1_1', '2_2'].map((t) => join(threadDir(2), t)));
    expect(thread2.listNonEmptyTaskDirectories().map((d) => d.taskId)).toEqual(['0_0', '1_1']);
    expect(warnings).toEqual([]);
  });

  it("thread 1's cleaner never touches the stream-thread-* folders; thread 2's cleaner deletes its own obsolete tasks only", () => {
    const thread2 = make({ threadIndex: 2 });
    storeIn(directory, '0_0');
    storeIn(thread2, '1_0');
    storeIn(thread2, '2_0');
    thread2.lockTask('2_0');
    time += 5000;
    expect(directory.cleanRemovedTasks(0)).toEqual(['0_0']);
    expect(existsSync(join(threadDir(2), '1_0', 'store'))).toBe(true);
    storeIn(directory, '3_0');
    expect(thread2.cleanRemovedTasks(0)).toEqual(['1_0']);
    expect(existsSync(join(threadDir(2), '2_0', 'store'))).toBe(true);
    expect(existsSync(join(appDir(), '3_0'))).toBe(true);
    thread2.close();
  });

  it("thread 1's clean() (cleanUp) deletes every thread's folder, tasks, global folder and locks, then the application folder", () => {
    const thread2 = make({ threadIndex: 2 });
    const thread10 = make({ threadIndex: 10 });
    storeIn(directory, '0_0');
    storeIn(thread2, '0_0');
    storeIn(thread2, '1_1');
    thread10.getOrCreateDirectoryForTask('0_1');
    thread2.lockTask('1_1');
    thread2.unlockTask('1_1'); // a released lock file is left behind
    unlockGlobalDir(lockGlobalDir(thread2.appDir, applicationId));
    expect(directory.clean()).toEqual(['0_0', 'stream-thread-2/0_0', 'stream-thread-2/1_1', 'stream-thread-10/0_1']);
    expect(existsSync(appDir())).toBe(false);
  });

  it("clean() keeps what is not a thread's folder (stream-thread-1, stream-thread-x) and so the application folder, with a warning", () => {
    const warnings: string[] = [];
    const logger = { child: () => logger, info: () => {}, debug: () => {}, warn: (_: unknown, m: string) => warnings.push(m) };
    directory = make({ logger: logger as never });
    mkdirSync(join(appDir(), 'stream-thread-1'), { recursive: true });
    mkdirSync(join(appDir(), 'stream-thread-x'), { recursive: true });
    storeIn(make({ threadIndex: 2 }), '0_0');
    expect(directory.clean()).toEqual(['stream-thread-2/0_0']);
    expect(readdirSync(appDir()).sort()).toEqual(['stream-thread-1', 'stream-thread-x']);
    expect(warnings.some((w) => w.includes('not empty'))).toBe(true);
  });
});
