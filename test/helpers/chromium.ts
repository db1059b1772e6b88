/**
 * Headless chromium for the live-UI tests, the README screenshot and the
 * benchmark: Debian's /usr/bin/chromium (or CHROMIUM_PATH) driven by
 * puppeteer-core, with the flags this machine's closed network needs and a
 * fresh profile directory per launch. puppeteer-core downloads no browser.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer, { type Browser } from 'puppeteer-core';

/** The chromium binary, or undefined when none is installed. */
export function chromiumPath(): string | undefined {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter((p): p is string => !!p);
  return candidates.find((p) => existsSync(p));
}

/** True when a missing chromium must fail the run (CI, or REQUIRE_CHROMIUM set). */
export function chromiumRequired(): boolean {
  return !!process.env.CI || !!process.env.REQUIRE_CHROMIUM;
}

/** A launched browser; `close()` also deletes its profile directory. */
export interface LaunchedBrowser {
  browser: Browser;
  close(): Promise<void>;
}

/** Launches headless chromium (throws naming the fix when none is installed). */
export async function launchChromium(): Promise<LaunchedBrowser> {
  const executablePath = chromiumPath();
  if (!executablePath) throw new Error('no chromium found: install it (apt-get install chromium) or set CHROMIUM_PATH');
  const profile = mkdtempSync(join(tmpdir(), 'sluice-chromium-'));
  const browser = await puppeteer.launch({
    executablePath,
    headless: true,
    args: [
      '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', `--user-data-dir=${profile}`,
    ],
  });
  return {
    browser,
    close: async () => {
      await browser.close().catch(() => undefined);
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
