/**
 * The state directory of an application (Kafka Streams' `StateDirectory`):
 * `<stateDir>/<applicationId>/<taskId>/`, one folder per task, holding the
 * task's persistent stores (`<taskDir>/<storeName>/`).
 *
 * Stream threads (`numStreamThreads`): each thread has its own StateDirectory
 * (`threadIndex`). Thread 1 uses the application folder itself; thread i >= 2
 * uses `<stateDir>/<applicationId>/stream-thread-<i>/` as its application
 * folder (`appDir`: its task folders, checkpoints, locks and `global` live
 * there). Thread 1's listing and cleaner skip the `stream-thread-*` folders
 * (they are not tasks); its `clean()` deletes them too.
 *
 * - `lockTask` creates the task folder and locks it for this process (a lock
 *   file, `task-lock-file.ts`): a folder another live process holds, or one
 *   this process already holds, is refused with `STATE_DIR_LOCKED` (two tasks
 *   never share a folder); a lock left by a dead process is taken over at once.
 * - `cleanRemovedTasks(delayMs)` deletes the task folders nobody holds and
 *   nothing touched for `delayMs` (Kafka's `state.cleanup.delay.ms`).
 * - `clean()` deletes all of the application's local state (`KafkaStreams.cleanUp()`).
 * - Folders the application creates get permissions `rwxr-x---`, as in Kafka.
 *
 * Locks are per process: a registry shared by every `StateDirectory` of the
 * process refuses a second lock of the same folder, even through another instance.
 */
