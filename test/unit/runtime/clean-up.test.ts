/**
 * `KafkaStreams.cleanUp()` (issue 29 item 10). Ported from Kafka's KafkaStreamsTest
 * `shouldAllowCleanupBeforeStartAndAfterClose` and `shouldThrowOnCleanupWhileRunning`
 * (Kafka: IllegalStateException "Cannot clean up while running."; sluice: IllegalStateError
 * in the guarded state machine's wording), plus what StateDirectoryTest
 * `shouldCleanupAllTaskDirectoriesIncludingGlobalOne` / `shouldDeleteAppDirWhenCleanUpIfEmpty` check.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { IllegalStateError, KafkaStreams, Serdes, StreamsBuilder } from '../../../src/index.js';
import { EmbeddedKafkaCluster } from '../../../src/testing.js';
import { StateDirectory } from '../../../src/runtime/internal/state-directory.js';

const S = Serdes.String();

async function countingApp(applicationId: string, stateDir: string) {
  const cluster = new EmbeddedKafkaCluster();
  await cluster.createTopic('in', { partitions: 2 });
  await cluster.createTopic('out', { partitions: 2 });
  const builder = new StreamsBuilder();
  builder.stream('in', { keySerde: S, valueSerde: S }).groupByKey().count().toStream().mapValues((n) => String(n)).to('out', { keySerde: S, valueSerde: S });
  return { cluster, app: new KafkaStreams(builder.build(), { applicationId, cluster, stateDir }) };
}

describe('KafkaStreams.cleanUp', () => {
  it('is allowed before start and after close (shouldAllowCleanupBeforeStartAndAfterClose); after close it deletes <stateDir>/<applicationId>', async () => {
    const stateDir = mkdtempSync(join(tmpdir(), 'sluice-cleanup-'));
    const { cluster, app } = await countingApp('cleanup-app', stateDir);
    try {
      app.cleanUp();
      await app.start();
      expect(readdirSync(join(stateDir, 'cleanup-app')).sort()).toEqual(['0_0', '0_1']);
    } finally {
      await app.close();
      app.cleanUp();
      await cluster.close();
    }
    expect(existsSync(join(stateDir, 'cleanup-app'))).toBe(false);
    expect(existsSync(stateDir)).toBe(true);
  });

  it('throws while running (shouldThrowOnCleanupWhileRunning) and deletes nothing', async () => {
    const stateDir = mkdtempSync(join(tmpdir(), 'sluice-cleanup-'));
    const { cluster, app } = await countingApp('cleanup-running', stateDir);
    await app.start();
    try {
      expect(() => app.cleanUp()).toThrow(IllegalStateError);
      expect(() => app.cleanUp()).toThrow('KafkaStreams.cleanUp() is only allowed in state CREATED | NOT_RUNNING | ERROR; current state: RUNNING');
      expect(readdirSync(join(stateDir, 'cleanup-running')).sort()).toEqual(['0_0', '0_1']);
    } finally {
      await app.close();
      await cluster.close();
    }
  });
});

describe('StateDirectory.clean', () => {
  it('deletes every task folder and the global one, then the empty application folder', () => {
    const root = mkdtempSync(join(tmpdir(), 'sluice-clean-'));
    const dirs = new StateDirectory({ applicationId: 'app', stateDir: root });
    dirs.getOrCreateDirectoryForTask('0_0');
    dirs.getOrCreateDirectoryForTask('1_2');
    writeFileSync(join(dirs.taskDir('1_2'), 'store'), 'x');
    mkdirSync(join(root, 'app', 'global'));
    expect(dirs.clean()).toEqual(['0_0', '1_2']);
    expect(existsSync(join(root, 'app'))).toBe(false);
  });

  it('keeps the application folder when something else is in it (shouldNotDeleteAppDirWhenCleanUpIfNotEmpty)', () => {
    const root = mkdtempSync(join(tmpdir(), 'sluice-clean-'));
    const dirs = new StateDirectory({ applicationId: 'app', stateDir: root });
    dirs.getOrCreateDirectoryForTask('0_0');
    writeFileSync(join(root, 'app', 'dummy'), '');
    dirs.clean();
    expect(readdirSync(join(root, 'app'))).toEqual(['dummy']);
  });

  it('a task folder another instance holds is refused (STATE_DIR_LOCKED) and kept', () => {
    const root = mkdtempSync(join(tmpdir(), 'sluice-clean-'));
    const holder = new StateDirectory({ applicationId: 'app', stateDir: root });
    holder.lockTask('0_0');
    const other = new StateDirectory({ applicationId: 'app', stateDir: root });
    expect(() => other.clean()).toThrow(/Cannot lock the task state folder/);
    expect(existsSync(holder.taskDir('0_0'))).toBe(true);
    holder.close();
  });
});
