/**
 * An application's local state folder outside a running app: what `sluice reset
 * --state-dir` removes (the same as `KafkaStreams.cleanUp()`).
 */
import { StateDirectory } from './internal/state-directory.js';

/** The folder `<stateDir>/<applicationId>` holding an application's local state. */
export function localStateDir(applicationId: string, stateDir: string): string {
  return new StateDirectory({ applicationId, stateDir }).appDir;
}

/**
 * Deletes the local state of `applicationId` under `stateDir` (task folders, `global`, then the
 * folder when empty); returns the task ids deleted. A task folder another live process holds
 * throws STATE_DIR_LOCKED.
 */
export function cleanLocalState(applicationId: string, stateDir: string): string[] {
  const directory = new StateDirectory({ applicationId, stateDir });
  try {
    return directory.clean();
  } finally {
    directory.close();
  }
}
