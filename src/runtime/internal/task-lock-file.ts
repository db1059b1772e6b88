/**
 * The lock file of a task folder (`<taskDir>/.lock`): which process holds the
 * folder, so that two processes never use the same task state.
 *
 * The file holds the holder's pid, hostname and a process-start token, written
 * to a temporary file first and then hard-linked into place (`link` is atomic
 * and fails when the lock exists: an exclusive create that is never seen half
 * written). A lock whose holder is gone is stale and taken over at once, so a
 * SIGKILLed worker restarts without waiting:
 * - on this host, the pid is not running, or (Linux) a process runs under that
 *   pid but started at another time or in another boot (the pid was reused,
 *   e.g. pid 1 of a restarted container);
 * - on another host (a shared volume), the holder cannot be checked: the lock
 *   counts as held and the error says how to remove it.
 */
import { randomBytes } from 'node:crypto';
import { linkSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';

/** Name of the lock file inside a task folder. */
export const LOCK_FILE_NAME = '.lock';

/** What a lock file says. */
export interface LockHolder {
  pid: number;
  hostname: string;
  /** Identifies the holder's process incarnation (see {@link processStartToken}). */
  token: string;
  applicationId: string;
  taskId: string;
  /** ISO time the lock was taken. */
  lockedAt: string;
}

/** Outcome of {@link tryLockFile}. */
export type LockAttempt =
  | { kind: 'locked'; holder: LockHolder; tookOverFrom?: LockHolder | 'unreadable' }
  | { kind: 'held'; holder: LockHolder; by: 'this-process' | 'other-process' | 'other-host' }
  | { kind: 'contended' };

let bootId: string | undefined | null = null;
function linuxBootId(): string | undefined {
  if (bootId === null) {
    try {
      bootId = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    } catch {
      bootId = undefined;
    }
  }
  return bootId;
}

/**
 * A token naming one incarnation of process `pid` on this host: on Linux
 * `linux:<boot id>:<start time in clock ticks>` (from `/proc/<pid>/stat`),
 * undefined when it cannot be read (another OS, or no such process).
 */
export function processStartToken(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' '); // fields from the 3rd (state) on
    const startTime = fields[19]; // field 22: starttime
    const boot = linuxBootId();
    return startTime && boot ? `linux:${boot}:${startTime}` : undefined;
  } catch {
    return undefined;
  }
}

/** This process's token: the Linux one, else the start time in ms and a random part. */
export const OWN_TOKEN: string = processStartToken(process.pid) ?? `start:${Math.round(Date.now() - process.uptime() * 1000)}:${randomBytes(4).toString('hex')}`;

/** True when a process with `pid` runs on this host (EPERM: it runs as another user). */
function pidRuns(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Who holds a lock file's lock now: this process, a live other process, another host, or nobody (stale). */
export function holderState(holder: LockHolder): 'this-process' | 'other-process' | 'other-host' | 'stale' {
  if (holder.hostname !== hostname()) return 'other-host';
  if (holder.pid === process.pid && holder.token === OWN_TOKEN) return 'this-process';
  if (holder.pid === process.pid || !pidRuns(holder.pid)) return 'stale';
  const current = processStartToken(holder.pid);
  if (current !== undefined && holder.token.startsWith('linux:') && current !== holder.token) return 'stale';
  return 'other-process';
}

/** Reads a lock file: its holder, 'unreadable' for content that is no lock of ours, undefined when absent. */
export function readLockFile(path: string): LockHolder | 'unreadable' | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    const parsed = JSON.parse(text) as Partial<LockHolder>;
    if (typeof parsed.pid === 'number' && typeof parsed.hostname === 'string' && typeof parsed.token === 'string') return parsed as LockHolder;
  } catch {
    // fall through
  }
  return 'unreadable';
}

/** Links `tmp` to `path`; false when `path` exists. */
function linkExclusive(tmp: string, path: string): boolean {
  try {
    linkSync(tmp, path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

const unlinkQuietly = (path: string) => {
  try {
    unlinkSync(path);
  } catch {
    // already gone
  }
};

/** A takeover guard older than this (ms) was left by a process that died mid-takeover. */
const GUARD_STALE_MS = 10_000;

/**
 * Takes the lock file `path` for this process:
 * 1. write this process's holder record to a temporary file;
 * 2. link it to `path`: done when `path` did not exist;
 * 3. else read the holder: a live one (this process, another process, another host) → `held`;
 * 4. a stale one: take the guard `<path>.takeover` (exclusive, so two processes
 *    never both take over), check the lock still names the same stale holder,
 *    replace it, drop the guard; a guard another process holds → `contended`.
 */
export function tryLockFile(path: string, who: { applicationId: string; taskId: string }): LockAttempt {
  // 1.
  const holder: LockHolder = { pid: process.pid, hostname: hostname(), token: OWN_TOKEN, ...who, lockedAt: new Date().toISOString() };
  const tmp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  writeFileSync(tmp, JSON.stringify(holder), { flag: 'wx', mode: 0o644 });
  try {
    for (let attempt = 0; attempt < 3; attempt++) {
      // 2.
      if (linkExclusive(tmp, path)) return { kind: 'locked', holder };
      // 3.
      const seen = readLockFile(path);
      if (seen === undefined) continue; // released meanwhile
      if (seen !== 'unreadable') {
        const state = holderState(seen);
        if (state !== 'stale') return { kind: 'held', holder: seen, by: state };
      }
      // 4.
      const guard = `${path}.takeover`;
      if (!linkExclusive(tmp, guard)) {
        const age = Date.now() - (statSync(guard, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
        if (age > GUARD_STALE_MS) unlinkQuietly(guard);
        else return { kind: 'contended' };
        continue;
      }
      try {
        if (JSON.stringify(readLockFile(path)) !== JSON.stringify(seen)) continue;
        unlinkQuietly(path);
        if (linkExclusive(tmp, path)) return { kind: 'locked', holder, tookOverFrom: seen };
      } finally {
        unlinkQuietly(guard);
      }
    }
    return { kind: 'contended' };
  } finally {
    unlinkQuietly(tmp);
  }
}

/** Removes the lock file when this process holds it (a lock of another process is left alone); true when removed. */
export function releaseLockFile(path: string): boolean {
  const seen = readLockFile(path);
  if (seen === undefined || seen === 'unreadable' || holderState(seen) !== 'this-process') return false;
  unlinkQuietly(path);
  return true;
}
