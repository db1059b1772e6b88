/**
 * A task's input (src/runtime/internal/task-input.ts) over its partition
 * group. The first three cases port Apache Kafka's StreamTaskTest
 * (streams/src/test/java/org/apache/kafka/streams/processor/internals/StreamTaskTest.java)
 * with its inputs and expectations: createConfig() has
 * buffered.records.per.partition=3 and max.task.idle.ms "0" (or "100"), and
 * records whose timestamp is their offset. Kafka's `task.process(0L)` is here
 * one `ready(0)` + `nextRecord()` + `taken(...)` step; Kafka resumes a
 * partition that went back to the bound at its next poll
 * (`resumePollingForPartitionsWithAvailableSpace`), sluice at once, so the two
 * steps of the pause/resume case are checked together.
 */
import { describe, expect, it } from 'vitest';
import type { Logger } from 'pino';
import type { ConsumedRecord, TopicPartition } from '../../../src/records/types.js';
import { newTaskMetrics } from '../../../src/runtime/metrics.js';
import { LAG_PROBE_INTERVAL_MS, TaskInput } from '../../../src/runtime/internal/task-input.js';

const topic1 = 'topic1';
const topic2 = 'topic2';
const partition1: TopicPartition = { topic: topic1, partition: 1 };
const partition2: TopicPartition = { topic: topic2, partition: 1 };
const quiet = { trace: () => undefined, debug: () => undefined, isLevelEnabled: () => false } as unknown as Logger;

/** Kafka's getConsumerRecordWithOffsetAsTimestamp(partition, offset, value). */
function rec(tp: TopicPartition, offset: number, value = 0): ConsumedRecord {
  return { topic: tp.topic, partition: tp.partition, offset, timestamp: offset, key: null, value: Buffer.from(String(value)), headers: {} };
}

function setup(maxTaskIdleMs: number, endOffsets?: (topic: string) => Promise<number[]>) {
  const paused = new Set<string>();
  const consumer = {
    pause: (tps: TopicPartition[]) => tps.forEach((tp) => paused.add(`${tp.topic}-${tp.partition}`)),
    resume: (tps: TopicPartition[]) => tps.forEach((tp) => paused.delete(`${tp.topic}-${tp.partition}`)),
  };
  const metrics = newTaskMetrics();
  const input = new TaskInput({
    partitions: [partition1, partition2], maxTaskIdleMs, bufferedRecordsPerPartition: 3, consumer, metrics, logger: quiet,
    ...(endOffsets ? { endOffsets } : {}),
  });
  input.start(new Map([['topic1-1', 0], ['topic2-1', 0]]));
  const received = new Map<string, string[]>([[topic1, []], [topic2, []]]);
  /** Kafka's task.process(now): false when not ready or nothing is buffered. */
  const process = (now = 0): boolean => {
    if (!input.ready(now)) return false;
    const record = input.group.nextRecord();
    if (record === undefined) return false;
    input.taken(input.group.lastPartitionKey, input.group.lastPartitionBuffered, record);
    received.get(record.topic)?.push(String(record.value));
    return true;
  };
  /** A fetched batch whose high watermark is its end (the partition is caught up after it). */
  const add = (tp: TopicPartition, records: ConsumedRecord[], highWatermark?: number): void => {
    const end = (records.at(-1)?.offset ?? 0) + 1;
    input.add({ ...tp, records, highWatermark: highWatermark ?? end, nextOffset: end });
  };
  return { input, paused, process, add, received, metrics };
}

