/**
 * Ports of Apache Kafka's PartitionGroupTest
 * (streams/src/test/java/org/apache/kafka/streams/processor/internals/PartitionGroupTest.java),
 * inputs and expected outputs unchanged. Kafka's records there are stamped by
 * MockTimestampExtractor (timestamp = offset); here each record carries that
 * timestamp itself. The trace lines are Kafka's, without its "[test] " log
 * context prefix. Not ported: the updatePartitions cases (a sluice task is
 * re-created when its partitions change, it never changes them in place) and
 * the unknown-partition cases of addRawRecords with a null list (same check
 * as the others, ported once per method).
 */
import { describe, expect, it } from 'vitest';
import { IllegalStateError } from '../../../src/errors.js';
import type { ConsumedRecord, TopicPartition } from '../../../src/records/types.js';
import { MAX_TASK_IDLE_MS_DISABLED, PartitionGroup, UNKNOWN_TIME, type PartitionGroupOptions } from '../../../src/runtime/internal/partition-group.js';

const partition1: TopicPartition = { topic: 'topic', partition: 1 };
const partition2: TopicPartition = { topic: 'topic', partition: 2 };
const unknownPartition: TopicPartition = { topic: 'unknown-partition', partition: 0 };

/** Kafka's `new ConsumerRecord<>("topic", partition, offset, key, value)` with MockTimestampExtractor: timestamp = offset. */
function records(partition: number, ...offsets: number[]): ConsumedRecord[] {
  return offsets.map((offset) => ({ topic: 'topic', partition, offset, timestamp: offset, key: Buffer.from([0, 0, 0, 1]), value: Buffer.from([0, 0, 0, 10]), headers: {} }));
}

/** A logger keeping the trace lines (Kafka's LogCaptureAppender at TRACE). */
function traceLog(): { lines: string[]; logger: NonNullable<PartitionGroupOptions['logger']> } {
  const lines: string[] = [];
  const logger = { trace: (msg: string) => void lines.push(msg), isLevelEnabled: (level: string) => level === 'trace' } as unknown as NonNullable<PartitionGroupOptions['logger']>;
  return { lines, logger };
}

function group(partitions: TopicPartition[], maxTaskIdleMs: number, options: Partial<PartitionGroupOptions> = {}): PartitionGroup {
  return new PartitionGroup(partitions, { maxTaskIdleMs, lagProvider: () => 0, ...options });
}

/** Kafka's getBasicGroup(): both partitions, lag 0, idling disabled. */
const basicGroup = (): PartitionGroup => group([partition1, partition2], MAX_TASK_IDLE_MS_DISABLED);

function verifyBuffered(g: PartitionGroup, total: number, one: number, two: number): void {
  expect([g.numBuffered(), g.numBuffered(partition1), g.numBuffered(partition2)]).toEqual([total, one, two]);
}

function verifyTimes(g: PartitionGroup, record: ConsumedRecord | undefined, recordTime: number, streamTime: number): void {
  expect(record?.timestamp).toBe(recordTime);
  expect(g.streamTime()).toBe(streamTime);
}

/** One nextRecord() step of testTimeTracking: partition taken, partition times, head offsets, times, buffered counts, lateness. */
function step(
  g: PartitionGroup,
  expected: { from: TopicPartition; times: [number, number]; heads: [number | undefined, number | undefined]; record: number; stream: number; buffered?: [number, number, number]; lateness: number },
): void {
  const record = g.nextRecord();
  expect(g.lastPartition).toEqual(expected.from);
  expect([g.partitionTimestamp(partition1), g.partitionTimestamp(partition2)]).toEqual(expected.times);
  expect([g.headRecordOffset(partition1), g.headRecordOffset(partition2)]).toEqual(expected.heads);
  verifyTimes(g, record, expected.record, expected.stream);
  if (expected.buffered) verifyBuffered(g, ...expected.buffered);
  expect(g.lastLateness).toBe(expected.lateness);
}

