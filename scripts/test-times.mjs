#!/usr/bin/env node
/**
 * Per-file durations of a vitest run, from its JSON report (`--reporter=json
 * --outputFile.json=<file>`; .ci/run writes one).
 *
 *   node scripts/test-times.mjs <report.json>            the slowest files and the sum
 *   node scripts/test-times.mjs <report.json> --update   also rewrites test/setup/file-times.json
 *
 * The table orders the files of a run (longest first, test/setup/sequencer.ts) and decides
 * which unit files run isolated (test/setup/file-times.ts): refresh it from a clean-clone CI
 * run when files are added or their durations change a lot.
 *
 * Steps: 1. read the report; 2. seconds per file, relative to the repository; 3. print the
 * slowest and the sum; 4. with --update, merge into the table (files of the report replace
 * their entries; files gone from the repository are dropped) and write it sorted by path.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const TABLE = join(ROOT, 'test', 'setup', 'file-times.json');

const [reportPath, ...flags] = process.argv.slice(2);
if (!reportPath) {
  console.error('usage: node scripts/test-times.mjs <vitest-report.json> [--update]');
  process.exit(2);
}
// 1.
const report = JSON.parse(readFileSync(reportPath, 'utf8'));
// 2.
const measured = Object.fromEntries(
  report.testResults.map((r) => [relative(ROOT, r.name).split(sep).join('/'), Math.round((r.endTime - r.startTime) / 100) / 10]),
);
// 3.
const slowest = Object.entries(measured).sort((a, b) => b[1] - a[1]);
for (const [file, seconds] of slowest.slice(0, 15)) console.log(`${seconds.toFixed(1).padStart(7)} s  ${file}`);
const sum = slowest.reduce((n, [, s]) => n + s, 0);
console.log(`${slowest.length} files, ${sum.toFixed(0)} s in all`);
// 4.
if (flags.includes('--update')) {
  const table = { ...JSON.parse(readFileSync(TABLE, 'utf8')), ...measured };
  const kept = Object.entries(table).filter(([file]) => existsSync(join(ROOT, file))).sort((a, b) => (a[0] < b[0] ? -1 : 1));
  writeFileSync(TABLE, `{\n${kept.map(([file, s]) => `  ${JSON.stringify(file)}: ${s}`).join(',\n')}\n}\n`);
  console.log(`updated ${relative(ROOT, TABLE)} (${kept.length} files)`);
}
