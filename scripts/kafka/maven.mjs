// Runs a command (Maven, javac) with its output captured, and picks Maven's error lines out of it:
// one way for every script that fetches jars (scripts/kafka/jars.mjs, scripts/registry/server.mjs,
// scripts/java/wire-producer/build.mjs).
import { spawn } from 'node:child_process';

/** Runs `cmd args`; resolves with its exit code and its output (stdout + stderr, as text). */
export function runCaptured(cmd, args) {
  return new Promise((resolve, reject) => {
    const output = [];
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (d) => output.push(d));
    child.stderr.on('data', (d) => output.push(d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output: Buffer.concat(output).toString('utf8') }));
  });
}

/** The first `max` `[ERROR]` lines of Maven's output, without colours and without its generic advice. */
export function mavenErrors(output, max = 5) {
  return output
    // eslint-disable-next-line no-control-regex -- strip ANSI colours
    .replace(/\x1b\[[0-9;]*m/g, '')
    .split('\n')
    .filter((l) => /^\[ERROR\] \S/.test(l) && !/re-run|For more information|^\[ERROR\] \[Help/i.test(l))
    .slice(0, max)
    .join('\n');
}
