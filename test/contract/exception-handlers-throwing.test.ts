/**
 * Issue #7, acceptance 5 — on the embedded cluster and on real Kafka: a
 * handler that throws (instead of answering CONTINUE or FAIL) is fatal, in each
 * of the three slots: the app stops in ERROR, `app.error` (code HANDLER_THREW)
 * carries the handler's own error as its `cause`, and the exactly-once
 * invariant holds (also under uncaughtExceptionPolicy RESTART_TASK). The same error is what `app.error` exposes once `state$`
 * emits ERROR (state$ itself emits states only, never errors). A handler
 * answering anything else than CONTINUE/FAIL is fatal the same way.
 */
import { expect, it } from 'vitest';
import type { KafkaStreamsConfig } from '../../src/runtime/config.js';
import { describeOnEachBackend } from './support/handler-suite.js';
import { describeOutcome, runFailScenario } from './support/handler-fail.js';
import type { Kind } from './support/handler-topology.js';

class HandlerBug extends Error {
  override name = 'HandlerBug';
}

type Slot = 'productionExceptionHandler' | 'deserializationExceptionHandler' | 'processingExceptionHandler';
const CASES: Array<{ slot: Slot; kind: Kind; restartTask?: true }> = [
  { slot: 'productionExceptionHandler', kind: 'big' },
  { slot: 'productionExceptionHandler', kind: 'nokey', restartTask: true },
  { slot: 'productionExceptionHandler', kind: 'throw' },
  { slot: 'deserializationExceptionHandler', kind: 'badjson' },
  { slot: 'processingExceptionHandler', kind: 'boom' },
];

await describeOnEachBackend(`exception handlers, a handler that throws`, (backend, fx) => {

    for (const { slot, kind, restartTask } of CASES) {
      const policy = restartTask ? ' (even with uncaughtExceptionPolicy RESTART_TASK)' : '';
      it(`${slot} throwing on a '${kind}' record${policy}: ERROR with the handler's error as the cause; the invariant holds`, async () => {
        const thrown: HandlerBug[] = [];
        const handler = {
          handle: (): never => {
            const bug = new HandlerBug(`handler bug #${thrown.length + 1}`);
            thrown.push(bug);
            throw bug;
          },
        };
        const errorAtError: Array<Error | undefined> = [];
        const config = { [slot]: handler, ...(restartTask ? { uncaughtExceptionPolicy: 'RESTART_TASK' } : {}) } as Omit<KafkaStreamsConfig, 'cluster' | 'applicationId'>;
        const o = await runFailScenario(fx.ctx, `throws-${kind}-${backend.name}`, kind, config, (x) => (fx.c = x));
        o.app.state$.subscribe((s) => s === 'ERROR' && errorAtError.push(o.app.error));
        expect(thrown.length).toBeGreaterThanOrEqual(1);
        const err = o.app.error as Error & { code?: string; cause?: unknown };
        expect(err.code).toBe('HANDLER_THREW');
        expect(thrown).toContain(err.cause);
        expect(err.message).toContain((err.cause as Error).message);
        expect(errorAtError).toEqual([err]);
        expect(o.app.metrics().taskRestarts).toBe(0);
        console.info(describeOutcome(`eh-throwing ${slot} ${kind} ${backend.name}`, o));
      });
    }

    const INVALID: Array<{ slot: Slot; kind: Kind; answer: unknown; shows: RegExp }> = [
      { slot: 'productionExceptionHandler', kind: 'big', answer: 'continue', shows: /'continue'/ },
      { slot: 'deserializationExceptionHandler', kind: 'badjson', answer: Promise.resolve('CONTINUE'), shows: /Promise/ },
      { slot: 'processingExceptionHandler', kind: 'boom', answer: { response: 'SKIP' }, shows: /SKIP/ },
    ];
    for (const { slot, kind, answer, shows } of INVALID) {
      it(`${slot} answering something other than CONTINUE/FAIL on a '${kind}' record: ERROR naming the answer; the invariant holds`, async () => {
        const config = { [slot]: { handle: () => answer } } as Omit<KafkaStreamsConfig, 'cluster' | 'applicationId'>;
        const o = await runFailScenario(fx.ctx, `invalid-${kind}-${backend.name}`, kind, config, (x) => (fx.c = x));
        const err = o.app.error as Error & { code?: string };
        expect(err.code).toBe('INVALID_HANDLER_ANSWER');
        expect(err.message).toMatch(shows);
        expect(err.message).toContain(slot);
      });
    }
});
