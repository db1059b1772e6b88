/**
 * Issue #7, acceptance 4 — on the embedded cluster and on real Kafka: an input
 * that cannot be deserialized (invalid JSON for a Json serde) and a record a
 * processor throws on behave as their handler says. CONTINUE skips the record
 * (its offset still commits, every other output is visible once); FAIL (the
 * default) stops the app in ERROR with the exactly-once invariant holding.
 */
import { expect, it } from 'vitest';
import { SerializationError } from '../../src/errors.js';
import { logAndContinueHandler } from '../../src/handlers/log-and-continue.js';
import { describeOnEachBackend } from './support/handler-suite.js';
import { HandlerCase, PARTITIONS } from './support/handler-case.js';
import { causes, describeOutcome, runFailScenario } from './support/handler-fail.js';
import { BoomError, mixedKinds, recording } from './support/handler-topology.js';

const RECORDS = 1200;

await describeOnEachBackend(`exception handlers, poison inputs (deserialization, processing)`, (backend, fx) => {

    it(`CONTINUE: ${RECORDS} inputs with undeserializable and processor-breaking records; those are skipped, their offsets commit, the rest is visible once`, async () => {
      const started = Date.now();
      fx.c = await HandlerCase.create(fx.ctx, `in-cont-${backend.name}`);
      await fx.c.produce(mixedKinds(0, RECORDS, ['badjson', 'boom']));
      const badjson = fx.c.inputs.filter((r) => r.kind === 'badjson');
      const boom = fx.c.inputs.filter((r) => r.kind === 'boom');
      const good = fx.c.goodInputs();
      expect([badjson.length, boom.length, good.length]).toEqual([60, 60, 1080]);

      const deserialization = recording(logAndContinueHandler());
      const processing = recording(logAndContinueHandler());
      const app = await fx.c.start({ deserializationExceptionHandler: deserialization, processingExceptionHandler: processing });
      const committed = await fx.c.waitAllCommitted();
      expect(committed).toEqual([400, 400, 400]);
      const outputs = await fx.c.eventually(async () => {
        const o = await fx.c!.outputs();
        return o.length >= good.length && o;
      }, `${good.length} outputs visible`);
      expect(fx.c.violations(outputs, committed)).toEqual([]);
      expect(outputs).toHaveLength(good.length);

      expect(deserialization.errors).toHaveLength(60);
      expect(new Set(deserialization.errors)).toEqual(new Set([SerializationError.name]));
      expect(processing.errors).toHaveLength(60);
      expect(new Set(processing.errors)).toEqual(new Set([BoomError.name]));
      const m = app.metrics();
      expect(app.state).toBe('RUNNING');
      expect(m).toMatchObject({ recordsProcessed: RECORDS, recordsSkipped: 120, recordsProduced: good.length, droppedRecords: 0, aborts: 0 });
      for (let p = 0; p < PARTITIONS; p++) {
        expect(m.tasks[`0_${p}`]!.recordsSkipped).toBe(fx.c.inputs.filter((r) => r.partition === p && r.kind !== 'good').length);
      }
      console.info(
        `[eh-input-continue ${backend.name}] inputs ${RECORDS}, undeserializable ${badjson.length}, processor throws ${boom.length}, ` +
          `skipped ${m.recordsSkipped}, outputs ${outputs.length}, committed [${committed.join(',')}], commits ${m.commits}, ${Date.now() - started} ms`,
      );
    });

    it('FAIL (default) on an undeserializable input: ERROR with the deserialization error as the cause; the invariant holds', async () => {
      const o = await runFailScenario(fx.ctx, `in-fail-json-${backend.name}`, 'badjson', {}, (x) => (fx.c = x));
      const err = o.app.error as Error & { code?: string; cause?: unknown };
      expect(err.code).toBe('DESERIALIZATION_FAILED');
      expect(err.cause).toBeInstanceOf(SerializationError);
      console.info(describeOutcome(`eh-input-fail badjson ${backend.name}`, o));
    });

    it('FAIL (default) when a processor throws: ERROR with the processor error as the cause; the invariant holds', async () => {
      const o = await runFailScenario(fx.ctx, `in-fail-boom-${backend.name}`, 'boom', {}, (x) => (fx.c = x));
      const err = o.app.error as Error & { code?: string; cause?: unknown };
      expect(err.code).toBe('PROCESSING_FAILED');
      expect(causes(err).some((e) => e instanceof BoomError)).toBe(true);
      console.info(describeOutcome(`eh-input-fail boom ${backend.name}`, o));
    });
});
