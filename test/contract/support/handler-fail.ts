/**
 * The FAIL scenario of the exception-handler contract cases: 600 good inputs
 * are processed and committed first; then 600 more arrive, among them one
 * poison input in partition 1 (its offset 250) and one in partition 2 (its
 * offset 320). The handler under test stops the app; the case then waits for
 * ERROR and checks the exactly-once invariant on what became visible.
 */
import { expect } from 'vitest';
import type { KafkaStreams } from '../../../src/runtime/kafka-streams.js';
import type { KafkaStreamsConfig } from '../../../src/runtime/config.js';
import type { AppState } from '../../../src/runtime/internal/app-state.js';
import type { BackendContext } from '../backends.js';
import { HandlerCase, type InputRecord, type VisibleOutput } from './handler-case.js';
import type { Kind } from './handler-topology.js';

export const FIRST = 600;
export const SECOND = 600;
/** Global indexes of the poison inputs of the second phase: partition 1 offset 250, partition 2 offset 320. */
export const POISON_AT = [FIRST + 3 * 50 + 1, FIRST + 3 * 120 + 2];

/** What a FAIL scenario leaves behind. */
export interface FailOutcome {
  c: HandlerCase;
  app: KafkaStreams;
  states: AppState[];
  poison: InputRecord[];
  committed: number[];
  outputs: VisibleOutput[];
  /** Outputs in the log that are not visible read_committed (aborted). */
  aborted: number;
  ms: number;
}

/**
 * Runs the scenario with poison `kind` and the app `config` (its handlers); the caller closes `c`.
 * Asserts: first phase all committed; the app ends in ERROR; the invariant holds; no poison input is
 * below the committed offset; every partition without poison commits at least its first-phase input.
 */
export async function runFailScenario(
  ctx: BackendContext,
  name: string,
  kind: Kind,
  config: Omit<KafkaStreamsConfig, 'cluster' | 'applicationId'>,
  register: (c: HandlerCase) => void,
  /** Adds to `config` once the case exists (e.g. a handler writing to a topic of the case). */
  more?: (c: HandlerCase) => Promise<Omit<KafkaStreamsConfig, 'cluster' | 'applicationId'>>,
): Promise<FailOutcome> {
  const started = Date.now();
  const c = await HandlerCase.create(ctx, name);
  register(c);
  await c.produce(Array.from({ length: FIRST }, () => 'good' as const));
  const app = await c.start({ ...config, ...(await more?.(c)) });
  const states: AppState[] = [];
  app.state$.subscribe((s) => states.push(s));
  expect(await c.waitAllCommitted()).toEqual([200, 200, 200]);

  await c.produce(Array.from({ length: SECOND }, (_, n): Kind => (POISON_AT.includes(FIRST + n) ? kind : 'good')));
  const poison = c.inputs.filter((r) => r.kind === kind);
  expect(poison.map((r) => `${r.partition}:${r.offset}`)).toEqual(['1:250', '2:320']);

  await c.eventually(() => app.state === 'ERROR', 'app in ERROR');
  const { committed, outputs } = await c.checkInvariant();
  for (const r of poison) expect(r.offset, `poison input ${r.partition}:${r.offset} not committed`).toBeGreaterThanOrEqual(committed[r.partition]!);
  expect(committed[0]).toBeGreaterThanOrEqual(200);
  for (const p of [1, 2]) expect(committed[p]).toBeGreaterThanOrEqual(200);
  expect(states.slice(-2)).toEqual(['PENDING_ERROR', 'ERROR']);
  const all = await c.outputs('read_uncommitted');
  return { c, app, states, poison, committed, outputs, aborted: all.length - outputs.length, ms: Date.now() - started };
}

/** The chain of `cause`s of `error`, outermost first. */
export function causes(error: unknown): unknown[] {
  const chain: unknown[] = [];
  for (let e = error; e !== undefined && e !== null && chain.length < 10; e = (e as { cause?: unknown }).cause) chain.push(e);
  return chain;
}

/** One line of figures for the report. */
export function describeOutcome(tag: string, o: FailOutcome): string {
  const err = o.app.error as (Error & { code?: string }) | undefined;
  return (
    `[${tag}] inputs ${o.c.inputs.length}, poison at ${o.poison.map((r) => `${r.partition}:${r.offset}`).join(',')}, committed [${o.committed.join(',')}], ` +
    `visible outputs ${o.outputs.length} (aborted in log ${o.aborted}), error ${err?.code}: ${err?.message.slice(0, 120)}, ${o.ms} ms`
  );
}
