/**
 * The DSL's processors reach what they need beyond `ProcessorContext`
 * (cache forwards, the drop log, the emit intervals) through
 * `dslContext(context)`: the task's context is used as it is; the public
 * MockProcessorContext and a test's fake get an adapter that keeps their
 * members and supplies the rest.
 */
import { describe, expect, it } from 'vitest';
import { dslContext } from '../../../src/processors/dsl-context.js';
import { ProcessorContextImpl, type ContextHost } from '../../../src/processors/internal/processor-context-impl.js';
import { Record } from '../../../src/processors/record.js';
import type { StoreRecordContext } from '../../../src/processors/task-contract.js';
import { MockProcessorContext } from '../../../src/testing.js';

/** A task host recording what the context hands it. */
function recordingHost(): ContextHost & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    taskId: { subtopology: 1, partition: 2 },
    forwardFrom: (node, record) => void calls.push(`forward ${node} ${String(record.key)}`),
    forwardFromCache: (node, record, context) => void calls.push(`cache ${node} ${String(record.key)} @${context.offset}`),
    schedule: () => ({ cancel() {} }),
    store: () => undefined,
    recordMetadata: () => null,
    requestCommit: () => void calls.push('commit'),
    recordDropped: (node, reason) => void calls.push(`dropped ${node} ${reason}`),
    streamTime: () => 7,
    wallClock: () => 9,
    outerJoinEmitIntervalMs: () => 25,
    windowedAggregationEmitIntervalMs: () => 0,
  };
}

const ORIGIN: StoreRecordContext = { timestamp: 5, headers: {}, topic: 't', partition: 0, offset: 42 };

describe('dslContext', () => {
  it("uses the task's context itself: cache forwards, drops and intervals reach the task", () => {
    const host = recordingHost();
    const context = new ProcessorContextImpl(host, 'node', []);
    const dsl = dslContext(context);
    expect(dsl).toBe(context);
    dsl.forwardFromCache(new Record('k', 'v', 5), ORIGIN);
    dsl.recordDropped('null key');
    expect(host.calls).toEqual(['cache node k @42', 'dropped node null key']);
    expect(dsl.outerJoinEmitIntervalMs?.()).toBe(25);
    expect(dsl.windowedAggregationEmitIntervalMs?.()).toBe(0);
  });

  it('adapts MockProcessorContext: a cache write-down is a plain forward, a drop is silent, no intervals', () => {
    const mock = new MockProcessorContext<string, string>({ processorName: 'p', taskId: { subtopology: 3, partition: 4 } });
    mock.setCurrentStreamTimeMs(11);
    mock.setRecordMetadata('in', 1, 8);
    const dsl = dslContext<string, string>(mock);
    expect(dsl).not.toBe(mock);
    expect(dsl.taskId).toEqual({ subtopology: 3, partition: 4 });
    expect(dsl.processorName).toBe('p');
    expect(dsl.currentStreamTimeMs()).toBe(11);
    expect(dsl.recordMetadata()).toEqual({ topic: 'in', partition: 1, offset: 8 });
    dsl.forward(new Record('a', '1', 1), 'child');
    dsl.forwardFromCache(new Record('b', '2', 2), ORIGIN);
    expect(() => dsl.recordDropped('null key')).not.toThrow();
    expect(mock.forwarded().map((f) => [f.record.key, f.childName])).toEqual([['a', 'child'], ['b', undefined]]);
    expect(dsl.outerJoinEmitIntervalMs).toBeUndefined();
    expect(dsl.windowedAggregationEmitIntervalMs).toBeUndefined();
    dsl.commit();
    expect(mock.committed()).toBe(true);
  });

  it("keeps a fake's own drop log and emit interval, called on the fake", () => {
    const dropped: string[] = [];
    const fake = {
      taskId: { subtopology: 0, partition: 0 },
      processorName: 'fake',
      forward() {},
      schedule: () => ({ cancel() {} }),
      getStateStore: () => {
        throw new Error('no stores');
      },
      recordMetadata: () => null,
      commit() {},
      currentStreamTimeMs: () => 0,
      currentSystemTimeMs: () => 0,
      interval: 3,
      recordDropped(this: { processorName: string }, reason: string) {
        dropped.push(`${this.processorName}: ${reason}`);
      },
      windowedAggregationEmitIntervalMs(this: { interval: number }) {
        return this.interval;
      },
    };
    const dsl = dslContext<unknown, unknown>(fake);
    dsl.recordDropped('expired window');
    expect(dropped).toEqual(['fake: expired window']);
    expect(dsl.windowedAggregationEmitIntervalMs?.()).toBe(3);
    expect(dsl.outerJoinEmitIntervalMs).toBeUndefined();
  });
});
