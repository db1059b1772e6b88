/**
 * Issue #7, acceptance 2 (same transaction) — on the embedded cluster and on
 * real Kafka: dead-letter records are part of the task's transaction. A
 * handler dead-letters outputs that are too large (CONTINUE) but answers FAIL
 * for a keyless output to the compacted topic. When that FAIL aborts the
 * transaction, the dead letters written in it abort too: a read_committed
 * reader sees a dead letter exactly for each too-large output of committed
 * input, once, and none for uncommitted input (they may be in the log,
 * aborted). A dead letter that cannot be written fails the task like FAIL.
 */
import { expect, it } from 'vitest';
import { InvalidRecordError } from '../../src/errors.js';
import { deadLetterQueueHandler } from '../../src/handlers/dead-letter-queue.js';
import type { ProductionExceptionHandler } from '../../src/handlers/types.js';
import { describeOnEachBackend } from './support/handler-suite.js';
import { HandlerCase } from './support/handler-case.js';
import { describeOutcome, runFailScenario } from './support/handler-fail.js';
import { countByInput, readDeadLetters } from './support/handler-dead-letters.js';
import { mixedKinds, type Kind } from './support/handler-topology.js';

const FIRST = 600;
const SECOND = 600;
/** The keyless output: partition 1, offset 250. */
const NOKEY_AT = FIRST + 3 * 50 + 1;

await describeOnEachBackend(`exception handlers, dead letters commit and abort with their transaction`, (backend, fx) => {

    it('dead letters of an aborted transaction are never visible; those of committed input are, exactly once', async () => {
      const started = Date.now();
      fx.c = await HandlerCase.create(fx.ctx, `dlq-abort-${backend.name}`);
      const dlq = await fx.c.extraTopic('dlq');
      const dead = deadLetterQueueHandler({ topic: dlq, logLevel: 'silent' });
      const handler: ProductionExceptionHandler = {
        handle: (context, record, error) => (error instanceof InvalidRecordError ? 'FAIL' : dead.handle(context, record, error)),
      };
      await fx.c.produce(mixedKinds(0, FIRST, ['big']));
      const app = await fx.c.start({ productionExceptionHandler: handler });
      expect(await fx.c.waitAllCommitted()).toEqual([200, 200, 200]);
      expect(await fx.c.eventually(async () => (await readDeadLetters(fx.ctx, dlq)).length === 30, '30 dead letters of the first phase')).toBe(true);

      await fx.c.produce(mixedKinds(FIRST, SECOND, ['big']).map((k, n): Kind => (FIRST + n === NOKEY_AT ? 'nokey' : k)));
      await fx.c.eventually(() => app.state === 'ERROR', 'app in ERROR');
      expect((app.error as Error & { cause?: unknown }).cause).toBeInstanceOf(InvalidRecordError);
      const { committed, outputs } = await fx.c.checkInvariant();
      expect(committed[1]).toBeLessThanOrEqual(250);

      const big = fx.c.inputs.filter((r) => r.kind === 'big');
      const bigCommitted = big.filter((r) => r.offset < committed[r.partition]!).map((r) => `${r.partition}:${r.offset}`);
      const visible = await fx.c.eventually(async () => {
        const d = await readDeadLetters(fx.ctx, dlq);
        return d.length >= bigCommitted.length && d;
      }, `${bigCommitted.length} dead letters of committed input`);
      const counts = countByInput(visible);
      expect([...counts.keys()].sort()).toEqual([...bigCommitted].sort());
      expect([...counts.values()].every((n) => n === 1)).toBe(true);

      const inLog = await readDeadLetters(fx.ctx, dlq, 'read_uncommitted');
      const aborted = inLog.filter((d) => !counts.has(d.input));
      for (const d of aborted) expect(d.inOffset, `aborted dead letter ${d.input} is of uncommitted input`).toBeGreaterThanOrEqual(committed[d.inPartition]!);
      expect(inLog.length).toBe(visible.length + aborted.length);
      console.info(
        `[eh-dlq-abort ${backend.name}] inputs ${fx.c.inputs.length}, big ${big.length}, committed [${committed.join(',')}], ` +
          `dead letters visible ${visible.length} (== big inputs committed ${bigCommitted.length}), aborted dead letters in log ${aborted.length}, ` +
          `visible outputs ${outputs.length}, ${Date.now() - started} ms`,
      );
    });

    it('a dead letter that cannot be written (keyless to a compacted dead-letter topic) fails the task: ERROR, nothing lost silently', async () => {
      let dlq = '';
      const o = await runFailScenario(
        fx.ctx,
        `dlq-broken-${backend.name}`,
        'nokey',
        {},
        (x) => (fx.c = x),
        async (x) => {
          dlq = await x.extraTopic('dlq', 3, { 'cleanup.policy': 'compact' });
          return { productionExceptionHandler: deadLetterQueueHandler({ topic: dlq, logLevel: 'silent' }) };
        },
      );
      const err = o.app.error as Error & { code?: string; cause?: unknown };
      expect(err.code).toBe('DEAD_LETTER_FAILED');
      expect(err.cause).toBeInstanceOf(InvalidRecordError);
      // The keyless output was "dropped" only on condition its dead letter commits: it never did.
      expect(await readDeadLetters(fx.ctx, dlq)).toEqual([]);
      console.info(describeOutcome(`eh-dlq-broken ${backend.name}`, o));
    });
});
