/**
 * The errors of the state directory (`state-directory.ts`): a folder that
 * cannot be created (naming what is in the way) and a task folder that is
 * locked (naming the holder and the fix).
 */
import { statSync } from 'node:fs';
import { dirname } from 'node:path';
import { StreamsError } from '../../errors.js';
import type { LockHolder } from './task-lock-file.js';

/** Why `path` cannot be a directory: the regular file on its way (ENOTDIR), else the system's message. */
export function describeBlocker(path: string, error: unknown): string {
  if ((error as NodeJS.ErrnoException).code === 'ENOTDIR') {
    for (let dir = dirname(path); dir !== dirname(dir); dir = dirname(dir)) {
      let stat: ReturnType<typeof statSync>;
      try {
        stat = statSync(dir, { throwIfNoEntry: false });
      } catch {
        continue; // below the file too
      }
      if (stat !== undefined && !stat.isDirectory()) return `${dir} is a file, not a directory (ENOTDIR)`;
    }
  }
  return (error as Error).message;
}

/** A STATE_DIR_ERROR: a folder of the state directory cannot be used. */
export function stateDirError(message: string, cause?: unknown): StreamsError {
  return new StreamsError(`State directory: ${message}`, { code: 'STATE_DIR_ERROR', cause });
}

/** Who holds a locked task folder. */
export function describeHolder(holder: LockHolder, by: 'this-process' | 'other-process' | 'other-host'): string {
  if (by === 'other-host') return `process ${holder.pid} on host '${holder.hostname}' holds it (since ${holder.lockedAt})`;
  if (by === 'this-process') return `this process (pid ${process.pid}) holds it already`;
  return `process ${holder.pid} (running on this host) holds it (since ${holder.lockedAt})`;
}

/** What to change when a task folder is locked by another instance. */
export function fixFor(holder: LockHolder, by: 'this-process' | 'other-process' | 'other-host', lockPath: string): string {
  if (by === 'other-host') {
    return `two hosts share this stateDir: give each instance its own stateDir; if host '${holder.hostname}' is gone, delete ${lockPath}`;
  }
  return `another instance with the same applicationId '${holder.applicationId}' and the same stateDir runs on this machine: give each instance its own stateDir`;
}

/** A STATE_DIR_LOCKED error naming the folder, the holder and the fix. */
export function lockedError(dir: string, why: string, fix: string, kind?: 'retriable'): StreamsError {
  return new StreamsError(`Cannot lock the task state folder ${dir}: ${why}. Fix: ${fix}.`, { code: 'STATE_DIR_LOCKED', ...(kind ? { kind } : {}) });
}
