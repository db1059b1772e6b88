/**
 * The contender "sluice-eos-ui" (issue 20: "the orders benchmark with the UI
 * open and a browser attached stays within 5 % of without"): sluice-eos's
 * process, with bench/contenders/ui-attach.mjs preloaded (the live UI served
 * and a headless chromium attached to the page for the whole run).
 * `npm run bench -- --only sluice-eos,sluice-eos-ui` compares the two.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ContenderSpec, Launch, LaunchContext } from './contenders.js';

/** Adds the preload to sluice-eos's launch (`base`). */
export function withUiAttached(ctx: LaunchContext, base: Launch): Launch {
  const attach = join(ctx.benchDir, 'contenders', 'ui-attach.mjs');
  const index = ctx.compiledDir ? join(ctx.compiledDir, 'src', 'index.js') : join(ctx.benchDir, '..', 'src', 'index.ts');
  // the preload is plain JavaScript; under tsx it goes after tsx's own --import (it imports src/index.ts then)
  const preload = ['--import', pathToFileURL(attach).href];
  const tsx = base.args[0] === '--import' && base.args[1] === 'tsx';
  const args = tsx ? [...base.args.slice(0, 2), ...preload, ...base.args.slice(2)] : [...preload, ...base.args];
  return { ...base, args, env: { ...base.env, SLUICE_BENCH_INDEX: index } };
}

/** The spec; `eos()` is the sluice-eos spec it extends (a thunk: both live in the same table). */
export function sluiceEosUi(eos: () => ContenderSpec): ContenderSpec {
  return {
    id: 'sluice-eos-ui',
    label: 'sluice exactly_once + live UI + chromium',
    workload: 'pipeline',
    completion: 'committed',
    launch: (ctx) => withUiAttached(ctx, eos().launch(ctx)),
  };
}
