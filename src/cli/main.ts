/**
 * Entry point of the `sluice` executable (`bin/sluice.js`).
 */
import { runCli } from './program.js';

const code = await runCli(process.argv.slice(2));
process.exitCode = code;
// The app is closed and the outcome reported: a stray error of a left-over timer must not print a stack trace now.
process.on('uncaughtException', () => undefined);
process.on('unhandledRejection', () => undefined);
// Leave the event loop a moment to flush stdout/stderr, then exit even if a client left a handle open.
setTimeout(() => process.exit(code), 200).unref();
