/**
 * Prints the top self-time functions of a V8 CPU profile.
 * Usage: npx tsx bench/profile-summary.ts <file.cpuprofile|dir> [--top N]
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { formatSelfTimes, topSelfTimes } from './lib/cpuprofile.js';

const { values, positionals } = parseArgs({ allowPositionals: true, options: { top: { type: 'string', default: '15' } } });
for (const target of positionals) {
  const files = statSync(target).isDirectory()
    ? readdirSync(target).filter((f) => f.endsWith('.cpuprofile')).map((f) => join(target, f))
    : [target];
  for (const file of files) {
    console.log(`## ${file}\n`);
    console.log(formatSelfTimes(topSelfTimes(file, Number(values.top))));
    console.log('');
  }
}
