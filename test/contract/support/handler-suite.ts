/**
 * The frame every exception-handler contract file shares: one `describe` per
 * backend (skipped with its reason when the backend is unavailable), a fresh
 * backend context per test, and the test's HandlerCase closed after it.
 */
import { afterEach, beforeEach, describe } from 'vitest';
import { backends, type Backend, type BackendContext } from '../backends.js';
import type { HandlerCase } from './handler-case.js';

/** Per-test state: the backend context and the case under test (closed after each test). */
export interface HandlerFixture {
  ctx: BackendContext;
  c: HandlerCase | undefined;
}

/** Declares `body` once per backend under `<title>: <backend>` (`kafkaSecure`: also on the kafka-secure backend). */
export async function describeOnEachBackend(title: string, body: (backend: Backend, fx: HandlerFixture) => void, options: { kafkaSecure?: boolean } = {}): Promise<void> {
  for (const backend of await backends(options)) {
    const full = `${title}: ${backend.name}`;
    (backend.skipReason ? describe.skip : describe)(backend.skipReason ? `${full} [skipped: ${backend.skipReason}]` : full, () => {
      const fx = { c: undefined } as HandlerFixture;
      beforeEach(async () => {
        fx.ctx = await backend.create();
      });
      afterEach(async () => {
        await fx.c?.close();
        fx.c = undefined;
        await fx.ctx.close();
      });
      body(backend, fx);
    });
  }
}
