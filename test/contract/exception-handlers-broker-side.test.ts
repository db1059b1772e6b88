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
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { logAndContinueHandler } from '../../src/handlers/log-and-continue.js';
import { backends, type BackendContext } from './backends.js';
import { HandlerCase } from './support/handler-case.js';
import { mixedKinds, recording } from './support/handler-topology.js';

const WARMUP = 60;
const RECORDS = 1200;

for (const backend of await backends()) {
  const title = `exception handlers, CONTINUE on poison outputs rejected by the broker: ${backend.name}`;
  (backend.skipReason ? describe.skip : describe)(backend.skipReason ? `${title} [skipped: ${backend.skipReason}]` : title, () => {
    let ctx: BackendContext;
    let c: HandlerCase | undefined;

    beforeEach(async () => {
      ctx = await backend.create();
    });
    afterEach(async () => {
      await c?.close();
      c = undefined;
      await ctx.close();
    });

    it(`topic configs tightened after start: only the culprits of rejected batches are dropped, the rest commits once`, async () => {
      const started = Date.now();
      c = await HandlerCase.create(ctx, `broker-${backend.name}`, { out: {}, compact: {} });
      await c.produce(Array.from({ length: WARMUP }, () => 'good' as const));
      const handler = recording(logAndContinueHandler());
      const app = await c.start({ productionExceptionHandler: handler });
      await c.waitAllCommitted(); // the outputs' topic configs are read and cached by now

      await ctx.admin.alterTopicConfig(c.topics.out, { 'max.message.bytes': '2048' });
      await ctx.admin.alterTopicConfig(c.topics.compact, { 'cleanup.policy': 'compact' });
      await c.eventually(async () => {
        const [out, compact] = [await ctx.admin.describeTopic(c!.topics.out), await ctx.admin.describeTopic(c!.topics.compact)];
        return out.config['max.message.bytes'] === '2048' && compact.config['cleanup.policy'] === 'compact';
      }, 'the new topic configs in effect');

      await c.produce(mixedKinds(WARMUP, RECORDS, ['big', 'nokey']));
      const poison = c.inputs.filter((r) => r.kind !== 'good');
      const good = c.goodInputs();
      expect(poison).toHaveLength(120);
      const committed = await c.waitAllCommitted();
      expect(committed).toEqual([420, 420, 420]);
      const outputs = await c.eventually(async () => {
        const o = await c!.outputs();
        return o.length >= good.length && o;
      }, `${good.length} good outputs visible`);
      expect(c.violations(outputs, committed)).toEqual([]);
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
        `[eh-broker ${backend.name}] inputs ${c.inputs.length}, poison ${poison.length} (big 60, nokey 60), good outputs ${outputs.length}, ` +
          `dropped ${m.droppedRecords} (rejected by the broker: too large ${byBroker('MESSAGE_TOO_LARGE')}, keyless ${byBroker('INVALID_RECORD')}), ` +
          `commits ${m.commits}, ${Date.now() - started} ms`,
      );
    });
  });
}