import { chmodSync, existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { StreamsError } from '../../errors.js';
import { componentLogger, type Logger } from '../../internal/logger.js';
import { formatTaskId, parseTaskId, type TaskId } from '../../records/task-id.js';
import { describeBlocker, describeHolder, fixFor, lockedError, stateDirError } from './state-directory-errors.js';
import { LOCK_FILE_NAME, releaseLockFile, tryLockFile } from './task-lock-file.js';

export { LOCK_FILE_NAME } from './task-lock-file.js';

/** Kafka's `state.cleanup.delay.ms` default: task folders unused for 10 minutes are deleted. */
export const DEFAULT_STATE_CLEANUP_DELAY_MS = 600_000;
/** Name of a task-level checkpoint file (not counted as content, as in Kafka). */
export const CHECKPOINT_FILE_NAME = '.checkpoint';

/** The default root: `<os.tmpdir()>/sluice`. */
export function defaultStateDir(): string {
  return join(tmpdir(), 'sluice');
}

/** Options of a {@link StateDirectory}. */
export interface StateDirectoryOptions {
  applicationId: string;
  /** Root of all applications' state; default {@link defaultStateDir}. */
  stateDir?: string;
  logger?: Logger;
  /** Clock of the cleanup delay (ms), default `Date.now` (tests move it as Kafka's MockTime). */
  now?: () => number;
  /**
   * The stream thread this directory serves (1-based, default 1): thread 1 uses
   * `<stateDir>/<applicationId>`, thread i >= 2 `<stateDir>/<applicationId>/stream-thread-<i>`.
   */
  threadIndex?: number;
}

/** Prefix of the folder of stream thread i >= 2 inside the application folder (`stream-thread-<i>`). */
export const STREAM_THREAD_DIR_PREFIX = 'stream-thread-';
/** Names of the folders of stream threads 2, 3, ... (thread 1 has none of its own). */
const THREAD_DIR = /^stream-thread-([2-9]|[1-9]\d+)$/;


/** A task folder found under the application folder. */
export interface TaskDirectory {
  taskId: string;
  path: string;
}

/** Lock files held by this process → the StateDirectory holding them. */
const heldByThisProcess = new Map<string, StateDirectory>();

const taskName = (taskId: TaskId | string): string => (typeof taskId === 'string' ? formatTaskId(parseTaskId(taskId)) : formatTaskId(taskId));

/** An application's state directory. */
export class StateDirectory {
  /** The root (`stateDir`). */
  readonly root: string;
  /** The folder of this thread's state: `<root>/<applicationId>` (thread 1), `<root>/<applicationId>/stream-thread-<i>` (thread i >= 2). */
  readonly appDir: string;
  /** `<root>/<applicationId>`, the application folder (the same as `appDir` for thread 1). */
  readonly applicationDir: string;
  /** The stream thread served (1-based). */
  readonly threadIndex: number;
  private readonly applicationId: string;
  private readonly logger: Logger;
  private readonly parentLogger: Logger | undefined;
  private readonly now: () => number;
  private readonly locked = new Set<string>();

  constructor(options: StateDirectoryOptions) {
    if (!options.applicationId) throw new StreamsError('StateDirectory: applicationId must not be empty', { code: 'INVALID_CONFIG' });
    const threadIndex = options.threadIndex ?? 1;
    if (!Number.isSafeInteger(threadIndex) || threadIndex < 1) {
      throw new StreamsError(`StateDirectory: threadIndex must be a whole number of 1 or more, got ${threadIndex}`, { code: 'INVALID_CONFIG' });
    }
    this.applicationId = options.applicationId;
    this.threadIndex = threadIndex;
    this.root = resolve(options.stateDir ?? defaultStateDir());
    this.applicationDir = join(this.root, options.applicationId);
    this.appDir = threadIndex === 1 ? this.applicationDir : join(this.applicationDir, `${STREAM_THREAD_DIR_PREFIX}${threadIndex}`);
    this.parentLogger = options.logger;
    this.logger = componentLogger('state-directory', options.logger, { applicationId: options.applicationId, ...(threadIndex === 1 ? {} : { threadIndex }) });
    this.now = options.now ?? Date.now;
  }

  /** The folder of a task (not created). */
  taskDir(taskId: TaskId | string): string {
    return join(this.appDir, taskName(taskId));
  }

  /** Creates `path` (and its parents) as a directory, `rwxr-x---` when created here; a file in the way is an error. */
  private ensureDirectory(path: string): void {
    let existing: ReturnType<typeof statSync>;
    try {
      existing = statSync(path, { throwIfNoEntry: false });
    } catch (error) {
      // Issue 28 item 13: ENOTDIR (a regular file on the way up), EACCES: name the file in the way.
      throw stateDirError(`cannot use ${path}: ${describeBlocker(path, error)}; remove it or set another stateDir`, error);
    }
    if (existing?.isDirectory()) return;
    if (existing) throw stateDirError(`${path} exists but is not a directory; remove it or set another stateDir`);
    try {
      mkdirSync(path, { recursive: true, mode: 0o750 });
      chmodSync(path, 0o750);
    } catch (error) {
      if (statSync(path, { throwIfNoEntry: false })?.isDirectory()) return; // created concurrently
      throw stateDirError(`cannot create the state directory ${path}: ${describeBlocker(path, error)}; check its permissions or set another stateDir`, error);
    }
  }

  /** The task's folder, created if needed (root, application folder and thread folder too). */
  getOrCreateDirectoryForTask(taskId: TaskId | string): string {
    this.ensureDirectory(this.root);
    this.ensureDirectory(this.applicationDir);
    this.ensureDirectory(this.appDir);
    const dir = this.taskDir(taskId);
    this.ensureDirectory(dir);
    return dir;
  }

  /**
   * Locks the task's folder for this process and returns its path:
   * 1. create the folder; 2. refuse a folder this process holds already;
   * 3. take the lock file (a stale one is taken over); 4. refuse a folder another live process holds.
   */
  lockTask(taskId: TaskId | string): string {
    const name = taskName(taskId);
    // 1.
    const dir = this.getOrCreateDirectoryForTask(name);
    const lockPath = join(dir, LOCK_FILE_NAME);
    // 2.
    if (heldByThisProcess.has(lockPath)) {
      throw lockedError(dir, `this process (pid ${process.pid}) holds it already, for another task instance`, 'close that task (unlockTask) before opening it again');
    }
    // 3.
    const attempt = tryLockFile(lockPath, { applicationId: this.applicationId, taskId: name });
    if (attempt.kind === 'locked') {
      heldByThisProcess.set(lockPath, this);
      this.locked.add(name);
      if (attempt.tookOverFrom) {
        const from = attempt.tookOverFrom === 'unreadable' ? 'an unreadable lock file' : `pid ${attempt.tookOverFrom.pid}, no longer running`;
        this.logger.info({ taskId: name, dir }, `took over the stale lock of task folder ${dir} (${from})`);
      }
      return dir;
    }
    // 4.
    if (attempt.kind === 'contended') {
      throw lockedError(dir, 'another process is taking over its stale lock right now', 'retry', 'retriable');
    }
    throw lockedError(dir, describeHolder(attempt.holder, attempt.by), fixFor(attempt.holder, attempt.by, join(dir, LOCK_FILE_NAME)));
  }

  /** Releases this process's lock of the task's folder; a no-op when this instance does not hold it. */
  unlockTask(taskId: TaskId | string): void {
    const name = taskName(taskId);
    if (!this.locked.delete(name)) return;
    const lockPath = join(this.taskDir(name), LOCK_FILE_NAME);
    heldByThisProcess.delete(lockPath);
    releaseLockFile(lockPath);
  }

  /** True when this instance holds the task's lock. */
  isLocked(taskId: TaskId | string): boolean {
    return this.locked.has(taskName(taskId));
  }

  /**
   * Every task folder of this thread (names `<subtopology>_<partition>`; other names, such as
   * the `stream-thread-<i>` folders of other threads, are not tasks); nothing when the folder does not exist.
   */
  listAllTaskDirectories(): TaskDirectory[] {
    let names: string[];
    try {
      names = readdirSync(this.appDir);
    } catch {
      return [];
    }
    return names
      .filter((n) => /^\d+_\d+$/.test(n) && statSync(join(this.appDir, n), { throwIfNoEntry: false })?.isDirectory() === true)
      .sort()
      .map((n) => ({ taskId: n, path: join(this.appDir, n) }));
  }

  /** The task folders holding anything besides the lock and checkpoint files. */
  listNonEmptyTaskDirectories(): TaskDirectory[] {
    return this.listAllTaskDirectories().filter((d) => !isEmptyTaskDir(d.path));
  }

  /** True when the task's folder holds nothing besides the lock and checkpoint files (or does not exist). */
  directoryForTaskIsEmpty(taskId: TaskId | string): boolean {
    return isEmptyTaskDir(this.taskDir(taskId));
  }

  /**
   * Deletes obsolete task folders; returns the task ids deleted. For each task folder:
   * 1. skip one this process holds; 2. skip one modified less than `delayMs` ago;
   * 3. lock it (skip it when another process holds it); 4. delete it. Failures are logged, never thrown.
   */
  cleanRemovedTasks(delayMs: number = DEFAULT_STATE_CLEANUP_DELAY_MS): string[] {
    const deleted: string[] = [];
    for (const { taskId, path } of this.listAllTaskDirectories()) {
      // 1.
      if (heldByThisProcess.has(join(path, LOCK_FILE_NAME))) continue;
      // 2.
      const lastModifiedMs = statSync(path, { throwIfNoEntry: false })?.mtimeMs;
      const now = this.now();
      if (lastModifiedMs === undefined || !(now - delayMs > lastModifiedMs)) continue;
      try {
        // 3.
        this.lockTask(taskId);
      } catch (error) {
        this.logger.debug({ err: error, taskId }, 'obsolete-looking task folder is locked; not deleted');
        continue;
      }
      // 4.
      try {
        this.logger.info(
          { taskId, dir: path },
          `Deleting obsolete state directory ${taskId} for task ${taskId} as ${Math.round(now - lastModifiedMs)}ms has elapsed (cleanup delay is ${delayMs}ms).`,
        );
        rmSync(path, { recursive: true, force: true });
        deleted.push(taskId);
      } catch (error) {
        this.logger.warn({ err: error, taskId, dir: path }, 'could not delete an obsolete state directory');
      } finally {
        this.unlockTask(taskId);
      }
    }
    return deleted;
  }

  /**
   * Deletes the application's local state (Kafka's `StateDirectory.clean()`, behind
   * `KafkaStreams.cleanUp()`); returns the task ids deleted (those of thread i >= 2, for thread 1, as
   * `stream-thread-<i>/<taskId>`):
   * 1. each task folder: lock it (a folder another live process holds throws STATE_DIR_LOCKED: nothing of it is
   *    deleted), delete it, release the lock;
   * 2. the global stores' folder `global`;
   * 3. (thread 1) the folder of every other stream thread, `stream-thread-<i>`, cleaned the same way
   *    (its tasks' ids are returned too; one another live process holds throws STATE_DIR_LOCKED);
   * 4. this thread's folder when nothing else is left in it (else a warning names what is kept, as Kafka).
   */
  clean(): string[] {
    const deleted: string[] = [];
    // 1.
    for (const { taskId, path } of this.listAllTaskDirectories()) {
      this.lockTask(taskId);
      try {
        rmSync(path, { recursive: true, force: true });
        deleted.push(taskId);
      } finally {
        this.locked.delete(taskId);
        heldByThisProcess.delete(join(path, LOCK_FILE_NAME));
      }
    }
    // 2.
    rmSync(join(this.appDir, 'global'), { recursive: true, force: true });
    // 3.
    if (this.threadIndex === 1) deleted.push(...this.cleanThreadFolders());
    // 4.
    let left: string[] = [];
    try {
      left = readdirSync(this.appDir);
    } catch {
      return deleted;
    }
    if (left.length === 0) rmSync(this.appDir, { recursive: true, force: true });
    else this.logger.warn({ dir: this.appDir, left }, `Failed to delete state store directory of ${this.appDir} for it is not empty`);
    this.logger.info({ dir: this.appDir, tasks: deleted }, 'local state deleted (cleanUp)');
    return deleted;
  }

  /** Step 3 of {@link clean}: cleans the folder of every stream thread i >= 2, in thread order. */
  private cleanThreadFolders(): string[] {
    let names: string[];
    try {
      names = readdirSync(this.appDir);
    } catch {
      return [];
    }
    const indexes = names.flatMap((n) => {
      const match = THREAD_DIR.exec(n);
      return match && statSync(join(this.appDir, n), { throwIfNoEntry: false })?.isDirectory() === true ? [Number(match[1])] : [];
    });
    const deleted: string[] = [];
    for (const threadIndex of indexes.sort((a, b) => a - b)) {
      const thread = new StateDirectory({ applicationId: this.applicationId, stateDir: this.root, threadIndex, logger: this.parentLogger, now: this.now });
      try {
        deleted.push(...thread.clean().map((taskId) => `${STREAM_THREAD_DIR_PREFIX}${threadIndex}/${taskId}`));
      } finally {
        thread.close();
      }
    }
    return deleted;
  }

  /** Releases every lock this instance holds. */
  close(): void {
    for (const name of [...this.locked]) this.unlockTask(name);
  }
}

function isEmptyTaskDir(path: string): boolean {
  if (!existsSync(path)) return true;
  return readdirSync(path).every((n) => n === LOCK_FILE_NAME || n === CHECKPOINT_FILE_NAME || n.startsWith(`${LOCK_FILE_NAME}.`));
}
