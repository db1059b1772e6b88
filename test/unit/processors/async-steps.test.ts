/**
 * Async steps per key (issue 33), at the task seam with fake timers: calls of
 * different keys run concurrently up to `concurrency`, calls of one key in
 * input order; outputs per key in input order with their own input's context;
 * backpressure at the bound; the drain before a commit; a rejection or a
 * timeout goes to the processing exception handler.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { asyncFixedKeyProcessor, asyncProcessor, Serdes, type FixedKeyProcessorContext, StreamsBuilder, Topology, ValueMapperWithKey, type ErrorHandlerContext, type ProcessorContext } from '../../../src/index.js';
import { DRIVER_THREAD_ID, TopologyTestDriver } from '../../../src/testing.js';
import { toRuntime } from '../../../src/topology/topology-runtime.js';
import type { OutputRecord, TaskProcessor } from '../../../src/processors/task-contract.js';
import type { HandlerResponse as ProcessingExceptionHandlerResponse } from '../../../src/handlers/types.js';

const S = Serdes.String();
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

interface Sent {
  key: string;
  value: string;
  timestamp: number;
  offset: number;
  headers: Record<string, unknown>;
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

const rec = (key: string, value: string, offset: number, headers: Record<string, Buffer> = {}) => ({
  topic: 'in',
  partition: 0,
  offset,
  key: Buffer.from(key),
  value: Buffer.from(value),
  headers,
  timestamp: 1000 + offset,
});

function taskOf(build: (b: StreamsBuilder) => void, processing: () => ProcessingExceptionHandlerResponse = () => 'FAIL', timeoutMs = 1000) {
  const b = new StreamsBuilder();
  build(b);
  const sent: Sent[] = [];
  const errors: Array<{ value: unknown; message: string; code: unknown; offset: number }> = [];
  const collector = {
    send: (o: OutputRecord, c: ErrorHandlerContext) =>
      void sent.push({ key: String(o.key), value: String(o.value), timestamp: o.timestamp, offset: c.offset, headers: o.headers }),
  };
  const handlers = {
    deserialization: { handle: () => 'FAIL' as const },
    processing: {
      handle: (c: ErrorHandlerContext, r: { value: unknown }, e: Error) => {
        errors.push({ value: r.value, message: e.message, code: (e as { code?: unknown }).code, offset: c.offset });
        return processing();
      },
    },
  };
  const task: TaskProcessor = toRuntime(b.build()).createTask({ subtopology: 0, partition: 0 }, collector, handlers, { asyncCallTimeoutMs: timeoutMs });
  task.init();
  return { task, sent, errors };
}

/** A 20 ms (fake) service: records which calls overlap. */
function service(delay: (value: string) => number = () => 20) {
  const state = { running: 0, peak: 0, perKey: new Map<string, number>(), overlapSameKey: false, calls: [] as string[] };
  const call = async (key: string, value: string): Promise<string> => {
    state.running++;
    state.peak = Math.max(state.peak, state.running);
    const k = (state.perKey.get(key) ?? 0) + 1;
    state.perKey.set(key, k);
    if (k > 1) state.overlapSameKey = true;
    state.calls.push(value);
    await sleep(delay(value));
    state.running--;
    state.perKey.set(key, (state.perKey.get(key) ?? 1) - 1);
    if (value.startsWith('boom')) throw new Error(`service failed for ${value}`);
    return value.toUpperCase();
  };
  return { state, call };
}

