/**
 * Issue 12 item 7, library side: a handler answering with a (rejecting)
 * Promise and a `state$` subscriber that throws must not kill the process.
 */
import { config as rxjsConfig, filter, map } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { StreamsError } from '../../../src/errors.js';
import { normalizeHandlerAnswer } from '../../../src/handlers/normalize.js';
import type { ProductionExceptionHandler } from '../../../src/handlers/types.js';
import { uniqueGroup, uniqueTopic, waitFor } from '../../helpers/index.js';
import { captureLogger } from '../handlers/capture-logger.js';
import { Closer, produceN, upperTopology } from './fixtures.js';

const closer = new Closer();
afterEach(() => closer.closeAll());

/** Collects unhandled rejections and rxjs' asynchronous error reports while a test runs. */
const unhandled: unknown[] = [];
const onRejection = (reason: unknown): void => void unhandled.push(reason);
beforeEach(() => {
  unhandled.length = 0;
  process.on('unhandledRejection', onRejection);
  rxjsConfig.onUnhandledError = (error) => void unhandled.push(error);
});
afterEach(() => {
  process.off('unhandledRejection', onRejection);
  rxjsConfig.onUnhandledError = null;
});

const macrotask = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 20));

describe('a handler answering with a Promise', () => {
  it('is a fatal error naming the handler and saying handlers answer synchronously; its rejection is not unhandled', async () => {
    const answer = Promise.reject(new Error('async boom'));
    expect(() => normalizeHandlerAnswer(answer, 'myAsyncHandler')).toThrow(StreamsError);
    expect(() => normalizeHandlerAnswer(answer, 'myAsyncHandler')).toThrow(/^myAsyncHandler returned a Promise: exception handlers must answer synchronously/);
    await macrotask();
    expect(unhandled).toEqual([]);
  });

  it('a thenable whose then() throws is refused the same way', () => {
    const hostile = { then: () => { throw new Error('then'); } };
    expect(() => normalizeHandlerAnswer(hostile, 'h')).toThrow(/must answer synchronously/);
  });

  it('an async production handler that rejects stops the app in ERROR with that error, and nothing is unhandled', async () => {
    const cluster = closer.cluster();
    const input = uniqueTopic('in');
    const output = uniqueTopic('out');
    await cluster.createTopic(input, { partitions: 1 });
    await cluster.createTopic(output, { partitions: 1, config: { 'max.message.bytes': '300' } });
    await cluster.produce(input, [{ key: 'k', value: 'x'.repeat(600), partition: 0 }]);
    const asyncHandler = {
      name: 'asyncHandler',
      handle: async () => {
        throw new Error('rejected inside the handler');
      },
    } as unknown as ProductionExceptionHandler;
    const app = closer.app(upperTopology(input, output), { applicationId: uniqueGroup('app'), cluster, productionExceptionHandler: asyncHandler });
    await app.start();
    await waitFor(() => app.state === 'ERROR');
    expect(app.error?.message).toMatch(/^asyncHandler returned a Promise: exception handlers must answer synchronously/);
    await macrotask();
    expect(unhandled).toEqual([]);
  });
});

describe('app.state$', () => {
  it('a subscriber that throws is logged and ignored; other subscribers and the app keep going', async () => {
    const cluster = closer.cluster();
    const input = uniqueTopic('in');
    const output = uniqueTopic('out');
    await cluster.createTopic(input, { partitions: 1 });
    await cluster.createTopic(output, { partitions: 1 });
    const { logger, lines } = captureLogger();
    const app = closer.app(upperTopology(input, output), { applicationId: uniqueGroup('app'), cluster, logger });
    const seen: string[] = [];
    app.state$.subscribe(() => {
      throw new Error('subscriber boom');
    });
    app.state$.pipe(filter((s) => s === 'RUNNING'), map(() => { throw new Error('operator boom'); })).subscribe(() => undefined);
    app.state$.subscribe({ next: (s) => seen.push(s) });
    await app.start();
    await produceN(cluster, input, 3);
    await waitFor(async () => (await cluster.readCommitted(output)).length === 3);
    await macrotask();
    expect(unhandled).toEqual([]);
    expect(app.state).toBe('RUNNING');
    expect(seen).toEqual(['CREATED', 'REBALANCING', 'RUNNING']);
    const reports = lines.filter((l) => typeof l.msg === 'string' && l.msg.startsWith('a state$ subscriber threw'));
    expect(reports.map((l) => (l.err as { message: string }).message)).toEqual([
      'subscriber boom', // CREATED
      'subscriber boom', // REBALANCING
      'subscriber boom', // RUNNING
      'operator boom',
    ]);
    expect(reports.every((l) => l.level === 50)).toBe(true);
    await app.close();
    expect(app.state).toBe('NOT_RUNNING');
  });

  it('firstValueFrom and plain operator chains still work', async () => {
    const { firstValueFrom } = await import('rxjs');
    const cluster = closer.cluster();
    const app = closer.app(upperTopology('a', 'b'), { applicationId: uniqueGroup('app'), cluster });
    expect(await firstValueFrom(app.state$)).toBe('CREATED');
    const spy = vi.fn();
    app.state$.pipe(map((s) => s.toLowerCase())).subscribe(spy);
    await app.close();
    expect(spy.mock.calls.map((c) => c[0] as string)).toEqual(['created', 'pending_shutdown', 'not_running']);
  });
});
