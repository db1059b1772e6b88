import { describe, expect, it } from 'vitest';
import { InvalidRecordError, InvalidTimestampError, RecordTooLargeError, SerializationError } from '../../../src/errors.js';
import { singleRecordBatchSize, toWireRecord, varintSize } from '../../../src/eos/internal/record-size.js';
import { validateRecord } from '../../../src/eos/internal/record-validator.js';
import { toTopicInfo } from '../../../src/eos/topic-metadata.js';

const now = 1_700_000_000_000;

describe('record size and validation', () => {
  it('computes zig-zag varint sizes', () => {
    expect(varintSize(0)).toBe(1);
    expect(varintSize(-1)).toBe(1);
    expect(varintSize(63)).toBe(1);
    expect(varintSize(64)).toBe(2);
    expect(varintSize(8191)).toBe(2);
    expect(varintSize(8192)).toBe(3);
  });

  it('sizes a record exactly like the v2 format (61-byte batch header)', () => {
    // body: attr(1) tsDelta(1) offDelta(1) kLen(1) k(1) vLen(1) v(1) headerCount(1) = 8, plus its length varint (1)
    const wire = toWireRecord({ topic: 't', key: 'k', value: 'v', timestamp: now }, now);
    expect(singleRecordBatchSize(wire)).toBe(61 + 9);
  });

  it('refuses values that are not string, Buffer or null with SerializationError', () => {
    expect(() => toWireRecord({ topic: 't', value: { a: 1 } as unknown as string }, now)).toThrow(SerializationError);
    expect(() => toWireRecord({ topic: 't', key: 42 as unknown as string, value: null }, now)).toThrow(/key .*got number/);
  });

  it('names size, limit, topic and config key for a too-large record', () => {
    const info = toTopicInfo('out', 1, { 'max.message.bytes': '100' });
    const err = validateRecord(toWireRecord({ topic: 'out', key: 'k', value: 'x'.repeat(200) }, now), info, undefined, 1 << 20, now);
    expect(err).toBeInstanceOf(RecordTooLargeError);
    expect(err?.message).toMatch(/\d+ bytes.*max\.message\.bytes=100 of topic 'out'/);
    const err2 = validateRecord(toWireRecord({ topic: 'out', key: 'k', value: 'x'.repeat(200) }, now), toTopicInfo('out', 1, {}), undefined, 150, now);
    expect(err2?.message).toMatch(/maxRequestSize=150/);
  });

  it('refuses a null key on a compacted topic', () => {
    const info = toTopicInfo('c', 1, { 'cleanup.policy': 'compact,delete' });
    const err = validateRecord(toWireRecord({ topic: 'c', value: 'v' }, now), info, undefined, 1 << 20, now);
    expect(err).toBeInstanceOf(InvalidRecordError);
    expect(err?.message).toMatch(/compacted topic needs a key/);
    expect(validateRecord(toWireRecord({ topic: 'c', key: 'k', value: 'v' }, now), info, undefined, 1 << 20, now)).toBeNull();
  });

  it('checks CreateTime bounds and ignores them for LogAppendTime', () => {
    const cfg = { 'message.timestamp.before.max.ms': '1000', 'message.timestamp.after.max.ms': '1000' };
    const info = toTopicInfo('t', 1, cfg);
    const old = toWireRecord({ topic: 't', key: 'k', value: 'v', timestamp: now - 5000 }, now);
    expect(validateRecord(old, info, undefined, 1 << 20, now)).toBeInstanceOf(InvalidTimestampError);
    const future = toWireRecord({ topic: 't', key: 'k', value: 'v', timestamp: now + 5000 }, now);
    expect(validateRecord(future, info, undefined, 1 << 20, now)?.message).toMatch(/future.*after\.max\.ms=1000/);
    const logAppend = toTopicInfo('t', 1, { ...cfg, 'message.timestamp.type': 'LogAppendTime' });
    expect(validateRecord(old, logAppend, undefined, 1 << 20, now)).toBeNull();
  });

  it('refuses a partition the topic does not have', () => {
    const err = validateRecord(toWireRecord({ topic: 't', key: 'k', value: 'v' }, now), toTopicInfo('t', 2, {}), 5, 1 << 20, now);
    expect(err).toBeInstanceOf(InvalidRecordError);
  });
});
