/**
 * Preload (`node --import`) for the contender "sluice-eos-ui" (issue 20): the
 * `sluice-eos` contender process unchanged, except that before its app starts
 * it serves the live UI (`app.serveUi`) and starts ./ui-browser.mjs (headless
 * chromium in its own process, as a user's browser) on the page, waiting until
 * the page rendered its first snapshot; the page stays attached (rendering
 * every SSE snapshot) until the app closes. So the browser is attached for the
 * whole measured run (from the first record on). It wraps
 * `KafkaStreams.prototype.start`/`close` of the very sluice module the
 * contender imports (SLUICE_BENCH_INDEX: src/index.ts under tsx, or the
 * compiled index.js), so the pipeline is the same file as sluice-eos.
 * Plain JavaScript: the compiled contender needs no tsx for it.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';

const index = process.env.SLUICE_BENCH_INDEX;
if (!index) throw new Error('ui-attach: SLUICE_BENCH_INDEX must name the sluice index module the contender imports');
const { KafkaStreams } = await import(pathToFileURL(index).href);
const start = KafkaStreams.prototype.start;
const close = KafkaStreams.prototype.close;
let browser;

function emit(event, extra = {}) {
  process.stdout.write(`BENCH ${JSON.stringify({ event, t: Date.now(), ...extra })}\n`);
}

KafkaStreams.prototype.start = async function () {
  const ui = await this.serveUi({ port: 0 });
  const child = spawn(process.execPath, [fileURLToPath(new URL('./ui-browser.mjs', import.meta.url)), ui.url], { stdio: ['pipe', 'pipe', 'inherit'] });
  browser = child;
  await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d.toString();
      if (out.includes('attached')) resolve();
    });
    child.on('exit', (code) => reject(new Error(`ui-browser exited ${code} before attaching`)));
  });
  emit('ui-attached', { url: ui.url, browserPid: child.pid });
  await start.call(this);
};

KafkaStreams.prototype.close = async function () {
  const child = browser;
  browser = undefined;
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.stdin.end();
    await exited;
  }
  await close.call(this);
};