describe('mapValuesAsync at the task seam', () => {
  it('runs different keys concurrently up to the bound, one key in input order; outputs keep per-key order and their own input context', async () => {
    const svc = service((v) => (v.endsWith('1') ? 50 : 20)); // the first record of each key is the slow one
    const { task, sent } = taskOf((b) =>
      b
        .stream<string, string>('in', { keySerde: S, valueSerde: S })
        .mapValuesAsync(ValueMapperWithKey.of((k: string, v: string) => svc.call(k, v)), { concurrency: 4 })
        .to('out', { keySerde: S, valueSerde: S }),
    );
    // a1 b1 a2 c1: admitted at once (4 in flight, the second of key a waits behind a1)
    expect(task.process(rec('a', 'a1', 0, { h: Buffer.from('x') }))).toBe('processed');
    expect(task.process(rec('b', 'b1', 1))).toBe('processed');
    expect(task.process(rec('a', 'a2', 2))).toBe('processed');
    expect(task.process(rec('c', 'c1', 3))).toBe('processed');
    expect(svc.state.running).toBe(3); // a2 waits for a1
    // the bound is reached: the fifth record waits for a call to finish (backpressure)
    const fifth = task.process(rec('d', 'd2', 4));
    expect(fifth).toBeInstanceOf(Promise);
    let admitted = false;
    void (fifth as Promise<unknown>).then(() => (admitted = true));
    await vi.advanceTimersByTimeAsync(49);
    expect(admitted).toBe(false);
    await vi.advanceTimersByTimeAsync(1); // a1, b1, c1 finish at 50 ms
    expect(admitted).toBe(true);
    expect(sent).toEqual([]); // outputs go out at the task's next safe point, not from a callback
    await task.pumpAsync?.();
    expect(sent.map((s) => s.value)).toEqual(['A1', 'B1', 'C1']);
    await vi.advanceTimersByTimeAsync(20); // a2 (started at 50) and d2 finish
    await task.drainAsync?.();
    expect(sent.map((s) => s.value)).toEqual(['A1', 'B1', 'C1', 'A2', 'D2']);
    // each output carries its own input's timestamp, headers and offset
    expect(sent.map((s) => [s.value, s.timestamp, s.offset])).toEqual([
      ['A1', 1000, 0],
      ['B1', 1001, 1],
      ['C1', 1003, 3],
      ['A2', 1002, 2],
      ['D2', 1004, 4],
    ]);
    expect(sent[0]?.headers).toEqual({ h: Buffer.from('x') });
    expect(svc.state.peak).toBeLessThanOrEqual(4);
    expect(svc.state.overlapSameKey).toBe(false);
    task.close();
  });

  it('onAsyncSettled: the listener hears each settled call at once (the executor queues a pump then); nothing is forwarded from the callback', async () => {
    const svc = service((v) => (v === 'a1' ? 20 : 30));
    const { task, sent } = taskOf((b) =>
      b
        .stream<string, string>('in', { keySerde: S, valueSerde: S })
        .mapValuesAsync(ValueMapperWithKey.of((k: string, v: string) => svc.call(k, v)), { concurrency: 4 })
        .to('out', { keySerde: S, valueSerde: S }),
    );
    const heard: Array<{ at: number; sentSoFar: number }> = [];
    task.onAsyncSettled?.(() => heard.push({ at: Date.now(), sentSoFar: sent.length }));
    const t0 = Date.now();
    task.process(rec('a', 'a1', 0));
    task.process(rec('b', 'b1', 1));
    await vi.advanceTimersByTimeAsync(20);
    expect(heard.map((h) => h.at - t0)).toEqual([20]); // a1 settled at 20 ms: heard then, not at a later tick
    expect(sent).toEqual([]); // the listener forwards nothing
    await task.pumpAsync?.();
    expect(sent.map((s) => s.value)).toEqual(['A1']);
    await vi.advanceTimersByTimeAsync(10);
    expect(heard.map((h) => [h.at - t0, h.sentSoFar])).toEqual([[20, 0], [30, 1]]);
    task.onAsyncSettled?.(undefined); // removed: no more calls
    task.process(rec('c', 'c1', 2));
    await vi.advanceTimersByTimeAsync(30);
    expect(heard).toHaveLength(2);
    await task.drainAsync?.();
    expect(sent.map((s) => s.value)).toEqual(['A1', 'B1', 'C1']);
    task.close();
  });

  it('200 records over 10 keys with concurrency 8: per-key order kept, at most 8 calls at once, ~25x faster than one at a time', async () => {
    const svc = service();
    const { task, sent } = taskOf((b) =>
      b
        .stream<string, string>('in', { keySerde: S, valueSerde: S })
        .mapValuesAsync(ValueMapperWithKey.of((k: string, v: string) => svc.call(k, v)), { concurrency: 8 })
        .to('out', { keySerde: S, valueSerde: S }),
    );
    const started = Date.now();
    for (let i = 0; i < 200; i++) {
      const outcome = task.process(rec(`k${i % 10}`, `k${i % 10}-${String(i).padStart(3, '0')}`, i));
      if (typeof outcome !== 'string') {
        await vi.advanceTimersByTimeAsync(20);
        await outcome;
      }
    }
    const drained = task.drainAsync?.();
    await vi.advanceTimersByTimeAsync(20);
    await drained;
    const elapsed = Date.now() - started;
    expect(sent).toHaveLength(200);
    for (let k = 0; k < 10; k++) {
      const values = sent.filter((s) => s.key === `k${k}`).map((s) => s.value);
      expect(values).toEqual([...values].sort());
      expect(values).toHaveLength(20);
    }
    expect(svc.state.peak).toBe(8);
    expect(svc.state.overlapSameKey).toBe(false);
    expect(elapsed).toBeLessThanOrEqual((200 * 20) / 8 + 40); // one at a time would take 4000 ms
    task.close();
  });

  it('a rejected call goes to the processing handler: CONTINUE drops only that record', async () => {
    const svc = service();
    const { task, sent, errors } = taskOf(
      (b) =>
        b
          .stream<string, string>('in', { keySerde: S, valueSerde: S })
          .mapValuesAsync(ValueMapperWithKey.of((k: string, v: string) => svc.call(k, v)), { concurrency: 4 })
          .to('out', { keySerde: S, valueSerde: S }),
      () => 'CONTINUE',
    );
    for (const [i, v] of ['a', 'boom', 'c'].entries()) task.process(rec(`k${i}`, v, i));
    const drained = task.drainAsync?.();
    await vi.advanceTimersByTimeAsync(20);
    await drained;
    expect(sent.map((s) => s.value)).toEqual(['A', 'C']);
    expect(errors).toEqual([{ value: 'boom', message: 'service failed for boom', code: undefined, offset: 1 }]);
    task.close();
  });

  it('a rejected call with FAIL fails the task: the drain (so the commit) rejects with PROCESSING_FAILED', async () => {
    const svc = service();
    const { task } = taskOf((b) =>
      b
        .stream<string, string>('in', { keySerde: S, valueSerde: S })
        .mapValuesAsync(ValueMapperWithKey.of((k: string, v: string) => svc.call(k, v)))
        .to('out', { keySerde: S, valueSerde: S }),
    );
    task.process(rec('k', 'boom', 0));
    const drained = task.drainAsync?.();
    const failure = expect(drained).rejects.toMatchObject({ code: 'PROCESSING_FAILED' });
    await vi.advanceTimersByTimeAsync(20);
    await failure;
    task.close();
  });

  it('a call that never settles times out after asyncCallTimeoutMs (ASYNC_CALL_TIMEOUT); the next call of its key then runs', async () => {
    const { task, sent, errors } = taskOf(
      (b) =>
        b
          .stream<string, string>('in', { keySerde: S, valueSerde: S })
          .mapValuesAsync((v: string) => (v === 'hang' ? new Promise<string>(() => undefined) : sleep(5).then(() => v.toUpperCase())))
          .to('out', { keySerde: S, valueSerde: S }),
      () => 'CONTINUE',
      300,
    );
    task.process(rec('k', 'hang', 0));
    task.process(rec('k', 'next', 1));
    await vi.advanceTimersByTimeAsync(299);
    expect(errors).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(errors).toHaveLength(0); // handed to the handler at the next safe point
    await task.pumpAsync?.();
    expect(errors).toEqual([{ value: 'hang', message: expect.stringMatching(/did not settle within asyncCallTimeoutMs \(300 ms\)/), code: 'ASYNC_CALL_TIMEOUT', offset: 0 }]);
    await vi.advanceTimersByTimeAsync(5);
    await task.pumpAsync?.();
    expect(sent.map((s) => s.value)).toEqual(['NEXT']);
    task.close();
  });

  it('the drain before a commit is bounded: calls still running at asyncCallTimeoutMs fail as processing errors', async () => {
    const { task, errors } = taskOf(
      (b) =>
        b
          .stream<string, string>('in', { keySerde: S, valueSerde: S })
          .mapValuesAsync((v: string) => sleep(v === 'slow' ? 250 : 10).then(() => v))
          .to('out', { keySerde: S, valueSerde: S }),
      () => 'CONTINUE',
      300,
    );
    task.process(rec('k', 'slow', 0)); // starts at 0, its own bound is at 300
    await vi.advanceTimersByTimeAsync(200);
    task.process(rec('k', 'slow', 1)); // waits behind offset 0: starts at 250
    const drained = task.drainAsync?.(); // the drain's bound: 200 + 300 = 500 < 250 + 300
    await vi.advanceTimersByTimeAsync(300);
    await drained;
    expect(errors.map((e) => [e.offset, e.code])).toEqual([[1, 'ASYNC_CALL_TIMEOUT']]);
    expect(errors[0]?.message).toMatch(/while the task drained them before a commit/);
    expect(task.drainAsync?.()).toBeUndefined();
    task.close();
  });

  it('close() abandons the calls in flight: nothing of them is forwarded (not committed, they run again)', async () => {
    const svc = service();
    const { task, sent } = taskOf((b) =>
      b
        .stream<string, string>('in', { keySerde: S, valueSerde: S })
        .mapValuesAsync(ValueMapperWithKey.of((k: string, v: string) => svc.call(k, v)))
        .to('out', { keySerde: S, valueSerde: S }),
    );
    task.process(rec('a', 'x', 0));
    task.close();
    await vi.advanceTimersByTimeAsync(50);
    expect(sent).toEqual([]);
  });
});

