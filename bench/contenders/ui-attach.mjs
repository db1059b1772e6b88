/**
 * Preload (`node --import`) for the contender "sluice-eos-ui" (issue 20): the
 * `sluice-eos` contender process unchanged, except that before its app starts
 * it serves the live UI (`app.serveUi`) and a headless chromium opens the
 * page and waits for its first snapshot; the page stays attached (rendering
 * every SSE snapshot) until the app closes. So the browser is attached for the
 * whole measured run (from the first record on). It wraps
 * `KafkaStreams.prototype.start`/`close` of the very sluice module the
 * contender imports (SLUICE_BENCH_INDEX: src/index.ts under tsx, or the
 * compiled index.js), so the pipeline is the same file as sluice-eos.
 * Plain JavaScript: the compiled contender needs no tsx for it.
 * Chromium: CHROMIUM_PATH or /usr/bin/chromium, flags as test/helpers/chromium.ts.
 */
/* global document */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import puppeteer from 'puppeteer-core';

const index = process.env.SLUICE_BENCH_INDEX;
if (!index) throw new Error('ui-attach: SLUICE_BENCH_INDEX must name the sluice index module the contender imports');
const { KafkaStreams } = await import(pathToFileURL(index).href);
const start = KafkaStreams.prototype.start;
const close = KafkaStreams.prototype.close;
let browser;
let profile;

function emit(event, extra = {}) {
  process.stdout.write(`BENCH ${JSON.stringify({ event, t: Date.now(), ...extra })}\n`);
}

KafkaStreams.prototype.start = async function () {
  const ui = await this.serveUi({ port: 0 });
  profile = mkdtempSync(join(tmpdir(), 'sluice-bench-chromium-'));
  browser = await puppeteer.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', `--user-data-dir=${profile}`],
  });
  const page = await browser.newPage();
  await page.setViewport({ width: 1400, height: 1000 });
  await page.goto(ui.url);
  await page.waitForFunction(() => Number(document.body.getAttribute('data-snapshots') ?? 0) >= 1, { timeout: 30_000 });
  emit('ui-attached', { url: ui.url });
  await start.call(this);
};

KafkaStreams.prototype.close = async function () {
  await browser?.close().catch(() => undefined);
  if (profile) rmSync(profile, { recursive: true, force: true });
  browser = undefined;
  await close.call(this);
};
