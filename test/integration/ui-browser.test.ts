/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/**
 * Issue 20 acceptance: the live UI in a real headless browser (Debian's
 * chromium through puppeteer-core). The orders example runs on the embedded
 * cluster with a feeder and a burst of orders; the page must draw one graph
 * node per node of describe(), show changing node rates and lag between
 * snapshots, and list the deserialization handler's decision about a poison
 * record. A screenshot goes to test-output/ui/orders.png.
 * Without chromium the suite is skipped with one line, unless CI or
 * REQUIRE_CHROMIUM is set: then it fails.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'puppeteer-core';
import { buildOrdersTopology } from '../../examples/orders/topology.js';
import { ordersTopics } from '../../examples/orders/topics.js';
import { generateOrders } from '../../examples/orders/generator.js';
import { produceRecords } from '../../examples/orders/io.js';
import { chromiumPath, chromiumRequired, launchChromium, type LaunchedBrowser } from '../helpers/chromium.js';
import { startOrdersWithUi, type OrdersWithUi } from '../helpers/ui-orders.js';

const OUT = fileURLToPath(new URL('../../test-output/ui/', import.meta.url));
const chromium = chromiumPath();
const name = 'live UI in headless chromium';

if (!chromium && chromiumRequired()) {
  describe(name, () => {
    it('needs chromium (CI or REQUIRE_CHROMIUM is set)', () => {
      throw new Error('no chromium at /usr/bin/chromium (or CHROMIUM_PATH): apt-get install chromium');
    });
  });
} else if (!chromium) {
  describe.skip(`${name} [skipped: no chromium installed (apt-get install chromium, or set CHROMIUM_PATH)]`, () => undefined);
} else {
  describe(name, { timeout: 90_000 }, () => {
    let run: OrdersWithUi;
    let browser: LaunchedBrowser;
    let page: Page;
    const pageErrors: string[] = [];

    beforeAll(async () => {
      run = await startOrdersWithUi({ batch: 100, everyMs: 50 });
      browser = await launchChromium();
      page = await browser.browser.newPage();
      page.on('pageerror', (error) => pageErrors.push(String(error)));
      await page.setViewport({ width: 1500, height: 1000 });
      await page.goto(run.ui.url);
    }, 120_000);

    afterAll(async () => {
      await browser?.close();
      await run?.close();
    });

    const snapshots = (): Promise<number> => page.evaluate(() => (window as unknown as { sluiceUi: { snapshots: number } }).sluiceUi.snapshots);
    async function waitSnapshots(atLeast: number): Promise<void> {
      await page.waitForFunction((n: number) => (window as unknown as { sluiceUi: { snapshots: number } }).sluiceUi.snapshots >= n, { timeout: 30_000 }, atLeast);
    }

    it('draws one graph node per node of describe(), grouped by sub-topology', async () => {
      await page.waitForSelector('body[data-graph="drawn"]', { timeout: 30_000 });
      const described = buildOrdersTopology(ordersTopics('')).describe();
      const names = described.subtopologies.flatMap((s) => s.nodes.map((n) => n.name)).sort();
      const drawn = await page.$$eval('[data-node]', (els) => els.map((e) => e.getAttribute('data-node') ?? '').sort());
      expect(drawn).toEqual(names);
      const clusters = await page.$$eval('[data-cluster]', (els) => els.map((e) => e.getAttribute('data-cluster')));
      expect(clusters.sort()).toEqual(described.subtopologies.map((s) => `Sub-topology ${s.id}`).sort());
      expect(await page.$$eval('[data-store]', (els) => els.map((e) => e.getAttribute('data-store')).sort())).toEqual(['customers-store', 'revenue-by-region']);
      expect(await page.$('[data-topic="by-region-repartition"].repartition')).not.toBeNull();
    });

    it('shows live rates and lag that change between snapshots', async () => {
      await waitSnapshots(3);
      const read = () =>
        page.evaluate(() => {
          const ui = (window as unknown as { sluiceUi: { rates: Record<string, number>; series: { lag: number[][] }; last: { totals: { recordsProcessed: number } } } }).sluiceUi;
          const labels = [...document.querySelectorAll('[data-node] text.rate')].map((t) => t.textContent);
          return { rates: { ...ui.rates }, processed: ui.last.totals.recordsProcessed, labels, lag: [...(ui.series.lag[1] ?? [])] };
        });
      const first = await read();
      // a burst of orders: the lag jumps, then drains
      const { records } = generateOrders({ count: 30_000, partitions: 3, seed: 9, idPrefix: 'burst' });
      await produceRecords(run.cluster, run.topics.input, records);
      const seen = await snapshots();
      await waitSnapshots(seen + 4);
      const second = await read();
      expect(second.processed).toBeGreaterThan(first.processed);
      expect(Object.values(second.rates).some((r) => r > 0)).toBe(true);
      expect(second.rates).not.toEqual(first.rates);
      expect(second.labels.some((l) => /^[1-9][\d.]*k?\/s$/.test(l ?? ''))).toBe(true);
      expect(Math.max(...second.lag)).toBeGreaterThan(0);
      expect(new Set(second.lag).size).toBeGreaterThan(1);
    });

    it('lists the handler decision about a poison record', async () => {
      await run.stopFeeding();
      const offset = await run.poison();
      expect(offset).toBeGreaterThan(0);
      const at = `orders-0@${offset}`;
      await page.waitForFunction((coordinates: string) => [...document.querySelectorAll('#decisions tr.decision')].some((tr) => tr.textContent?.includes(coordinates)), { timeout: 30_000 }, at);
      const row = await page.$$eval('#decisions tr.decision', (trs, coordinates) => trs.map((tr) => tr.textContent ?? '').find((t) => t.includes(coordinates)), at);
      for (const part of ['deserialization', 'deadLetterQueueHandler', 'SerializationError', 'CONTINUE', '+1 dead letter']) expect(row).toContain(part);
      expect(await page.$eval('#app-state', (e) => e.textContent)).toBe('RUNNING');
      expect(await page.$$eval('#tasks tbody tr', (trs) => trs.length)).toBe(9);
      mkdirSync(OUT, { recursive: true });
      await page.screenshot({ path: join(OUT, 'orders.png'), fullPage: true });
      expect(pageErrors).toEqual([]);
    });
  });
}
