/**
 * Takes the README's picture of the live UI: the orders example on the
 * embedded cluster with orders flowing, the page open in headless chromium.
 *
 *   npx tsx scripts/ui-screenshot.ts [out.png]   (default docs/images/ui-orders.png)
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { launchChromium } from '../test/helpers/chromium.js';
import { startOrdersWithUi } from '../test/helpers/ui-orders.js';

const out = process.argv[2] ?? 'docs/images/ui-orders.png';
const run = await startOrdersWithUi({ batch: 150, everyMs: 60 });
const chromium = await launchChromium();
try {
  const page = await chromium.browser.newPage();
  await page.setViewport({ width: 1500, height: 1000, deviceScaleFactor: 1 });
  await page.goto(run.ui.url);
  await new Promise((r) => setTimeout(r, 8000));
  await run.poison();
  await new Promise((r) => setTimeout(r, 6000));
  mkdirSync(dirname(out), { recursive: true });
  await page.screenshot({ path: out, fullPage: true });
  console.log(`wrote ${out} (${run.fed()} orders fed)`);
} finally {
  await chromium.close();
  await run.close();
}
