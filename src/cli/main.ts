/**
 * Entry point of the `sluice` executable (`bin/sluice.js`).
 */
import { runCli } from './program.js';

const code = await runCli(process.argv.slice(2));
process.exitCode = code;
// Leave the event loop a moment to flush stdout/stderr, then exit even if a client left a handle open.
setTimeout(() => process.exit(code), 200).unref();
