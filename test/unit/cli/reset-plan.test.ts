/**
 * `sluice reset`'s offset planning. The first cases are ported from Kafka's
 * tools/src/test/java/org/apache/kafka/tools/StreamsResetterTest.java with inputs and expected outputs
 * unchanged: there a MockConsumer holds records at offsets 0..4 of topic1-0 and each test asserts how many
 * a poll returns after the reset (5 - new position) or the position itself; here the planned offset is
 * asserted and the same record count derived from it.
 */
import { describe, expect, it } from 'vitest';
import {
  internalTopicsOf,
  matchesInternalTopicFormat,
  parseDateTime,
  parseIsoDuration,
  parseResetPlan,
  planKey,
  planOffsets,
  type PartitionRange,
  type ResetTarget,
} from '../../../src/cli/reset-plan.js';

const TOPIC = 'topic1';
/** The MockConsumer's records: offsets 0, 1, 2, 3, 4. */
const recordsFrom = (position: number): number => [0, 1, 2, 3, 4].filter((o) => o >= position).length;
const range = (beginning: number, end: number, extra: Partial<PartitionRange> = {}): PartitionRange => ({ topic: TOPIC, partition: 0, beginning, end, ...extra });
const offsetOf = (target: ResetTarget, r: PartitionRange): number => planOffsets(target, [r])[0]!.offset;

describe('StreamsResetterTest (ported)', () => {
  it('testResetToSpecificOffsetWhenBetweenBeginningAndEndOffset', () => {
    expect(recordsFrom(offsetOf({ kind: 'offset', offset: 2 }, range(0, 4)))).toBe(3);
  });

  it('testResetOffsetToSpecificOffsetWhenAfterEndOffset', () => {
    const beginningOffset = 5;
    const endOffset = 10;
    expect(offsetOf({ kind: 'offset', offset: endOffset + 2 }, range(beginningOffset, endOffset))).toBe(endOffset);
  });

  it('testResetToSpecificOffsetWhenBeforeBeginningOffset', () => {
    expect(recordsFrom(offsetOf({ kind: 'offset', offset: 2 }, range(3, 4)))).toBe(2);
  });

  it('testResetToSpecificOffsetWhenAfterEndOffset', () => {
    expect(recordsFrom(offsetOf({ kind: 'offset', offset: 4 }, range(0, 3)))).toBe(2);
  });

  it('testShiftOffsetByWhenBetweenBeginningAndEndOffset', () => {
    expect(recordsFrom(offsetOf({ kind: 'shift', by: 3 }, range(0, 4)))).toBe(2);
  });

  it('testShiftOffsetByWhenBeforeBeginningOffset', () => {
    expect(recordsFrom(offsetOf({ kind: 'shift', by: -3 }, range(0, 4)))).toBe(5);
  });

  it('testShiftOffsetByWhenAfterEndOffset', () => {
    expect(recordsFrom(offsetOf({ kind: 'shift', by: 5 }, range(0, 3)))).toBe(2);
  });

  it('testResetUsingPlanWhenBetweenBeginningAndEndOffset', () => {
    expect(recordsFrom(offsetOf({ kind: 'plan', offsets: new Map([[planKey(TOPIC, 0), 3]]) }, range(0, 4)))).toBe(2);
  });

  it('testResetUsingPlanWhenBeforeBeginningOffset', () => {
    expect(recordsFrom(offsetOf({ kind: 'plan', offsets: new Map([[planKey(TOPIC, 0), 1]]) }, range(3, 4)))).toBe(2);
  });

  it('testResetUsingPlanWhenAfterEndOffset', () => {
    expect(recordsFrom(offsetOf({ kind: 'plan', offsets: new Map([[planKey(TOPIC, 0), 5]]) }, range(0, 3)))).toBe(2);
  });

  it('shouldSeekToEndOffset', () => {
    expect(recordsFrom(offsetOf({ kind: 'latest' }, range(0, 3)))).toBe(2);
  });

  it('testResetToDatetimeWhenPartitionIsEmptyResetsToLatestOffset', () => {
    const beginningAndEndOffset = 5;
    const yesterdayTimestamp = Date.now() - 86_400_000;
    const [planned] = planOffsets({ kind: 'datetime', timestamp: yesterdayTimestamp }, [range(beginningAndEndOffset, beginningAndEndOffset, { offsetForTime: undefined })]);
    expect(planned!.offset).toBe(beginningAndEndOffset);
    expect(planned!.note).toBe('Partition 0 from topic topic1 is empty, without a committed record. Falling back to latest known offset.');
  });

  it('shouldDetermineInternalTopicBasedOnTopicName1', () => {
    expect(matchesInternalTopicFormat('appId-named-subscription-response-topic')).toBe(true);
    expect(matchesInternalTopicFormat('appId-named-subscription-registration-topic')).toBe(true);
    expect(matchesInternalTopicFormat('appId-KTABLE-FK-JOIN-SUBSCRIPTION-RESPONSE-12323232-topic')).toBe(true);
    expect(matchesInternalTopicFormat('appId-KTABLE-FK-JOIN-SUBSCRIPTION-REGISTRATION-12323232-topic')).toBe(true);
  });
});

