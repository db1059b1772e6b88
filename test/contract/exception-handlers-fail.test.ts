/**
 * Issue #7, acceptance 3 — on the embedded cluster and on real Kafka: with the
 * default production exception handler (FAIL), a poison output of any kind
 * (too large, keyless to a compacted topic, value serializer throwing) aborts
 * the task's transaction and stops the app in ERROR with the send error as the
 * cause, and the exactly-once invariant holds: no output of uncommitted input
 * is visible, no output of committed input is missing or duplicated.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InvalidRecordError, RecordTooLargeError, SerializationError } from '../../src/errors.js';
import { backends, type BackendContext } from './backends.js';
import type { HandlerCase } from './support/handler-case.js';
import { causes, describeOutcome, runFailScenario } from './support/handler-fail.js';
import { MarkedValueError, type Kind } from './support/handler-topology.js';

const CASES: Array<{ kind: Kind; error: new (...args: never[]) => Error; what: string }> = [
  { kind: 'big', error: RecordTooLargeError, what: 'an output over max.message.bytes' },
  { kind: 'nokey', error: InvalidRecordError, what: 'a keyless output to a compacted topic' },
  { kind: 'throw', error: SerializationError, what: 'an output whose value serializer throws' },
];

for (const backend of await backends()) {
  const title = `exception handlers, FAIL (default) on poison outputs: ${backend.name}`;
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

    for (const { kind, error, what } of CASES) {
      it(`${what}: the app ends in ERROR with it as the cause; the exactly-once invariant holds`, async () => {
        const o = await runFailScenario(ctx, `fail-${kind}-${backend.name}`, kind, {}, (x) => (c = x));
        const err = o.app.error as Error & { code?: string; cause?: unknown };
        expect(err.code).toBe('PRODUCTION_FAILED');
        expect(err.cause).toBeInstanceOf(error);
        if (kind === 'throw') expect(causes(err).some((e) => e instanceof MarkedValueError)).toBe(true);
        expect(o.app.metrics().droppedRecords).toBe(0);
        console.info(describeOutcome(`eh-fail ${kind} ${backend.name}`, o));
      });
    }
  });
}
