/**
 * Issue #7, acceptance 3 — on the embedded cluster and on real Kafka: with the
 * default production exception handler (FAIL), a poison output of any kind
 * (too large, keyless to a compacted topic, value serializer throwing) aborts
 * the task's transaction and stops the app in ERROR with the send error as the
 * cause, and the exactly-once invariant holds: no output of uncommitted input
 * is visible, no output of committed input is missing or duplicated. A restart
 * with a CONTINUE handler then completes the work, still exactly once.
 */
import { expect, it } from 'vitest';
import { InvalidRecordError, RecordTooLargeError, SerializationError } from '../../src/errors.js';
import { logAndContinueHandler } from '../../src/handlers/log-and-continue.js';
import { describeOnEachBackend } from './support/handler-suite.js';
import { causes, describeOutcome, runFailScenario } from './support/handler-fail.js';
import { MarkedValueError, type Kind } from './support/handler-topology.js';

const CASES: Array<{ kind: Kind; error: new (...args: never[]) => Error; what: string }> = [
  { kind: 'big', error: RecordTooLargeError, what: 'an output over max.message.bytes' },
  { kind: 'nokey', error: InvalidRecordError, what: 'a keyless output to a compacted topic' },
  { kind: 'throw', error: SerializationError, what: 'an output whose value serializer throws' },
];

await describeOnEachBackend(`exception handlers, FAIL (default) on poison outputs`, (backend, fx) => {

    for (const { kind, error, what } of CASES) {
      it(`${what}: the app ends in ERROR with it as the cause; the exactly-once invariant holds`, async () => {
        const o = await runFailScenario(fx.ctx, `fail-${kind}-${backend.name}`, kind, {}, (x) => (fx.c = x));
        const err = o.app.error as Error & { code?: string; cause?: unknown };
        expect(err.code).toBe('PRODUCTION_FAILED');
        expect(err.cause).toBeInstanceOf(error);
        if (kind === 'throw') expect(causes(err).some((e) => e instanceof MarkedValueError)).toBe(true);
        expect(o.app.metrics().droppedRecords).toBe(0);
        console.info(describeOutcome(`eh-fail ${kind} ${backend.name}`, o));
      });
    }

    it('after FAIL, a restarted app with a CONTINUE handler resumes at the committed offsets: every good output exactly once overall', async () => {
      const o = await runFailScenario(fx.ctx, `fail-restart-${backend.name}`, 'big', {}, (x) => (fx.c = x));
      const restarted = await o.c.start({ productionExceptionHandler: logAndContinueHandler() });
      const committed = await o.c.waitAllCommitted();
      expect(committed).toEqual([400, 400, 400]);
      const good = o.c.goodInputs();
      const outputs = await o.c.eventually(async () => {
        const out = await o.c.outputs();
        return out.length >= good.length && out;
      }, `${good.length} good outputs visible`);
      expect(o.c.violations(outputs, committed)).toEqual([]);
      expect(outputs).toHaveLength(good.length);
      expect(restarted.metrics().droppedRecords).toBe(2);
      expect(restarted.metrics().recordsProcessed).toBe(1200 - o.committed.reduce((a, b) => a + b, 0));
      console.info(`[eh-fail-restart ${backend.name}] first run committed [${o.committed.join(',')}], restart processed ${restarted.metrics().recordsProcessed}, outputs ${outputs.length} (good inputs ${good.length})`);
    });
});
