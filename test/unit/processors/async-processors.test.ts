/**
 * Async processors (issue 12 item 1): a returned promise is honoured, in
 * order; a rejection goes to the processing exception handler like a throw;
 * forward() outside processing throws an IllegalStateError naming the processor.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  IllegalStateError,
  Record,
  Serdes,
  StreamsBuilder,
  StreamsError,
  Topology,
  type Processor,
  type ProcessorContext,
} from '../../../src/index.js';
import { TopologyTestDriver } from '../../../src/testing.js';
import { toRuntime } from '../../../src/topology/topology-runtime.js';

const S = Serdes.String();
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
let driver: TopologyTestDriver | undefined;
afterEach(async () => {
  await driver?.settle().catch(() => undefined);
  driver?.close();
  driver = undefined;
});

function single(make: () => Processor<string, string, string, string>): Topology {
  return new Topology()
    .addSource('src', 'in', { keyDeserializer: S, valueDeserializer: S })
    .addProcessor('enrich', make, 'src')
    .addSink('sink', 'out', { keySerializer: S, valueSerializer: S }, 'enrich');
}

/** Awaits a timer (as a database lookup would), then forwards the upper-cased value. */
function asyncUpper(log: string[] = []): () => Processor<string, string, string, string> {
  return () => {
    let ctx: ProcessorContext<string, string>;
    let running = 0;
    return {
      init: (c) => void (ctx = c),
      async process(r) {
        running++;
        log.push(`start ${r.value} (running ${running})`);
        await sleep(r.value === 'slow' ? 30 : 2);
        ctx.forward(r.withValue(r.value.toUpperCase()));
        if (r.value === 'boom') throw new Error('lookup failed');
        running--;
        log.push(`end ${r.value}`);
      },
    };
  };
}

