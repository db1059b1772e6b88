/**
 * The public API is pinned by the api-extractor reports in etc/ (issue 31
 * item 5): the declarations as published must match etc/sluice.api.md and
 * etc/sluice-testing.api.md, so any change to the surface is a reviewed diff.
 * The declarations are built once into a temporary directory; the check runs
 * on them as built, then on a copy with one export added (it must fail).
 */
import { spawn } from 'node:child_process';
import { appendFileSync, cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
const SCRIPT = join(ROOT, 'scripts', 'api-report.mjs');

interface Run {
  code: number | null;
  output: string;
}

function run(args: string[]): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

let temp = '';
let dts = '';
beforeAll(async () => {
  temp = mkdtempSync(join(tmpdir(), 'sluice-api-test-'));
  dts = join(temp, 'dist');
  const built = await run([TSC, '-p', 'tsconfig.build.json', '--outDir', dts, '--emitDeclarationOnly']);
  if (built.code !== 0) throw new Error(`tsc -p tsconfig.build.json failed:\n${built.output}`);
}, 120_000);

afterAll(() => {
  if (temp) rmSync(temp, { recursive: true, force: true });
});

describe('the API report (etc/*.api.md)', () => {
  it('matches the public declarations of sluice and sluice/testing', async () => {
    const check = await run([SCRIPT, '--dts-dir', dts]);
    expect(check.code, `The public API changed: run npm run api:report and review the diff.\n${check.output}`).toBe(0);
    expect(check.output).toContain('API reports up to date.');
    const report = readFileSync(join(ROOT, 'etc', 'sluice.api.md'), 'utf8');
    for (const name of ['class StreamsBuilder', 'class KafkaStreams', 'class TransactionalProducer', 'Serdes']) expect(report).toContain(name);
    expect(readFileSync(join(ROOT, 'etc', 'sluice-testing.api.md'), 'utf8')).toContain('class TopologyTestDriver');
  }, 120_000);

  it('fails, saying to run npm run api:report, when an export is added without updating the report', async () => {
    const changed = join(temp, 'changed');
    cpSync(dts, join(changed, 'dist'), { recursive: true });
    appendFileSync(join(changed, 'dist', 'index.d.ts'), '\n/** An unreviewed addition. */\nexport declare const unreviewedExport: number;\n');
    const check = await run([SCRIPT, '--dts-dir', join(changed, 'dist')]);
    expect(check.code).not.toBe(0);
    expect(check.output).toContain('etc/sluice.api.md: run npm run api:report and review the diff');
    expect(readFileSync(join(ROOT, 'etc', 'sluice.api.md'), 'utf8')).not.toContain('unreviewedExport');
  }, 120_000);
});
