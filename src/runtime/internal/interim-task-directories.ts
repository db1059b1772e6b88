/** Interim task folders (replaced by the locking state directory): `<stateDir>/<applicationId>/<taskId>/`, in-process exclusivity only. */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { StreamsError } from '../../errors.js';
import type { TaskDirectories } from './state-manager.js';

const held = new Set<string>();

/** Task folders under `<stateDir>/<applicationId>`. */
export function interimTaskDirectories(stateDir: string, applicationId: string): TaskDirectories {
  return {
    lockTask(taskId: string): string {
      const dir = join(stateDir, applicationId, taskId);
      if (held.has(dir)) throw new StreamsError(`State folder ${dir} is already in use by this process`, { code: 'STATE_DIR_LOCKED', kind: 'fatal' });
      mkdirSync(dir, { recursive: true });
      held.add(dir);
      return dir;
    },
    unlockTask(taskId: string): void {
      held.delete(join(stateDir, applicationId, taskId));
    },
  };
}
