/**
 * Prints the table of a results file again (e.g. for docs/benchmarks.md).
 * Usage: npx tsx bench/render-results.ts bench/results/<date>.json
 */
import { readFileSync } from 'node:fs';
import { LEGEND } from './lib/report.js';
import type { RunResult } from './lib/result.js';
import { summarise } from './lib/summary.js';

for (const file of process.argv.slice(2)) {
  const parsed = JSON.parse(readFileSync(file, 'utf8')) as { meta: { records?: number; recordSizes?: number[] }; results: RunResult[] };
  console.log(`${file}: ${JSON.stringify(parsed.meta)}\n`);
  // Files of runs before --records took several sizes have `records` only.
  const sizes = parsed.meta.recordSizes ?? (parsed.meta.records !== undefined ? [parsed.meta.records] : []);
  console.log(summarise(parsed.results, sizes).text);
  console.log(`\n${LEGEND}\n`);
  // A FAILED row always comes with its reason.
  for (const r of parsed.results.filter((x) => !x.ok)) console.log(`FAILED ${r.id} round ${r.round}: ${r.reason ?? ''}`);
  for (const r of parsed.results) for (const n of new Set(r.notes ?? [])) console.log(`NOTE ${r.id} round ${r.round}: ${n}`);
}