describe('TaskInput (ports of Kafka StreamTaskTest)', () => {
  it('shouldProcessInOrder', () => {
    const { input, process, add, received } = setup(0);
    add(partition1, [rec(partition1, 10, 101), rec(partition1, 20, 102), rec(partition1, 30, 103)]);
    add(partition2, [rec(partition2, 25, 201), rec(partition2, 35, 202), rec(partition2, 45, 203)]);
    const expected: Array<[number, string[], string[]]> = [
      [5, ['101'], []],
      [4, ['101', '102'], []],
      [3, ['101', '102'], ['201']],
      [2, ['101', '102', '103'], ['201']],
      [1, ['101', '102', '103'], ['201', '202']],
      [0, ['101', '102', '103'], ['201', '202', '203']],
    ];
    for (const [buffered, one, two] of expected) {
      expect(process(0)).toBe(true);
      expect(input.group.numBuffered()).toBe(buffered);
      expect([received.get(topic1), received.get(topic2)]).toEqual([one, two]);
    }
  });

  it('shouldPauseAndResumeBasedOnBufferedRecords', () => {
    const { process, add, received, paused } = setup(100);
    add(partition1, [rec(partition1, 10), rec(partition1, 20)]);
    add(partition2, [rec(partition2, 35), rec(partition2, 45), rec(partition2, 55), rec(partition2, 65)]);
    expect(process(0)).toBe(true);
    expect([received.get(topic1)?.length, received.get(topic2)?.length]).toEqual([1, 0]);
    expect([...paused]).toEqual(['topic2-1']);
    add(partition1, [rec(partition1, 30), rec(partition1, 40), rec(partition1, 50)]);
    expect([...paused].sort()).toEqual(['topic1-1', 'topic2-1']);
    // Kafka: process, then resumePollingForPartitionsWithAvailableSpace(); here one step
    expect(process(0)).toBe(true);
    expect([received.get(topic1)?.length, received.get(topic2)?.length]).toEqual([2, 0]);
    expect([...paused]).toEqual(['topic2-1']);
    expect(process(0)).toBe(true);
    expect([received.get(topic1)?.length, received.get(topic2)?.length]).toEqual([3, 0]);
    expect([...paused]).toEqual(['topic2-1']);
    expect(process(0)).toBe(true);
  });

  it('shouldBeProcessableIfAllPartitionsBuffered', () => {
    // MockConsumer knows no lag: the end offsets are still being asked
    const { process, add } = setup(100, () => new Promise<number[]>(() => undefined));
    expect(process(0)).toBe(false);
    add(partition1, [rec(partition1, 0, 1)]);
    expect(process(0)).toBe(false);
    add(partition2, [rec(partition2, 0, 1)]);
    expect(process(0)).toBe(true);
  });
});

describe('TaskInput', () => {
  it('cuts records already buffered and tells where a drained partition moves (control records included)', () => {
    const { input } = setup(0);
    input.add({ ...partition1, records: [rec(partition1, 0), rec(partition1, 1)], highWatermark: 10, nextOffset: 2 });
    input.add({ ...partition1, records: [rec(partition1, 1), rec(partition1, 2)], highWatermark: 10, nextOffset: 4 });
    expect(input.group.numBuffered(partition1)).toBe(3);
    expect(input.fetchedEnd('topic1-1')).toBe(4);
    expect(input.highWatermark('topic1-1')).toBe(10);
  });

  it('waits for a partition whose lag is above 0, then processes once its batch came', () => {
    const { process, add, received } = setup(0);
    add(partition1, [rec(partition1, 5, 1)]);
    add(partition2, [rec(partition2, 1, 2)], 9); // 7 more records on the broker
    expect(process()).toBe(true); // partition 2's record (ts 1)
    expect(process()).toBe(false); // partition 2 is empty with lag 7: wait
    add(partition2, [rec(partition2, 3, 3)]);
    expect(process()).toBe(true);
    expect(received.get(topic2)).toEqual(['2', '3']);
    expect(received.get(topic1)).toEqual([]);
  });

  it('idles maxTaskIdleMs for a caught-up empty partition, then processes anyway and counts it', () => {
    const { process, add, metrics } = setup(50);
    add(partition1, [rec(partition1, 0)]);
    add(partition2, []); // a fetch that only told the lag: 0
    expect(process(1000)).toBe(false);
    expect(process(1049)).toBe(false);
    expect(process(1050)).toBe(true);
    expect(metrics.enforcedProcessing).toBe(1);
  });

  it('never waits with -1', () => {
    const { process, add } = setup(-1, () => new Promise<number[]>(() => undefined));
    add(partition1, [rec(partition1, 0)]);
    expect(process()).toBe(true);
  });

  it('asks the end offsets for a partition that never delivered a batch, at most every interval', async () => {
    const asked: string[] = [];
    let answer: (ends: number[]) => void = () => undefined;
    const { process, add } = setup(0, (topic) => {
      asked.push(topic);
      return new Promise<number[]>((resolve) => (answer = resolve));
    });
    add(partition1, [rec(partition1, 0)]);
    expect(process(0)).toBe(false);
    expect(process(LAG_PROBE_INTERVAL_MS - 1)).toBe(false);
    expect(asked).toEqual([topic2]);
    answer([0, 0]); // partition 1 of topic2 ends at 0: caught up
    await new Promise((resolve) => setImmediate(resolve));
    expect(process(LAG_PROBE_INTERVAL_MS)).toBe(true);
    expect(asked).toEqual([topic2]);
  });
});