describe('async processors through the TopologyTestDriver', () => {
  it('awaits each promise in order: the next record starts only after the previous settled; outputs keep input order', async () => {
    const log: string[] = [];
    driver = new TopologyTestDriver(single(asyncUpper(log)));
    const input = driver.createInputTopic('in', S, S);
    const out = driver.createOutputTopic('out', S, S);
    input.pipeInput('a', 'slow');
    input.pipeInput('b', 'fast');
    expect(() => out.readValuesToList()).toThrow(IllegalStateError);
    expect(() => out.isEmpty()).toThrow(/await driver.settle\(\)/);
    await driver.settle();
    expect(out.readKeyValuesToList()).toEqual([
      { key: 'a', value: 'SLOW' },
      { key: 'b', value: 'FAST' },
    ]);
    expect(log).toEqual(['start slow (running 1)', 'end slow', 'start fast (running 1)', 'end fast']);
  });

  it('a rejection goes to the processing handler: CONTINUE skips that record (its earlier forward stays), the rest goes on', async () => {
    const seen: string[] = [];
    driver = new TopologyTestDriver(single(asyncUpper()), {
      processingExceptionHandler: { handle: (c, r, e) => (seen.push(`${c.processorNodeId} ${String(r.value)} ${e.message} @${c.offset}`), 'CONTINUE') },
    });
    const input = driver.createInputTopic('in', S, S);
    input.pipeValueList(['x', 'boom', 'y']);
    await driver.settle();
    expect(seen).toEqual(['enrich boom lookup failed @1']);
    expect(driver.createOutputTopic('out', S, S).readValuesToList()).toEqual(['X', 'BOOM', 'Y']);
  });

  it('a rejection with FAIL fails like a throw: settle() rejects with the cause; queued records are not processed; the driver goes on after', async () => {
    driver = new TopologyTestDriver(single(asyncUpper()));
    const input = driver.createInputTopic('in', S, S);
    const out = driver.createOutputTopic('out', S, S);
    input.pipeValueList(['boom', 'queued']);
    const error = await driver.settle().then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(StreamsError);
    expect((error as StreamsError).code).toBe('PROCESSING_FAILED');
    expect((error as Error).message).toMatch(/Processor 'enrich' failed in task 0_0 on record in-0@0 \(handler answered FAIL\): lookup failed/);
    expect(out.readValuesToList()).toEqual(['BOOM']); // forwarded before the throw, as a synchronous processor's would be
    input.pipeValue('after');
    await driver.settle();
    expect(out.readValuesToList()).toEqual(['AFTER']);
  });

  it('an unreported async failure is thrown by the next pipe and by close(), never lost', async () => {
    driver = new TopologyTestDriver(single(asyncUpper()));
    const input = driver.createInputTopic('in', S, S);
    input.pipeValue('boom');
    await sleep(20);
    expect(() => input.pipeValue('next')).toThrow(/lookup failed/);
    input.pipeValue('boom');
    await sleep(20);
    const d = driver;
    driver = undefined;
    expect(() => d.close()).toThrow(/lookup failed/);
  });

  it('forward() after process() returned (from a timer) throws an IllegalStateError naming the processor', async () => {
    const late: unknown[] = [];
    driver = new TopologyTestDriver(
      single(() => {
        let ctx: ProcessorContext<string, string>;
        return {
          init: (c) => void (ctx = c),
          process(r) {
            setTimeout(() => {
              try {
                ctx.forward(r);
              } catch (error) {
                late.push(error);
              }
            }, 1);
          },
        };
      }),
    );
    driver.createInputTopic('in', S, S).pipeValue('v');
    await sleep(20);
    expect(late).toHaveLength(1);
    expect(late[0]).toBeInstanceOf(IllegalStateError);
    expect((late[0] as Error).message).toMatch(/Processor 'enrich' of task 0_0 called forward\(\) while it is not processing: forward is only allowed during process\(\)/);
    expect(driver.createOutputTopic('out', S, S).isEmpty()).toBe(true);
  });

  it('forward() after the promise of process() settled throws too; forward() in init() throws', async () => {
    let ctx: ProcessorContext<string, string>;
    const errors: string[] = [];
    driver = new TopologyTestDriver(
      single(() => ({
        init(c) {
          ctx = c;
          try {
            c.forward(new Record('k', 'v', 0));
          } catch (error) {
            errors.push((error as Error).message);
          }
        },
        async process() {
          await sleep(1);
        },
      })),
    );
    driver.createInputTopic('in', S, S).pipeValue('v');
    await driver.settle();
    expect(() => ctx.forward(new Record('k', 'late', 1))).toThrow(IllegalStateError);
    expect(errors).toEqual([expect.stringMatching(/Processor 'enrich' .* called forward\(\) while it is not processing/)]);
  });

  it('a synchronous parent forwarding to an async child: later forwards wait, so the order is the synchronous one', async () => {
    const t = new Topology()
      .addSource('src', 'in', { keySerde: S, valueSerde: S })
      .addProcessor(
        'fan',
        () => {
          let ctx: ProcessorContext<string, string>;
          return {
            init: (c: ProcessorContext<string, string>) => void (ctx = c),
            process(r: Record<string, string>) {
              ctx.forward(r.withValue(`${r.value}-1`), 'slow');
              ctx.forward(r.withValue(`${r.value}-2`), 'direct');
            },
          };
        },
        'src',
      )
      .addProcessor(
        'slow',
        () => {
          let ctx: ProcessorContext<string, string>;
          return {
            init: (c: ProcessorContext<string, string>) => void (ctx = c),
            async process(r: Record<string, string>) {
              await sleep(5);
              ctx.forward(r);
            },
          };
        },
        'fan',
      )
      .addSink('direct', 'out', { keySerde: S, valueSerde: S }, 'fan')
      .addSink('sink', 'out', { keySerde: S, valueSerde: S }, 'slow');
    driver = new TopologyTestDriver(t);
    driver.createInputTopic('in', S, S).pipeValueList(['a', 'b']);
    await driver.settle();
    expect(driver.createOutputTopic('out', S, S).readValuesToList()).toEqual(['a-1', 'a-2', 'b-1', 'b-2']);
  });

  it('async punctuators are awaited and may forward until they settle', async () => {
    driver = new TopologyTestDriver(
      single(() => ({
        init(c) {
          c.schedule(100, 'WALL_CLOCK_TIME', async (ts) => {
            await sleep(2);
            c.forward(new Record('tick', String(ts), ts));
          });
        },
        process() {},
      })),
      { initialWallClockTimeMs: 0 },
    );
    driver.advanceWallClockTime(100);
    driver.advanceWallClockTime(100);
    await driver.settle();
    expect(driver.createOutputTopic('out', S, S).readValuesToList()).toEqual(['100', '200']);
  });

  it('foreach awaits an async action; mapValues returning a Promise is a processing error naming it', async () => {
    const b = new StreamsBuilder();
    const done: string[] = [];
    const stream = b.stream<string, string>('in', { keySerde: S, valueSerde: S });
    stream.foreach(async (_k, v) => {
      await sleep(2);
      done.push(v);
    });
    stream.mapValues((v) => Promise.resolve(v) as unknown as string).to('out', { keySerde: S, valueSerde: S });
    const errors: string[] = [];
    driver = new TopologyTestDriver(b.build(), { processingExceptionHandler: { handle: (_c, _r, e) => (errors.push(e.message), 'CONTINUE') } });
    driver.createInputTopic('in', S, S).pipeValueList(['a', 'b']);
    await driver.settle();
    expect(done).toEqual(['a', 'b']);
    expect(errors).toHaveLength(2);
    expect(errors[0]).toMatch(/mapValues\(\): the mapper returned a Promise, but DSL functions run synchronously/);
    expect(driver.createOutputTopic('out', S, S).isEmpty()).toBe(true);
  });
});

