/**
 * The static files of the page: the two libraries, served from the installed
 * packages (resolved from this module, so it works from src/ under tsx and
 * from the packed dist/), and the page's own HTML, CSS and script (TS modules
 * exporting strings: nothing to copy at build time).
 *
 * - `@dagrejs/dagre` (MIT, ~49 kB minified): layered layout of the topology
 *   graph; the page draws the laid-out graph itself as SVG.
 * - `uplot` (MIT, ~51 kB minified + 2 kB CSS): small canvas time-series charts.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { PAGE_CSS } from './page/page-css.js';
import { PAGE_GRAPH_JS } from './page/page-graph-js.js';
import { PAGE_HTML } from './page/page-html.js';
import { PAGE_MAIN_JS } from './page/page-main-js.js';

/** One servable file. */
export interface Asset {
  readonly type: string;
  /** Read on first use, then kept. */
  body(): Buffer;
}

const JS = 'text/javascript; charset=utf-8';
const CSS = 'text/css; charset=utf-8';

function fromString(type: string, text: string): Asset {
  const bytes = Buffer.from(text, 'utf8');
  return { type, body: () => bytes };
}

function fromFile(type: string, resolvePath: () => string): Asset {
  let bytes: Buffer | undefined;
  return { type, body: () => (bytes ??= readFileSync(resolvePath())) };
}

/** The absolute paths of the library files the page loads (what the packaging test checks). */
export function libraryPaths(): { dagre: string; uplot: string; uplotCss: string } {
  const require = createRequire(import.meta.url);
  // dagre's exports map names no dist file: its CommonJS entry sits next to the browser build
  const dagreDir = dirname(require.resolve('@dagrejs/dagre'));
  return {
    dagre: join(dagreDir, 'dagre.min.js'),
    uplot: require.resolve('uplot/dist/uPlot.iife.min.js'),
    uplotCss: require.resolve('uplot/dist/uPlot.min.css'),
  };
}

/** Path → file, for every static route of the UI server. */
export function uiAssets(): ReadonlyMap<string, Asset> {
  let paths: ReturnType<typeof libraryPaths> | undefined;
  const lib = (): ReturnType<typeof libraryPaths> => (paths ??= libraryPaths());
  return new Map<string, Asset>([
    ['/', fromString('text/html; charset=utf-8', PAGE_HTML)],
    ['/index.html', fromString('text/html; charset=utf-8', PAGE_HTML)],
    ['/ui.css', fromString(CSS, PAGE_CSS)],
    ['/ui-graph.js', fromString(JS, PAGE_GRAPH_JS)],
    ['/ui.js', fromString(JS, PAGE_MAIN_JS)],
    ['/lib/dagre.min.js', fromFile(JS, () => lib().dagre)],
    ['/lib/uPlot.iife.min.js', fromFile(JS, () => lib().uplot)],
    ['/lib/uPlot.min.css', fromFile(CSS, () => lib().uplotCss)],
  ]);
}
