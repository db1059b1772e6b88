import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { LmdbKeyValueBytesStore } from '../../../src/state/lmdb/lmdb-key-value-bytes-store.js';
import { storeContext, tempStateDir } from './helpers.js';

const WRITER = fileURLToPath(new URL('./fixtures/lmdb-writer.ts', import.meta.url));

/** Runs the writer until it reported `minCommits` more commits, waits a random moment and SIGKILLs it; returns the last commit it reported. */
async function runAndKill(stateDir: string, minCommits: number): Promise<number> {
  const child = spawn(process.execPath, ['--import', 'tsx', WRITER, stateDir], { stdio: ['ignore', 'pipe', 'inherit'] });
  let reported: number[] = [];
  await new Promise<void>((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code) => reject(new Error(`writer exited by itself (code ${String(code)})`)));
    child.stdout.setEncoding('utf8');
    let buffered = '';
    child.stdout.on('data', (chunk: string) => {
      buffered += chunk;
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      reported = reported.concat(lines.map((l) => Number(l.split(' ')[1])));
      if (reported.length >= minCommits) resolve();
    });
  });
  child.removeAllListeners('exit');
  await new Promise((r) => setTimeout(r, Math.random() * 20));
  const exited = new Promise((r) => child.on('exit', r));
  child.kill('SIGKILL');
  await exited;
  return reported[reported.length - 1] ?? 0;
}

describe('lmdb bytes store: a SIGKILL leaves data and checkpoint together', () => {
  const { dir, cleanup } = tempStateDir();
  afterAll(cleanup);

  it('after each kill the reopened store holds exactly the state its checkpoint names, at least the last reported commit', async () => {
    for (let kill = 0; kill < 3; kill++) {
      const lastReported = await runAndKill(dir, 30);
      const store = new LmdbKeyValueBytesStore('killed');
      store.init(storeContext(dir));
      const checkpoint = store.checkpoint();
      expect(checkpoint).toBeDefined();
      // a committed lmdb transaction survives the kill of the process
      expect(checkpoint).toBeGreaterThanOrEqual(lastReported);
      // the data is that of the checkpoint's round: never a half-applied or uncommitted round
      const values = new Set(store.range(null, null).map((e) => e.value.readUInt32BE(0)));
      expect([...values]).toEqual([checkpoint]);
      expect(store.approximateNumEntries()).toBe(50);
      store.close();
    }
  }, 120_000);
});
