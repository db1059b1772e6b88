/**
 * Issue #7, acceptance 1 with poison only the broker can tell — on the
 * embedded cluster and on real Kafka: the output topics' configs are changed
 * after the app read them (max.message.bytes lowered to 2048, cleanup.policy
 * set to compact), so pre-send validation passes and the broker rejects whole
 * batches (MESSAGE_TOO_LARGE, INVALID_RECORD with record_errors). With
 * CONTINUE, only the culprits are dropped (DESIGN.md §4: record errors name
 * them, else batches are split), every innocent record of a rejected batch
 * still commits once, and all input commits.
 */
import { expect, it } from 'vitest';
import { logAndContinueHandler } from '../../src/handlers/log-and-continue.js';
import { describeOnEachBackend } from './support/handler-suite.js';
import { HandlerCase } from './support/handler-case.js';
import { mixedKinds, recording } from './support/handler-topology.js';

const WARMUP = 60;
const RECORDS = 1200;

await describeOnEachBackend(`exception handlers, CONTINUE on poison outputs rejected by the broker`, (backend, fx) => {

    it(`topic configs tightened after start: only the culprits of rejected batches are dropped, the rest commits once`, async () => {
      const started = Date.now();
      fx.c = await HandlerCase.create(fx.ctx, `broker-${backend.name}`, { out: {}, compact: {} });
      await fx.c.produce(Array.from({ length: WARMUP }, () => 'good' as const));
      const handler = recording(logAndContinueHandler());
      const app = await fx.c.start({ productionExceptionHandler: handler });
      await fx.c.waitAllCommitted(); // the outputs' topic configs are read and cached by now

      await fx.ctx.admin.alterTopicConfig(fx.c.topics.out, { 'max.message.bytes': '2048' });
      await fx.ctx.admin.alterTopicConfig(fx.c.topics.compact, { 'cleanup.policy': 'compact' });
      await fx.c.eventually(async () => {
        const [out, compact] = [await fx.ctx.admin.describeTopic(fx.c!.topics.out), await fx.ctx.admin.describeTopic(fx.c!.topics.compact)];
        return out.config['max.message.bytes'] === '2048' && compact.config['cleanup.policy'] === 'compact';
      }, 'the new topic configs in effect');

      await fx.c.produce(mixedKinds(WARMUP, RECORDS, ['big', 'nokey']));
      const poison = fx.c.inputs.filter((r) => r.kind !== 'good');
      const good = fx.c.goodInputs();
      expect(poison).toHaveLength(120);
      const committed = await fx.c.waitAllCommitted();
      expect(committed).toEqual([420, 420, 420]);
      const outputs = await fx.c.eventually(async () => {
        const o = await fx.c!.outputs();
        return o.length >= good.length && o;
      }, `${good.length} good outputs visible`);
      expect(fx.c.violations(outputs, committed)).toEqual([]);
      expect(outputs).toHaveLength(good.length);

      const m = app.metrics();
      expect(app.state).toBe('RUNNING');
      expect(m.droppedRecords).toBe(poison.length);
      expect(Object.values(m.tasks).reduce((s, t) => s + t.droppedRecords, 0)).toBe(poison.length);
      expect(m.aborts).toBe(0);
      const classes = handler.errors.reduce<Record<string, number>>((acc, e) => ({ ...acc, [e]: (acc[e] ?? 0) + 1 }), {});
      expect(classes).toEqual({ RecordTooLargeError: 60, InvalidRecordError: 60 });
      // The broker path ran (not only pre-send validation after a config refresh).
      const byBroker = (code: string) => handler.messages.filter((x) => x.includes('broker rejected') && x.includes(code)).length;
      expect(byBroker('MESSAGE_TOO_LARGE')).toBeGreaterThan(0);
      expect(byBroker('INVALID_RECORD')).toBeGreaterThan(0);
      console.info(
        `[eh-broker ${backend.name}] inputs ${fx.c.inputs.length}, poison ${poison.length} (big 60, nokey 60), good outputs ${outputs.length}, ` +
          `dropped ${m.droppedRecords} (rejected by the broker: too large ${byBroker('MESSAGE_TOO_LARGE')}, keyless ${byBroker('INVALID_RECORD')}), ` +
          `commits ${m.commits}, ${Date.now() - started} ms`,
      );
    });
});
