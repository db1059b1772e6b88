#!/usr/bin/env node
/**
 * The API report: what `sluice` and `sluice/testing` export, as
 * api-extractor sees it in the published declarations (etc/sluice.api.md,
 * etc/sluice-testing.api.md). Any change to the public surface is a visible
 * diff of those files.
 *
 *   node scripts/api-report.mjs           check: fails when the surface differs from the reports
 *   node scripts/api-report.mjs --update  writes the reports (then review the diff)
 *   --dts-dir DIR/dist                    use declarations already built into a folder named dist (skips step 1)
 *
 * Steps:
 * 1. Build the declarations (tsconfig.build.json, stripInternal) into a temporary directory.
 * 2. For each entry point, run api-extractor (api-extractor.json) on its .d.ts:
 *    --update writes the report; check mode compares it with the checked-in one.
 * 3. Say what to do when a report differs, and exit non-zero.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Extractor, ExtractorConfig } from '@microsoft/api-extractor';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
/** Each entry point of package.json "exports" and its report file (etc/<name>.api.md). */
const ENTRIES = [
  { dts: 'index.d.ts', report: 'sluice' },
  { dts: 'testing.d.ts', report: 'sluice-testing' },
];

const args = process.argv.slice(2);
const update = args.includes('--update');
const dtsDirArg = args.indexOf('--dts-dir');
const temp = mkdtempSync(join(tmpdir(), 'sluice-api-'));
let failed = false;
try {
  // 1. Build the declarations.
  let dtsDir = dtsDirArg >= 0 ? resolve(args[dtsDirArg + 1] ?? '') : undefined;
  if (dtsDir && basename(dtsDir) !== 'dist') throw new Error(`--dts-dir must name a folder called dist (the report names files as dist/...): ${dtsDir}`);
  if (!dtsDir) {
    dtsDir = join(temp, 'dist');
    const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    const built = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json', '--outDir', dtsDir, '--emitDeclarationOnly'], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    if (built.status !== 0) throw new Error(`tsc -p tsconfig.build.json failed:\n${built.stdout}${built.stderr}`);
  }

  // 2. One api-extractor run per entry point. The project folder is the one holding dist/ (so the report names
  //    files as dist/..., the same wherever it was built), with the repository's package.json and node_modules beside it.
  const projectFolder = dirname(dtsDir);
  copyFileSync(join(ROOT, 'package.json'), join(projectFolder, 'package.json'));
  if (!existsSync(join(projectFolder, 'node_modules'))) symlinkSync(join(ROOT, 'node_modules'), join(projectFolder, 'node_modules'), 'dir');
  const configObjectFullPath = join(ROOT, 'api-extractor.json');
  const changed = [];
  for (const entry of ENTRIES) {
    const configObject = ExtractorConfig.loadFile(configObjectFullPath);
    configObject.projectFolder = projectFolder;
    configObject.mainEntryPointFilePath = join(dtsDir, entry.dts);
    // Analyse only the entry's declarations (and what they import), not the repository's sources.
    configObject.compiler = { overrideTsconfig: { ...configObject.compiler?.overrideTsconfig, files: [configObject.mainEntryPointFilePath] } };
    configObject.apiReport = { ...configObject.apiReport, reportFolder: join(ROOT, 'etc'), reportFileName: entry.report, reportTempFolder: join(temp, 'report') };
    const config = ExtractorConfig.prepare({ configObject, configObjectFullPath, packageJsonFullPath: join(projectFolder, 'package.json') });
    const result = Extractor.invoke(config, { localBuild: update, showVerboseMessages: false, showDiagnostics: false });
    if (result.apiReportChanged && !update) changed.push(`etc/${entry.report}.api.md`);
    if (!result.succeeded || result.errorCount > 0) failed = true;
  }

  // 3. Tell what to do.
  if (changed.length > 0) {
    console.error(`The public API differs from ${changed.join(', ')}: run npm run api:report and review the diff.`);
    failed = true;
  } else if (update) {
    console.log(`API reports written: ${ENTRIES.map((e) => `etc/${e.report}.api.md`).join(', ')}`);
  } else if (!failed) {
    console.log('API reports up to date.');
  }
} finally {
  rmSync(temp, { recursive: true, force: true });
}
process.exitCode = failed ? 1 : 0;
