/**
 * Issue #7, acceptance 2 — on the embedded cluster and on real Kafka: with the
 * dead-letter-queue handler, every poison output (too large, keyless to a
 * compacted topic, value serializer throwing) is written to the dead-letter
 * topic exactly once, with the headers describing the failure, inside the same
 * transactions as the good outputs: visible read_committed, and no aborted
 * duplicate anywhere in the log (read_uncommitted shows the same records).
 * Undeserializable inputs and records a processor throws on are dead-lettered
 * the same way, with the raw input record.
 */
import { expect, it } from 'vitest';
import { DeadLetterHeaders, deadLetterQueueHandler } from '../../src/handlers/dead-letter-queue.js';
import { describeOnEachBackend } from './support/handler-suite.js';
import { HandlerCase, PARTITIONS } from './support/handler-case.js';
import { countByInput, readDeadLetters } from './support/handler-dead-letters.js';
import { mixedKinds, OUTPUT_POISON, outputTopicOf, STAMP_NODE, type Kind } from './support/handler-topology.js';

const FIRST = 600;
const SECOND = 600;
const ERROR_CLASS: Partial<Record<Kind, string>> = { big: 'RecordTooLargeError', nokey: 'InvalidRecordError', throw: 'SerializationError' };
const STAGE: Partial<Record<Kind, string>> = { big: 'production', nokey: 'production', throw: 'serialization' };

const text = (v: unknown): string | undefined => (v === undefined || v === null ? undefined : Buffer.isBuffer(v) ? v.toString() : String(v));

