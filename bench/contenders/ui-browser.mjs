/**
 * The browser of the contender "sluice-eos-ui", in its own process (as a
 * user's browser would be: puppeteer's DevTools traffic must not run in the
 * app's process): launches headless chromium, opens the live UI at argv[2],
 * prints `attached` once the page rendered its first snapshot, and stays
 * until its stdin closes (the contender exits or closes it), then closes chromium.
 * Chromium: CHROMIUM_PATH or /usr/bin/chromium, flags as test/helpers/chromium.ts.
 */
/* global document */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer from 'puppeteer-core';

const url = process.argv[2];
const profile = mkdtempSync(join(tmpdir(), 'sluice-bench-chromium-'));
const browser = await puppeteer.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync', `--user-data-dir=${profile}`],
});
const done = async () => {
  await browser.close().catch(() => undefined);
  rmSync(profile, { recursive: true, force: true });
  process.exit(0);
};
process.stdin.on('end', done);
process.stdin.on('close', done);
process.stdin.resume();
const page = await browser.newPage();
await page.setViewport({ width: 1400, height: 1000 });
await page.goto(url);
await page.waitForFunction(() => Number(document.body.getAttribute('data-snapshots') ?? 0) >= 1, { timeout: 30_000 });
process.stdout.write('attached\n');
