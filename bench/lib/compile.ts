/**
 * Compiles the Node contenders (and the sluice sources they import) with tsc
 * into a build folder, so they run as plain JavaScript the
 * way users run sluice, not through tsx's on-the-fly transform (which wraps
 * functions in `__name` helpers that show up in profiles).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Folder of the compiled tree, inside the checkout (`bench/.build`, git-ignored): never under
 * `node_modules`, which several checkouts of one machine may share (git worktrees with a linked
 * `node_modules`), where one checkout's run would overwrite another's compiled sluice.
 */
export const BUILD_DIR_NAME = '.build';

/** The compiled tree's root, or undefined when compiling failed (the caller falls back to tsx). */
export function compileContenders(repoRoot: string, log: (line: string) => void): string | undefined {
  const outDir = join(repoRoot, 'bench', BUILD_DIR_NAME);
  rmSync(outDir, { recursive: true, force: true });
  const tsc = join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc');
  const entries = ['bench/contenders/sluice-app.ts', 'bench/contenders/sluice-app-module.ts', 'bench/contenders/kafkajs-loop.ts', 'bench/contenders/kafkats-flow.ts', 'bench/contenders/sluice-count.ts', 'bench/contenders/sluice-windowed-count.ts', 'bench/contenders/sluice-restore.ts', 'bench/contenders/sluice-versioned-join.ts', 'src/index.ts',
    // loaded by URL, not imported: a stream thread's main module (numStreamThreads on worker threads)
    'src/runtime/internal/stream-thread-main.ts'];
  const args = [tsc, ...entries, '--outDir', outDir, '--rootDir', '.', '--module', 'nodenext', '--moduleResolution', 'nodenext',
    '--target', 'es2022', '--lib', 'es2023', '--types', 'node', '--esModuleInterop', '--skipLibCheck', '--resolveJsonModule', '--noCheck'];
  const began = Date.now();
  const r = spawnSync(process.execPath, args, { cwd: repoRoot, encoding: 'utf8' });
  const ok = existsSync(join(outDir, 'bench', 'contenders', 'sluice-app.js')) && existsSync(join(outDir, 'src', 'index.js'));
  if (!ok) {
    log(`tsc could not compile the contenders (exit ${r.status}); running them through tsx instead\n${(r.stdout ?? '').slice(0, 2000)}`);
    return undefined;
  }
  log(`compiled the Node contenders with tsc in ${((Date.now() - began) / 1000).toFixed(1)} s`);
  return outDir;
}