describe('sluice reset planning (beyond the port)', () => {
  it('earliest and latest take the log range; shift starts from the committed offset', () => {
    const r = range(2, 9, { committed: 6 });
    expect(offsetOf({ kind: 'earliest' }, r)).toBe(2);
    expect(offsetOf({ kind: 'latest' }, r)).toBe(9);
    expect(offsetOf({ kind: 'shift', by: -2 }, r)).toBe(4);
    expect(planOffsets({ kind: 'offset', offset: 0 }, [r])[0]!.note).toBe('New offset (0) is lower than earliest offset. Value will be set to 2');
    expect(planOffsets({ kind: 'offset', offset: 12 }, [r])[0]!.note).toBe('New offset (12) is higher than latest offset. Value will be set to 9');
  });

  it('a datetime takes the looked-up offset', () => {
    expect(offsetOf({ kind: 'datetime', timestamp: 0 }, range(0, 9, { offsetForTime: 4 }))).toBe(4);
  });

  it('a plan without a line for a partition is a ConfigError naming the line to add', () => {
    expect(() => planOffsets({ kind: 'plan', offsets: new Map() }, [range(0, 3)])).toThrow("--from-file has no offset for topic1 partition 0: add a line topic1,0,<offset>");
  });

  it('parses date-times as Kafka (no zone: UTC), durations as Java Duration.parse, plans as TOPIC,PARTITION,OFFSET', () => {
    expect(parseDateTime('2026-01-31T12:00:00.000')).toBe(Date.UTC(2026, 0, 31, 12));
    expect(parseDateTime('2026-01-31T12:00:00.000+01:00')).toBe(Date.UTC(2026, 0, 31, 11));
    expect(() => parseDateTime('2026-01-31')).toThrow(/--to-datetime '2026-01-31': not ISO 8601/);
    expect(() => parseDateTime('2026-13-31T99:00')).toThrow(/not a date-time/);
    expect(parseIsoDuration('P1DT2H')).toBe(26 * 3_600_000);
    expect(parseIsoDuration('PT30M')).toBe(1_800_000);
    expect(parseIsoDuration('PT1.5S')).toBe(1_500);
    expect(() => parseIsoDuration('1h')).toThrow(/--by-duration '1h'/);
    expect(() => parseIsoDuration('PT')).toThrow(/--by-duration/);
    expect(parseResetPlan('a,0,5\nb,2,7\n')).toEqual(new Map([['a:0', 5], ['b:2', 7]]));
    expect(() => parseResetPlan('a,0')).toThrow("--from-file: line 'a,0' does not follow the format TOPIC,PARTITION,OFFSET");
  });

  it('internal topics: prefixed with the application id, an internal suffix, not an input', () => {
    const topics = ['app-store-changelog', 'app-KSTREAM-AGGREGATE-0000000003-repartition', 'app-in', 'other-store-changelog', 'app-x-changelog', 'orders'];
    expect(internalTopicsOf('app', topics, ['app-x-changelog'])).toEqual(['app-KSTREAM-AGGREGATE-0000000003-repartition', 'app-store-changelog']);
  });
});