describe('a failed task', () => {
  it('abandonAsync(): a record waiting for a free slot is released at once, nothing of the calls is forwarded', async () => {
    const { task, sent } = taskOf((b) =>
      b
        .stream<string, string>('in', { keySerde: S, valueSerde: S })
        .mapValuesAsync(() => new Promise<string>(() => undefined), { concurrency: 1 })
        .to('out', { keySerde: S, valueSerde: S }),
    );
    task.process(rec('a', 'x', 0));
    const waiting = task.process(rec('b', 'y', 1));
    expect(waiting).toBeInstanceOf(Promise);
    task.abandonAsync?.();
    await expect(waiting).resolves.toBe('processed');
    expect(task.drainAsync?.()).toBeUndefined();
    expect(sent).toEqual([]);
    task.close();
  });
});

describe('the other async steps', () => {
  it('flatMapValuesAsync, filterAsync and foreachAsync', async () => {
    const seen: string[] = [];
    const { task, sent } = taskOf((b) => {
      const s = b.stream<string, string>('in', { keySerde: S, valueSerde: S });
      s.flatMapValuesAsync(async (v: string) => (await sleep(1), [v, v + v]), { named: 'twice' })
        .filterAsync(async (_k, v) => (await sleep(1), v.length > 1))
        .to('out', { keySerde: S, valueSerde: S });
      s.foreachAsync(async (k, v) => void (await sleep(1), seen.push(`${k}=${v}`)));
    });
    task.process(rec('a', 'x', 0));
    task.process(rec('b', 'yy', 1));
    const drained = task.drainAsync?.();
    await vi.advanceTimersByTimeAsync(5);
    await drained;
    const out = sent.map((s) => `${s.key}=${s.value}@${s.offset}`);
    expect(out.filter((o) => o.startsWith('b'))).toEqual(['b=yy@1', 'b=yyyy@1']); // per key: input order
    expect(out.sort()).toEqual(['a=xx@0', 'b=yy@1', 'b=yyyy@1']);
    expect(seen.sort()).toEqual(['a=x', 'b=yy']);
    task.close();
  });

  it('asyncProcessor: a Processor API processor forwards through the context kept from init, after an await, with its own record metadata', async () => {
    const topology = new Topology()
      .addSource('src', 'in', { keyDeserializer: S, valueDeserializer: S })
      .addProcessor(
        'enrich',
        asyncProcessor<string, string, string, string>(
          () => {
            let ctx: ProcessorContext<string, string>;
            return {
              init: (c) => void (ctx = c),
              async process(r) {
                await sleep(r.value === 'slow' ? 30 : 5);
                ctx.forward(r.withValue(`${r.value}@${ctx.recordMetadata()?.offset}`));
              },
            };
          },
          { concurrency: 2 },
        ),
        'src',
      )
      .addSink('sink', 'out', { keySerializer: S, valueSerializer: S }, 'enrich');
    const sent: string[] = [];
    const task = toRuntime(topology).createTask({ subtopology: 0, partition: 0 }, { send: (o) => void sent.push(String(o.value)) }, {
      deserialization: { handle: () => 'FAIL' },
      processing: { handle: () => 'FAIL' },
    });
    task.init();
    task.process(rec('a', 'slow', 0));
    task.process(rec('b', 'fast', 1));
    const drained = task.drainAsync?.();
    await vi.advanceTimersByTimeAsync(30);
    await drained;
    expect(sent).toEqual(['fast@1', 'slow@0']); // different keys: finishing order
    task.close();
  });

  it('rejects a concurrency that is not a whole number >= 1, naming the option', () => {
    const s = new StreamsBuilder().stream<string, string>('in', { keySerde: S, valueSerde: S });
    expect(() => s.mapValuesAsync((v: string) => v, { concurrency: 0 })).toThrow(/option 'concurrency' must be a whole number >= 1/);
    expect(() => asyncProcessor(() => ({ process() {} }), { concurrency: 1.5 })).toThrow(/concurrency/);
  });

  it('the TopologyTestDriver runs async steps (each record drained before its commit)', async () => {
    const b = new StreamsBuilder();
    b.stream<string, string>('in', { keySerde: S, valueSerde: S })
      .mapValuesAsync(async (v: string) => (await sleep(10), v.toUpperCase()), { concurrency: 8 })
      .to('out', { keySerde: S, valueSerde: S });
    const driver = new TopologyTestDriver(b.build());
    try {
      driver.createInputTopic('in', S, S).pipeValueList(['a', 'b']);
      await vi.advanceTimersByTimeAsync(20);
      await driver.settle();
      expect(driver.createOutputTopic('out', S, S).readValuesToList()).toEqual(['A', 'B']);
    } finally {
      driver.close();
    }
  });

  it('a cache flushed at the commit into an async step: its calls are drained before the commit ends (the driver drains, flushes again)', async () => {
    const b = new StreamsBuilder();
    b.stream<string, string>('in', { keySerde: S, valueSerde: S })
      .groupByKey()
      .count()
      .toStream()
      .mapValuesAsync(async (n: number) => (await sleep(10), `count ${n}`))
      .to('out', { keySerde: S, valueSerde: S });
    const driver = new TopologyTestDriver(b.build(), { statestoreCacheMaxBytes: 1024 * 1024 });
    try {
      const input = driver.createInputTopic('in', S, S);
      input.pipeInput('k', 'x');
      input.pipeInput('k', 'y');
      await vi.advanceTimersByTimeAsync(50);
      await driver.settle();
      expect(driver.createOutputTopic('out', S, S).readValuesToList()).toEqual(['count 1', 'count 2']);
    } finally {
      driver.close();
    }
  });

  it('the TopologyTestDriver: asyncCallTimeoutMs bounds a hanging call; CONTINUE drops that record and counts it', async () => {
    const b = new StreamsBuilder();
    b.stream<string, string>('in', { keySerde: S, valueSerde: S })
      .mapValuesAsync((v: string) => (v === 'hang' ? new Promise<string>(() => undefined) : v))
      .to('out', { keySerde: S, valueSerde: S });
    const codes: unknown[] = [];
    const driver = new TopologyTestDriver(b.build(), {
      asyncCallTimeoutMs: 100,
      processingExceptionHandler: { handle: (_c, _r, e) => (codes.push((e as { code?: unknown }).code), 'CONTINUE') },
    });
    try {
      driver.createInputTopic('in', S, S).pipeValueList(['a', 'hang', 'b']);
      await vi.advanceTimersByTimeAsync(100);
      await driver.settle();
      expect(driver.createOutputTopic('out', S, S).readValuesToList()).toEqual(['a', 'b']);
      expect(codes).toEqual(['ASYNC_CALL_TIMEOUT']);
      const dropped = { name: 'dropped-records-total', group: 'stream-task-metrics', description: 'The total number of dropped records', tags: { 'thread-id': DRIVER_THREAD_ID, 'task-id': '0_0' } };
      expect(driver.metrics().get(dropped)?.metricValue()).toBe(1);
    } finally {
      driver.close();
    }
  });

  it('asyncFixedKeyProcessor: processValues runs as an async step (keys concurrently, one key in order; no repartition)', async () => {
    const b = new StreamsBuilder();
    let running = 0;
    let peak = 0;
    b.stream<string, string>('in', { keySerde: S, valueSerde: S })
      .processValues(
        asyncFixedKeyProcessor<string, string, string>(
          () => {
            let ctx: FixedKeyProcessorContext<string, string>;
            return {
              init: (c) => void (ctx = c),
              async process(r) {
                peak = Math.max(peak, ++running);
                await sleep(10);
                running--;
                ctx.forward(r.withValue(r.value.toUpperCase()));
              },
            };
          },
          { concurrency: 3 },
        ),
      )
      .to('out', { keySerde: S, valueSerde: S });
    const sent: string[] = [];
    const task = toRuntime(b.build()).createTask({ subtopology: 0, partition: 0 }, { send: (o) => void sent.push(`${String(o.key)}=${String(o.value)}`) }, {
      deserialization: { handle: () => 'FAIL' },
      processing: { handle: () => 'FAIL' },
    });
    task.init();
    task.process(rec('a', 'x1', 0));
    task.process(rec('b', 'y1', 1));
    task.process(rec('a', 'x2', 2));
    const drained = task.drainAsync?.();
    await vi.advanceTimersByTimeAsync(20);
    await drained;
    expect(peak).toBe(2); // a and b together; the second a after the first
    expect(sent.filter((s) => s.startsWith('a'))).toEqual(['a=X1', 'a=X2']);
    expect(sent.sort()).toEqual(['a=X1', 'a=X2', 'b=Y1']);
    task.close();
  });

  it('the TopologyTestDriver refuses an asyncCallTimeoutMs Node timers cannot wait (it would fire after 1 ms)', () => {
    const b = new StreamsBuilder();
    b.stream<string, string>('in', { keySerde: Serdes.String(), valueSerde: Serdes.String() }).mapValuesAsync(async (v: string) => v).to('out', { keySerde: Serdes.String(), valueSerde: Serdes.String() });
    expect(() => new TopologyTestDriver(b.build(), { asyncCallTimeoutMs: 2 ** 31 })).toThrow(/'asyncCallTimeoutMs' must be a whole number of milliseconds from 1 to 2147483647 \(Node timers cannot wait longer/);
    expect(() => new TopologyTestDriver(b.build(), { asyncCallTimeoutMs: 0 })).toThrow(/asyncCallTimeoutMs/);
    new TopologyTestDriver(b.build(), { asyncCallTimeoutMs: 2 ** 31 - 1 }).close();
  });
});
