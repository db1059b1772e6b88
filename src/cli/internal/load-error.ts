/**
 * The one-line reason an app module failed to load. Two cases need more than
 * the error's first line:
 * - tsx/esbuild compile errors: "Transform failed with 1 error:" on the first
 *   line, then `file:line:column: ERROR: reason` lines;
 * - a JavaScript SyntaxError: Node's ESM loader names neither file nor line, so
 *   `node --check` is asked for the location.
 */
import { spawnSync } from 'node:child_process';

const TRANSFORM_FAILED = /^Transform failed with \d+ errors?:?$/;
const ESBUILD_LINE = /^(.+?):(\d+):(\d+): (?:ERROR|error): (.*)$/;

/** `file:line:column: reason` for each compile error in an esbuild-style message (at most three). */
function compileErrors(lines: string[]): string[] {
  return lines
    .map((l) => ESBUILD_LINE.exec(l.trim()))
    .filter((m): m is RegExpExecArray => m !== null)
    .slice(0, 3)
    .map((m) => `${m[1]}:${m[2]}:${m[3]}: ${m[4]}`);
}

/** `file:line` of the first syntax error of a JavaScript file, from `node --check`. */
function syntaxErrorLocation(path: string): string | undefined {
  const result = spawnSync(process.execPath, ['--check', path], { encoding: 'utf8', timeout: 10_000 });
  const match = /^(.+):(\d+)\r?\n/.exec(result.stderr ?? '');
  return match ? `${match[1]}:${match[2]}` : undefined;
}

/** The reason for `Cannot load <module>: <reason>`; `path` is the module's absolute path. */
export function loadErrorReason(error: unknown, path: string): string {
  if (!(error instanceof Error)) return String(error);
  const lines = error.message.split('\n').filter((l) => l.trim() !== '');
  const first = lines[0] ?? error.message;
  if (TRANSFORM_FAILED.test(first.trim())) {
    const found = compileErrors(lines.slice(1));
    return found.length > 0 ? `syntax error at ${found.join('; ')}` : lines.slice(0, 2).join(' ');
  }
  if (error.name === 'SyntaxError' && !/:\d+/.test(first)) {
    const where = syntaxErrorLocation(path);
    if (where) return `SyntaxError at ${where}: ${first}`;
  }
  return first;
}