await describeOnEachBackend(`exception handlers, dead-letter queue for poison outputs`, (backend, fx) => {

    it(`${FIRST + SECOND} inputs: each poison output dead-lettered exactly once with its headers, committed with the good outputs`, async () => {
      const started = Date.now();
      fx.c = await HandlerCase.create(fx.ctx, `dlq-${backend.name}`);
      const dlq = await fx.c.extraTopic('dlq');
      await fx.c.produce(mixedKinds(0, FIRST));
      const app = await fx.c.start({ productionExceptionHandler: deadLetterQueueHandler({ topic: dlq, logLevel: 'silent' }) });
      await fx.c.waitAllCommitted();
      // More input while running: the rest goes through further transactions.
      await fx.c.produce(mixedKinds(FIRST, SECOND));
      const committed = await fx.c.waitAllCommitted();
      expect(committed).toEqual([400, 400, 400]);

      const poison = fx.c.inputs.filter((r) => OUTPUT_POISON.includes(r.kind));
      const good = fx.c.goodInputs();
      expect(poison).toHaveLength(180);

      const dead = await fx.c.eventually(async () => {
        const d = await fx.ctx.read(dlq);
        return d.length >= poison.length && d;
      }, `${poison.length} dead-letter records visible`);
      expect(dead).toHaveLength(poison.length);
      const byCoord = new Map(poison.map((r) => [`${r.partition}:${r.offset}`, r]));
      const seen = new Set<string>();
      for (const d of dead) {
        const h = (name: string) => text(d.headers[name]);
        const where = `${h(DeadLetterHeaders.INPUT_PARTITION)}:${h(DeadLetterHeaders.INPUT_OFFSET)}`;
        const input = byCoord.get(where);
        expect(input, `dead letter for input ${where} is a poison input`).toBeDefined();
        expect(seen.has(where), `dead letter for input ${where} only once`).toBe(false);
        seen.add(where);
        expect(h(DeadLetterHeaders.ERROR_CLASS)).toBe(ERROR_CLASS[input!.kind]);
        expect(h(DeadLetterHeaders.ERROR_MESSAGE)?.length).toBeGreaterThan(0);
        expect(h(DeadLetterHeaders.ERROR_STAGE)).toBe(STAGE[input!.kind]);
        expect(h(DeadLetterHeaders.INPUT_TOPIC)).toBe(fx.c.topics.input);
        expect(h(DeadLetterHeaders.OUTPUT_TOPIC)).toBe(outputTopicOf(fx.c.topics, input!.i, input!.kind));
        expect(h(DeadLetterHeaders.PROCESSOR_NODE)).toMatch(/SINK/);
        expect(h(DeadLetterHeaders.TASK_ID)).toBe(`0_${input!.partition}`);
        expect(h('test.input'), 'original headers kept').toBe(String(input!.i));
        if (input!.kind !== 'throw') {
          // The rejected output's own bytes.
          expect(JSON.parse(d.value!.toString())).toMatchObject({ i: input!.i, kind: input!.kind, src: where });
        } else {
          // No bytes of the output exist: the raw input record, replayable once the serializer is fixed.
          expect(h(DeadLetterHeaders.PAYLOAD)).toBe('input');
          expect(d.value?.toString()).toBe(JSON.stringify({ i: input!.i, kind: 'throw' }));
        }
      }
      expect(seen.size).toBe(poison.length);
      // No aborted duplicates: everything ever appended to the dead-letter topic is committed.
      expect(await fx.ctx.read(dlq, 'read_uncommitted')).toHaveLength(poison.length);

      const outputs = await fx.c.eventually(async () => {
        const o = await fx.c!.outputs();
        return o.length >= good.length && o;
      }, `${good.length} good outputs visible`);
      expect(fx.c.violations(outputs, committed)).toEqual([]);
      expect(outputs).toHaveLength(good.length);

      const metrics = app.metrics();
      expect(app.state).toBe('RUNNING');
      expect(metrics.droppedRecords).toBe(poison.length);
      expect(metrics.recordsProduced).toBe(good.length + poison.length);
      expect(metrics.aborts).toBe(0);
      expect(Object.values(metrics.tasks).reduce((s, t) => s + t.droppedRecords, 0)).toBe(poison.length);
      expect(metrics.tasks).toHaveProperty(['0_0']);
      console.info(
        `[eh-dlq ${backend.name}] inputs ${fx.c.inputs.length} over ${PARTITIONS} partitions, poison ${poison.length}, dead letters ${dead.length} ` +
          `(read_uncommitted ${poison.length}), good outputs ${outputs.length}, dropped ${metrics.droppedRecords}, commits ${metrics.commits}, ${Date.now() - started} ms`,
      );
    });

    it('undeserializable inputs and records a processor throws on: dead-lettered once each with the raw input, their offsets committed', async () => {
      const started = Date.now();
      fx.c = await HandlerCase.create(fx.ctx, `dlq-in-${backend.name}`);
      const dlq = await fx.c.extraTopic('dlq');
      await fx.c.produce(mixedKinds(0, 1200, ['badjson', 'boom']));
      const handler = deadLetterQueueHandler({ topic: dlq, logLevel: 'silent' });
      const app = await fx.c.start({ deserializationExceptionHandler: handler, processingExceptionHandler: handler });
      const committed = await fx.c.waitAllCommitted();
      const poison = fx.c.inputs.filter((r) => r.kind === 'badjson' || r.kind === 'boom');
      expect(poison).toHaveLength(120);
      const letters = await fx.c.eventually(async () => {
        const d = await readDeadLetters(fx.ctx, dlq);
        return d.length >= poison.length && d;
      }, `${poison.length} dead letters`);
      expect(letters).toHaveLength(poison.length);
      const byCoord = new Map(poison.map((r) => [`${r.partition}:${r.offset}`, r]));
      for (const d of letters) {
        const input = byCoord.get(d.input);
        expect(input, `dead letter for ${d.input} is a poison input`).toBeDefined();
        expect(d.header(DeadLetterHeaders.ERROR_STAGE)).toBe(input!.kind === 'badjson' ? 'deserialization' : 'processing');
        expect(d.header(DeadLetterHeaders.ERROR_CLASS)).toBe(input!.kind === 'badjson' ? 'SerializationError' : 'BoomError');
        expect(d.header(DeadLetterHeaders.INPUT_TOPIC)).toBe(fx.c.topics.input);
        expect(d.header(DeadLetterHeaders.PROCESSOR_NODE)).toMatch(input!.kind === 'badjson' ? /SOURCE/ : new RegExp(`^${STAMP_NODE}$`));
        expect(d.key?.toString()).toBe(`k${input!.i}`);
        expect(d.value?.toString()).toBe(input!.kind === 'badjson' ? `not json {${input!.i}` : JSON.stringify({ i: input!.i, kind: 'boom' }));
      }
      expect(countByInput(letters).size).toBe(poison.length);
      expect(await readDeadLetters(fx.ctx, dlq, 'read_uncommitted')).toHaveLength(poison.length);
      const outputs = await fx.c.eventually(async () => {
        const o = await fx.c!.outputs();
        return o.length >= fx.c!.goodInputs().length && o;
      }, 'good outputs visible');
      expect(fx.c.violations(outputs, committed)).toEqual([]);
      expect(app.metrics()).toMatchObject({ recordsSkipped: poison.length, droppedRecords: 0, aborts: 0 });
      console.info(
        `[eh-dlq-input ${backend.name}] inputs ${fx.c.inputs.length}, undeserializable 60, processor throws 60, dead letters ${letters.length}, ` +
          `outputs ${outputs.length}, committed [${committed.join(',')}], ${Date.now() - started} ms`,
      );
    });
});