describe('PartitionGroup (ports of Kafka PartitionGroupTest)', () => {
  it('testTimeTracking', () => {
    const g = basicGroup();
    // testFirstBatch
    expect(g.numBuffered()).toBe(0);
    g.addRecords(partition1, records(1, 1, 3, 5));
    g.addRecords(partition2, records(2, 2, 4, 6));
    verifyBuffered(g, 6, 3, 3);
    expect([g.partitionTimestamp(partition1), g.partitionTimestamp(partition2)]).toEqual([UNKNOWN_TIME, UNKNOWN_TIME]);
    expect([g.headRecordOffset(partition1), g.headRecordOffset(partition2)]).toEqual([1, 2]);
    expect(g.streamTime()).toBe(UNKNOWN_TIME);
    expect(g.lastLateness).toBe(0);
    step(g, { from: partition1, times: [1, UNKNOWN_TIME], heads: [3, 2], record: 1, stream: 1, lateness: 0 });
    step(g, { from: partition2, times: [1, 2], heads: [3, 4], record: 2, stream: 2, buffered: [4, 2, 2], lateness: 0 });
    // testSecondBatch
    g.addRecords(partition1, records(1, 2, 4));
    verifyBuffered(g, 6, 4, 2);
    expect([g.partitionTimestamp(partition1), g.partitionTimestamp(partition2)]).toEqual([1, 2]);
    expect([g.headRecordOffset(partition1), g.headRecordOffset(partition2)]).toEqual([3, 4]);
    expect(g.streamTime()).toBe(2);
    expect(g.lastLateness).toBe(0);
    step(g, { from: partition1, times: [3, 2], heads: [5, 4], record: 3, stream: 3, buffered: [5, 3, 2], lateness: 0 });
    step(g, { from: partition2, times: [3, 4], heads: [5, 6], record: 4, stream: 4, buffered: [4, 3, 1], lateness: 0 });
    step(g, { from: partition1, times: [5, 4], heads: [2, 6], record: 5, stream: 5, buffered: [3, 2, 1], lateness: 0 });
    step(g, { from: partition1, times: [5, 4], heads: [4, 6], record: 2, stream: 5, buffered: [2, 1, 1], lateness: 3 });
    step(g, { from: partition1, times: [5, 4], heads: [undefined, 6], record: 4, stream: 5, buffered: [1, 0, 1], lateness: 1 });
    step(g, { from: partition2, times: [5, 6], heads: [undefined, undefined], record: 6, stream: 6, buffered: [0, 0, 0], lateness: 0 });
  });

  it('shouldChooseNextRecordBasedOnHeadTimestamp', () => {
    const g = basicGroup();
    expect(g.numBuffered()).toBe(0);
    g.addRecords(partition1, records(1, 1, 5, 3));
    verifyBuffered(g, 3, 3, 0);
    expect(g.streamTime()).toBe(-1);
    expect(g.lastLateness).toBe(0);
    expect(g.nextRecord()?.timestamp).toBe(1);
    expect(g.nextRecord()?.timestamp).toBe(5);
    g.addRecords(partition2, records(2, 2, 4, 6));
    expect(g.nextRecord()?.timestamp).toBe(2);
    // ts=3 from partition 1, even though it has seen a larger max timestamp (5)
    expect(g.nextRecord()?.timestamp).toBe(3);
  });

  it('shouldSetPartitionTimestampAndStreamTime', () => {
    const g = basicGroup();
    g.setPartitionTime(partition1, 100);
    expect(g.partitionTimestamp(partition1)).toBe(100);
    expect(g.streamTime()).toBe(100);
    g.setPartitionTime(partition2, 50);
    expect(g.partitionTimestamp(partition2)).toBe(50);
    expect(g.streamTime()).toBe(100);
  });

  it.each([
    ['shouldThrowIllegalStateExceptionUponAddRecordsIfPartitionUnknown', (g: PartitionGroup) => g.addRecords(unknownPartition, [])],
    ['shouldThrowIllegalStateExceptionUponNumBufferedIfPartitionUnknown', (g: PartitionGroup) => g.numBuffered(unknownPartition)],
    ['shouldThrowIllegalStateExceptionUponSetPartitionTimestampIfPartitionUnknown', (g: PartitionGroup) => g.setPartitionTime(unknownPartition, 0)],
    ['shouldThrowIllegalStateExceptionUponGetPartitionTimestampIfPartitionUnknown', (g: PartitionGroup) => g.partitionTimestamp(unknownPartition)],
    ['shouldThrowIllegalStateExceptionUponGetHeadRecordOffsetIfPartitionUnknown', (g: PartitionGroup) => g.headRecordOffset(unknownPartition)],
  ])('%s', (_name, call) => {
    const g = basicGroup();
    expect(() => call(g)).toThrow(IllegalStateError);
    expect(() => call(g)).toThrow('Partition unknown-partition-0 not found.');
  });

  it('shouldEmptyPartitionsOnClear', () => {
    const { lines, logger } = traceLog();
    const g = group([partition1], 10, { logger });
    const list = records(1, 1, 3, 5);
    g.addRecords(partition1, list);
    g.nextRecord();
    g.nextRecord();
    g.updateLags();
    g.clear();
    expect(g.numBuffered()).toBe(0);
    expect(g.streamTime()).toBe(UNKNOWN_TIME);
    expect(g.nextRecord()).toBeUndefined();
    expect(g.partitionTimestamp(partition1)).toBe(UNKNOWN_TIME);
    // hasNoFetchedLag
    expect(g.readyToProcess(0)).toBe(false);
    expect(lines).toContain('Waiting to fetch data for topic-1');
    g.addRecords(partition1, list);
    expect(g.numBuffered()).toBe(3);
  });

  it('shouldNeverWaitIfIdlingIsDisabled', () => {
    const { lines, logger } = traceLog();
    const g = group([partition1, partition2], MAX_TASK_IDLE_MS_DISABLED, { logger });
    g.addRecords(partition1, records(1, 1, 5));
    expect(g.allPartitionsBufferedLocally()).toBe(false);
    expect(g.readyToProcess(0)).toBe(true);
    expect(lines).toContain(
      'Ready for processing because max.task.idle.ms is disabled.\n' +
        '\tThere may be out-of-order processing for this task as a result.\n' +
        '\tBuffered partitions: [topic-1]\n' +
        '\tNon-buffered partitions: [topic-2]',
    );
  });

  it('shouldBeReadyIfAllPartitionsAreBuffered', () => {
    const { lines, logger } = traceLog();
    const g = group([partition1, partition2], 0, { logger });
    g.addRecords(partition1, records(1, 1, 5));
    g.addRecords(partition2, records(2, 1, 5));
    expect(g.allPartitionsBufferedLocally()).toBe(true);
    expect(g.readyToProcess(0)).toBe(true);
    expect(lines).toContain('All partitions were buffered locally, so this task is ready for processing.');
  });

  it('shouldWaitForFetchesWhenMetadataIsIncomplete', () => {
    const lags = new Map<number, number>();
    const { lines, logger } = traceLog();
    const g = group([partition1, partition2], 0, { logger, lagProvider: (tp) => lags.get(tp.partition) });
    g.addRecords(partition1, records(1, 1, 5));
    expect(g.allPartitionsBufferedLocally()).toBe(false);
    expect(g.readyToProcess(0)).toBe(false);
    expect(lines).toContain('Waiting to fetch data for topic-2');
    lags.set(2, 0);
    g.updateLags();
    expect(g.readyToProcess(0)).toBe(true);
  });

  it('shouldWaitForPollWhenLagIsNonzero', () => {
    const lags = new Map<number, number>();
    const { lines, logger } = traceLog();
    const g = group([partition1, partition2], 0, { logger, lagProvider: (tp) => lags.get(tp.partition) });
    g.addRecords(partition1, records(1, 1, 5));
    lags.set(2, 1);
    g.updateLags();
    expect(g.allPartitionsBufferedLocally()).toBe(false);
    expect(g.readyToProcess(0)).toBe(false);
    expect(lines).toContain('Lag for topic-2 is currently 1, but no data is buffered locally. Waiting to buffer some records.');
  });

  it('shouldIdleAsSpecifiedWhenLagIsZero', () => {
    const { lines, logger } = traceLog();
    const enforced: number[] = [];
    const g = group([partition1, partition2], 1, { logger, onEnforcedProcessing: (t) => void enforced.push(t) });
    g.updateLags();
    g.addRecords(partition1, records(1, 1, 5));
    expect(g.allPartitionsBufferedLocally()).toBe(false);
    expect(g.readyToProcess(0)).toBe(false);
    expect(lines).toContain('Lag for topic-2 is currently 0 and current time is 0. Waiting for new data to be produced for configured idle time 1 (deadline is 1).');
    const enforcedLine = (now: number): string =>
      'Continuing to process although some partitions are empty on the broker.\n' +
      '\tThere may be out-of-order processing for this task as a result.\n' +
      '\tPartitions with local data: [topic-1].\n' +
      '\tPartitions we gave up waiting for, with their corresponding deadlines: {topic-2=1}.\n' +
      '\tConfigured max.task.idle.ms: 1.\n' +
      `\tCurrent wall-clock time: ${now}.`;
    expect(g.readyToProcess(1)).toBe(true);
    expect(lines).toContain(enforcedLine(1));
    expect(g.readyToProcess(2)).toBe(true);
    expect(lines).toContain(enforcedLine(2));
    // Kafka's enforced-processing sensor records each enforced readiness
    expect(enforced).toEqual([1, 2]);
  });

  it('shouldUpdateLags', () => {
    const lags = new Map<number, number>();
    const { lines, logger } = traceLog();
    const g = group([partition1], 10, { logger, lagProvider: (tp) => lags.get(tp.partition) });
    const expectWait = (line: string | RegExp): void => {
      lines.length = 0;
      expect(g.readyToProcess(0)).toBe(false);
      expect(lines.some((l) => (typeof line === 'string' ? l === line : line.test(l)))).toBe(true);
    };
    const hasNoFetchedLag = (): void => expectWait('Waiting to fetch data for topic-1');
    const hasZeroFetchedLag = (): void => expectWait(/^Lag for topic-1 is currently 0 and current time is 0\. Waiting for new data to be produced for configured idle time/);
    hasNoFetchedLag();
    lags.set(1, 5);
    hasNoFetchedLag();
    g.updateLags();
    expectWait('Lag for topic-1 is currently 5, but no data is buffered locally. Waiting to buffer some records.');
    lags.set(1, 0);
    g.updateLags();
    hasZeroFetchedLag();
    lags.delete(1);
    hasZeroFetchedLag();
    g.updateLags();
    hasNoFetchedLag();
  });

  it('does not build trace lines when trace is off (hot path)', () => {
    const lines: string[] = [];
    const logger = { trace: (msg: string) => void lines.push(msg), isLevelEnabled: () => false } as unknown as NonNullable<PartitionGroupOptions['logger']>;
    const g = group([partition1, partition2], 0, { logger });
    g.addRecords(partition1, records(1, 1));
    g.updateLags();
    expect(g.readyToProcess(0)).toBe(true);
    expect(lines).toEqual([]);
  });
});
