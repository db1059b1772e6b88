/// <reference lib="dom" />
/**
 * Preload (`node --import`) for the contender "sluice-eos-ui" (issue 20): the
 * `sluice-eos` contender process unchanged, except that once its app is
 * RUNNING it serves the live UI (`app.serveUi`) and a headless chromium opens
 * the page and stays attached (rendering every SSE snapshot) until the app
 * closes. It wraps `KafkaStreams.prototype.start`/`close` of the very sluice
 * module the contender imports (SLUICE_BENCH_INDEX: src/index.ts, or the
 * compiled index.js), so the pipeline code is the same file as sluice-eos.
 */
import { pathToFileURL } from 'node:url';
import { launchChromium, type LaunchedBrowser } from '../../test/helpers/chromium.js';
import { emit } from './common.js';

interface AppLike {
  serveUi(options: { port: number }): Promise<{ url: string; close(): Promise<void> }>;
}
interface KafkaStreamsClass {
  prototype: { start(this: AppLike): Promise<void>; close(this: AppLike): Promise<void> };
}

const index = process.env['SLUICE_BENCH_INDEX'];
if (!index) throw new Error('ui-attach: SLUICE_BENCH_INDEX must name the sluice index module the contender imports');
const { KafkaStreams } = (await import(pathToFileURL(index).href)) as { KafkaStreams: KafkaStreamsClass };
const start = KafkaStreams.prototype.start;
const close = KafkaStreams.prototype.close;
let browser: LaunchedBrowser | undefined;

KafkaStreams.prototype.start = async function (this: AppLike): Promise<void> {
  await start.call(this);
  const ui = await this.serveUi({ port: 0 });
  browser = await launchChromium();
  const page = await browser.browser.newPage();
  await page.setViewport({ width: 1400, height: 1000 });
  await page.goto(ui.url);
  await page.waitForFunction(() => Number(document.body.getAttribute('data-snapshots') ?? 0) >= 1, { timeout: 30_000 });
  emit('ui-attached', { url: ui.url });
};

KafkaStreams.prototype.close = async function (this: AppLike): Promise<void> {
  await browser?.close();
  browser = undefined;
  await close.call(this);
};