describe('async processors at the task seam', () => {
  const handlers = (processing: 'CONTINUE' | 'FAIL') => ({
    deserialization: { handle: () => 'FAIL' as const },
    processing: { handle: () => processing },
  });
  const rec = (value: string, offset: number) => ({ topic: 'in', partition: 0, offset, key: null, value: Buffer.from(value), headers: {}, timestamp: offset });

  it('process() returns a plain outcome for synchronous processors (no promise) and a promise for async ones', async () => {
    const sent: string[] = [];
    const collector = { send: (o: { value: unknown }) => void sent.push(String(o.value)) };
    const sync = toRuntime(single(() => ({ process() {} }))).createTask({ subtopology: 0, partition: 0 }, collector, handlers('FAIL'));
    sync.init();
    expect(sync.process(rec('x', 0))).toBe('processed');
    const task = toRuntime(single(asyncUpper())).createTask({ subtopology: 0, partition: 0 }, collector, handlers('CONTINUE'));
    task.init();
    const first = task.process(rec('x', 0));
    expect(first).toBeInstanceOf(Promise);
    expect(() => task.process(rec('y', 1))).toThrow(/cannot process while the previous record is still being processed/);
    await expect(first).resolves.toBe('processed');
    await expect(task.process(rec('boom', 1))).resolves.toBe('skipped');
    expect(sent).toEqual(['X', 'BOOM']);
    task.close();
  });

  it('the synchronous path chains no promise and returns plain outcomes (DSL nodes, peek, a sink)', () => {
    const b = new StreamsBuilder();
    b.stream<string, string>('in', { keySerde: S, valueSerde: S })
      .mapValues((v) => v.toUpperCase())
      .filter(() => true)
      .peek(() => undefined)
      .to('out', { keySerde: S, valueSerde: S });
    const task = toRuntime(b.build()).createTask({ subtopology: 0, partition: 0 }, { send() {} }, handlers('FAIL'));
    task.init();
    const then = Promise.prototype.then;
    let created = 0;
    Promise.prototype.then = function (this: Promise<unknown>, ...args: Parameters<typeof then>) {
      created++;
      return then.apply(this, args);
    } as typeof then;
    try {
      for (let i = 0; i < 100; i++) expect(task.process(rec('x', i))).toBe('processed');
    } finally {
      Promise.prototype.then = then;
    }
    expect(created).toBe(0);
    task.close();
  });
});
