/**
 * Issue 12 item 8: the producer's memory bound (`bufferMemoryBytes`, Java's
 * `buffer.memory`) proven in a child process under a small V8 heap: 1,000,000
 * small sends in one transaction on the embedded cluster (SLUICE_MANY_SENDS
 * lowers it, never under 300,000), one commit, exit 0, every record committed.
 * Without the bound the sends pile up (~1.2 KB of heap each) and the child dies
 * of a V8 out-of-memory error. Most of the remaining heap is the embedded
 * cluster's own log (~325 bytes per record); the heap limit leaves room for it.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const SENDS = Math.max(300_000, Number(process.env.SLUICE_MANY_SENDS ?? 1_000_000));
/** The embedded log keeps ~325 bytes per record; the producer's buffer is bounded at 32 MiB (+ bookkeeping). */
const HEAP_MB = SENDS > 400_000 ? 512 : 256;

describe('producer memory bound (bufferMemoryBytes)', () => {
  it(`${SENDS} small sends in one transaction commit under --max-old-space-size=${HEAP_MB}`, async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', `--max-old-space-size=${HEAP_MB}`, 'test/unit/eos/fixtures/many-sends.ts'], {
      cwd: ROOT,
      env: { ...process.env, SLUICE_MANY_SENDS: String(SENDS), LOG_LEVEL: 'silent' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
    expect(code, `child stderr: ${err.slice(-2_000)}`).toBe(0);
    const result = JSON.parse(out.trim().split('\n').pop()!) as { sent: number; committed: number; failed: number; peakHeapBytes: number; ms: number };
    expect(result).toMatchObject({ sent: SENDS, committed: SENDS, failed: 0 });
    expect(result.peakHeapBytes).toBeLessThan(HEAP_MB * 1024 * 1024);
    console.info(`[buffer-memory] ${SENDS} sends: peak heap ${(result.peakHeapBytes / 2 ** 20).toFixed(0)} MiB, ${result.ms} ms`);
  }, 240_000);
});
