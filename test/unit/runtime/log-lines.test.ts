/**
 * Issue 29 item 11b: the log lines of a dropped record and of a shutdown.
 * A record the user's handler dealt with logs one WARN line (the error's
 * message, no stack; the stack at DEBUG), no line repeats a key (taskId bound
 * twice), and the final "stopped" line names the final state.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { pino, type Logger } from 'pino';
import { logAndContinueHandler } from '../../../src/handlers/log-and-continue.js';
import { uniqueGroup, uniqueTopic, waitFor } from '../../helpers/index.js';
import { Closer, upperTopology } from './fixtures.js';

const closer = new Closer();
afterEach(() => closer.closeAll());

/** A pino logger at debug keeping each raw JSON line (a key bound twice shows in the raw line only). */
function rawLogger(): { logger: Logger; raw: string[]; lines: () => Array<Record<string, unknown>> } {
  const raw: string[] = [];
  const logger = pino({ level: 'debug' }, { write: (s: string) => void raw.push(s) });
  return { logger, raw, lines: () => raw.map((s) => JSON.parse(s) as Record<string, unknown>) };
}

/** The top-level keys of a JSON object line that occur more than once (JSON.parse would hide them). */
function keysRepeated(line: string): string[] {
  const keys: string[] = [];
  let depth = 0;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === '"') {
      let j = i + 1;
      while (line[j] !== '"') j += line[j] === '\\' ? 2 : 1;
      if (depth === 1 && line[j + 1] === ':') keys.push(line.slice(i + 1, j));
      i = j;
    } else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') depth--;
  }
  return keys.filter((k, i) => keys.indexOf(k) !== i);
}

async function dropOne(config: Record<string, unknown>) {
  const cluster = closer.cluster();
  const input = uniqueTopic('in');
  const out = uniqueTopic('out');
  await cluster.createTopic(input, { partitions: 1 });
  await cluster.createTopic(out, { partitions: 1, config: { 'max.message.bytes': '300' } });
  await cluster.produce(input, [{ key: 'k', value: 'x'.repeat(600), partition: 0 }, { key: 'k2', value: 'small', partition: 0 }]);
  const log = rawLogger();
  const app = closer.app(upperTopology(input, out), { applicationId: uniqueGroup('app'), cluster, logger: log.logger, ...config });
  await app.start();
  return { app, log, cluster, out };
}

describe('log lines (issue 29 item 11b)', () => {
  it("a dropped record the handler dealt with: one WARN line with the error's message, the stack at DEBUG only; no key twice", async () => {
    const { app, log, cluster, out } = await dropOne({ productionExceptionHandler: logAndContinueHandler({ logger: pino({ level: 'silent' }) }) });
    await waitFor(async () => (await cluster.readCommitted(out)).length === 1);
    await app.close();
    const lines = log.lines();
    const dropped = lines.filter((l) => String(l.msg).startsWith('Dropped one output record'));
    expect(dropped).toHaveLength(1);
    expect(dropped[0]!.level).toBe(40);
    expect(dropped[0]!.err).toBeUndefined();
    expect(String(dropped[0]!.errorMessage)).not.toBe('');
    expect(JSON.stringify(dropped[0])).not.toContain('    at ');
    const stack = lines.filter((l) => l.level === 20 && (l.err as { stack?: string } | undefined)?.stack !== undefined && l.processorNodeId === dropped[0]!.processorNodeId);
    expect(stack).toHaveLength(1);
    expect(keysRepeated('{"taskId":"0_0","x":{"taskId":1},"taskId":"0_0"}')).toEqual(['taskId']);
    for (const line of log.raw) expect(keysRepeated(line), line).toEqual([]);
    expect(lines.filter((l) => l.taskId !== undefined).length).toBeGreaterThan(0);
    const stopped = lines.filter((l) => l.msg === 'stopped');
    expect(stopped.map((l) => l.state)).toEqual(['NOT_RUNNING']);
  });

  it("an error shutdown's stopped line says ERROR", async () => {
    const { app, log } = await dropOne({});
    await waitFor(() => app.state === 'ERROR');
    expect(log.lines().filter((l) => l.msg === 'stopped').map((l) => l.state)).toEqual(['ERROR']);
  });
});
