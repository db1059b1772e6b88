/**
 * Issue #7, acceptance 1 — on the embedded cluster and on real Kafka: with the
 * production exception handler answering CONTINUE (log-and-continue), poison
 * outputs of every kind (too large, keyless to a compacted topic, value
 * serializer throwing) are dropped one by one while every other output of the
 * same transactions commits, once, together with all input offsets (and, under
 * at_least_once, every good output is written and all input committed).
 */
import { expect, it } from 'vitest';
import { logAndContinueHandler } from '../../src/handlers/log-and-continue.js';
import { describeOnEachBackend } from './support/handler-suite.js';
import { HandlerCase, PARTITIONS } from './support/handler-case.js';
import { mixedKinds, OUTPUT_POISON, recording } from './support/handler-topology.js';

const RECORDS = 1200;

// Also on kafka-secure (SASL_SSL, least-privilege app principal): part of the exactly-once core run over TLS.
await describeOnEachBackend(`exception handlers, CONTINUE on poison outputs`, (backend, fx) => {

    it(`${RECORDS} inputs over ${PARTITIONS} partitions: exactly the good outputs visible once, all input committed, every poison output dropped and counted`, async () => {
      const started = Date.now();
      fx.c = await HandlerCase.create(fx.ctx, `cont-${backend.name}`);
      await fx.c.produce(mixedKinds(0, RECORDS));
      const poison = fx.c.inputs.filter((r) => OUTPUT_POISON.includes(r.kind));
      const good = fx.c.goodInputs();
      expect(poison.length).toBe(180); // 60 of each kind
      for (const kind of OUTPUT_POISON) expect(poison.filter((r) => r.kind === kind)).toHaveLength(60);
      for (let p = 0; p < PARTITIONS; p++) expect(poison.some((r) => r.partition === p)).toBe(true);

      const handler = recording(logAndContinueHandler());
      const app = await fx.c.start({ productionExceptionHandler: handler });
      const committed = await fx.c.waitAllCommitted();
      expect(committed).toEqual([400, 400, 400]);

      const outputs = await fx.c.eventually(async () => {
        const o = await fx.c!.outputs();
        return o.length >= good.length && o;
      }, `${good.length} good outputs visible`);
      expect(fx.c.violations(outputs, committed)).toEqual([]);
      expect(outputs).toHaveLength(good.length);
      expect(new Set(outputs.map((o) => o.value.i))).toEqual(new Set(good.map((r) => r.i)));

      const classes = handler.errors.reduce<Record<string, number>>((m, e) => ({ ...m, [e]: (m[e] ?? 0) + 1 }), {});
      expect(classes).toEqual({ RecordTooLargeError: 60, InvalidRecordError: 60, SerializationError: 60 });
      const metrics = app.metrics();
      expect(app.state).toBe('RUNNING');
      expect(metrics.droppedRecords).toBe(poison.length);
      expect(metrics.recordsProcessed).toBe(RECORDS);
      expect(metrics.recordsProduced).toBe(good.length);
      expect(metrics.aborts).toBe(0);
      const tasks = Object.entries(metrics.tasks);
      expect(tasks.map(([id]) => id).sort()).toEqual(['0_0', '0_1', '0_2']);
      expect(tasks.reduce((sum, [, t]) => sum + t.droppedRecords, 0)).toBe(poison.length);
      for (const [id, t] of tasks) {
        const p = Number(id.split('_')[1]);
        expect(t.droppedRecords, `dropped by task ${id}`).toBe(poison.filter((r) => r.partition === p).length);
      }
      console.info(
        `[eh-continue ${backend.name}] inputs ${RECORDS}, poison ${poison.length} (big/nokey/throw 60 each), good outputs ${outputs.length}, ` +
          `dropped ${metrics.droppedRecords} (per task ${tasks.map(([id, t]) => `${id}:${t.droppedRecords}`).join(' ')}), ` +
          `commits ${metrics.commits}, ${Date.now() - started} ms`,
      );
    });

    it('transactions holding only poison outputs (one kind per partition) still commit their input offsets; nothing is visible', async () => {
      fx.c = await HandlerCase.create(fx.ctx, `cont-only-${backend.name}`);
      // i % 3 is the partition: partition 0 gets only too-large outputs, 1 only keyless ones, 2 only unserializable ones.
      await fx.c.produce(Array.from({ length: 30 }, (_, i) => OUTPUT_POISON[i % 3]!));
      const app = await fx.c.start({ productionExceptionHandler: logAndContinueHandler() });
      expect(await fx.c.waitAllCommitted()).toEqual([10, 10, 10]);
      expect(app.metrics()).toMatchObject({ droppedRecords: 30, recordsProduced: 0, recordsProcessed: 30, aborts: 0 });
      for (let p = 0; p < PARTITIONS; p++) expect(app.metrics().tasks[`0_${p}`]!.droppedRecords).toBe(10);
      expect(await fx.c.outputs('read_uncommitted')).toEqual([]);
      expect(app.state).toBe('RUNNING');
    });

    it('at_least_once: CONTINUE drops the poison outputs, every good output is written, all input committed', async () => {
      fx.c = await HandlerCase.create(fx.ctx, `cont-alos-${backend.name}`);
      await fx.c.produce(mixedKinds(0, RECORDS));
      const good = fx.c.goodInputs();
      const app = await fx.c.start({ processingGuarantee: 'at_least_once', productionExceptionHandler: logAndContinueHandler() });
      expect(await fx.c.waitAllCommitted()).toEqual([400, 400, 400]);
      const outputs = await fx.c.eventually(async () => {
        const o = await fx.c!.outputs('read_uncommitted');
        return o.length >= good.length && o;
      }, `${good.length} good outputs written`);
      expect(fx.c.violations(outputs, [400, 400, 400])).toEqual([]);
      expect(app.metrics()).toMatchObject({ droppedRecords: 180, recordsProcessed: RECORDS });
      expect(app.state).toBe('RUNNING');
    });

    // retry: 1. Once in ~15 clean-clone CIs (kafka-secure backend, before the state assertion printed the
    // apps' errors) the first instance ended in ERROR; not reproduced in 35 runs since. A failed attempt prints
    // both apps' errors to stderr (below) so the CI log keeps the cause while a second attempt runs.
    it('two instances sharing the tasks, input arriving while the second joins: good outputs exactly once, every poison output dropped', { retry: 1 }, async () => {
      const started = Date.now();
      fx.c = await HandlerCase.create(fx.ctx, `cont-two-${backend.name}`);
      await fx.c.produce(mixedKinds(0, 600));
      const first = await fx.c.start({ productionExceptionHandler: logAndContinueHandler() });
      const joining = fx.c.start({ productionExceptionHandler: logAndContinueHandler() });
      await fx.c.produce(mixedKinds(600, 600));
      const second = await joining;
      const committed = await fx.c.waitAllCommitted();
      expect(committed).toEqual([400, 400, 400]);
      const good = fx.c.goodInputs();
      const outputs = await fx.c.eventually(async () => {
        const o = await fx.c!.outputs();
        return o.length >= good.length && o;
      }, `${good.length} good outputs visible`);
      expect(fx.c.violations(outputs, committed)).toEqual([]);
      expect(outputs).toHaveLength(good.length);
      const [m1, m2] = [first.metrics(), second.metrics()];
      // A task migrating with an open transaction aborts it and the new owner drops those poison outputs again.
      expect(m1.droppedRecords + m2.droppedRecords).toBeGreaterThanOrEqual(180);
      const errors = `errors: ${String(first.error?.stack ?? first.error)} / ${String(second.error?.stack ?? second.error)}`;
      if (first.state !== 'RUNNING' || second.state !== 'RUNNING') process.stderr.write(`[eh-continue-two ${backend.name}] states ${first.state}/${second.state}; ${errors}\n`);
      expect([first.state, second.state], errors).toEqual(['RUNNING', 'RUNNING']);
      console.info(
        `[eh-continue-two ${backend.name}] inputs 1200, poison 180, outputs ${outputs.length}, dropped ${m1.droppedRecords}+${m2.droppedRecords}, ` +
          `aborts ${m1.aborts}+${m2.aborts}, rebalances ${m1.rebalances}+${m2.rebalances}, ${Date.now() - started} ms`,
      );
    });
}, { kafkaSecure: true });
