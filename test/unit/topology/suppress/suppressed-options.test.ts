/** Ports of Kafka's `SuppressedTest` (the BufferConfig/Suppressed builders), plus their validation. */
import { describe, expect, it } from 'vitest';
import { BufferConfig, IllegalArgumentError, Suppressed } from '../../../../src/index.js';

const { maxBytes, maxRecords, unbounded } = BufferConfig;
const { untilTimeLimit, untilWindowCloses } = Suppressed;
const MAX_VALUE = Infinity;
const plain = (c: BufferConfig) => ({ maxRecords: c.maxRecords, maxBytes: c.maxBytes, whenFull: c.whenFull, loggingEnabled: c.loggingEnabled, logConfig: { ...c.logConfig } });
const eager = (maxRecords: number, maxBytes: number, logConfig: Record<string, string> = {}) => ({ maxRecords, maxBytes, whenFull: 'emitEarly', loggingEnabled: true, logConfig });
const strict = (maxRecords: number, maxBytes: number, logConfig: Record<string, string> = {}) => ({ maxRecords, maxBytes, whenFull: 'shutDown', loggingEnabled: true, logConfig });

describe('SuppressedTest (ported)', () => {
  // SuppressedTest.bufferBuilderShouldBeConsistent
  it('bufferBuilderShouldBeConsistent', () => {
    expect(plain(maxBytes(2).withMaxRecords(4).withNoBound())).toEqual(plain(unbounded()));
    expect(plain(maxRecords(2))).toEqual(eager(2, MAX_VALUE));
    expect(plain(maxBytes(2))).toEqual(eager(MAX_VALUE, 2));
    expect(plain(maxRecords(2).withMaxBytes(4).withLoggingEnabled({ myConfigKey: 'myConfigValue' }))).toEqual(eager(2, 4, { myConfigKey: 'myConfigValue' }));
  });

  // SuppressedTest.intermediateEventsShouldAcceptAnyBufferAndSetBounds
  it('intermediateEventsShouldAcceptAnyBufferAndSetBounds', () => {
    const named = untilTimeLimit(2, unbounded()).withName('myname');
    expect([named.name, named.timeToWaitForMoreEventsMs, plain(named.bufferConfig)]).toEqual(['myname', 2, plain(unbounded())]);
    const timeAlone = untilTimeLimit(2, unbounded());
    expect([timeAlone.name, timeAlone.kind, timeAlone.timeToWaitForMoreEventsMs]).toEqual([undefined, 'untilTimeLimit', 2]);
    expect(plain(untilTimeLimit(2, maxRecords(2)).bufferConfig)).toEqual(plain(maxRecords(2)));
    expect(plain(untilTimeLimit(2, maxBytes(2)).bufferConfig)).toEqual(plain(maxBytes(2)));
    expect(plain(untilTimeLimit(2, maxRecords(3).withMaxBytes(2)).bufferConfig)).toEqual(eager(3, 2));
    expect(plain(untilTimeLimit(2, maxRecords(2).withLoggingEnabled({ myConfigKey: 'myConfigValue' }).emitEarlyWhenFull()).bufferConfig)).toEqual(
      eager(2, MAX_VALUE, { myConfigKey: 'myConfigValue' }),
    );
  });

  // SuppressedTest.finalEventsShouldAcceptStrictBuffersAndSetBounds
  it('finalEventsShouldAcceptStrictBuffersAndSetBounds', () => {
    expect(plain(untilWindowCloses(unbounded()).bufferConfig)).toEqual(strict(MAX_VALUE, MAX_VALUE));
    expect(plain(untilWindowCloses(maxRecords(2).shutDownWhenFull()).bufferConfig)).toEqual(strict(2, MAX_VALUE));
    expect(plain(untilWindowCloses(maxBytes(2).shutDownWhenFull()).bufferConfig)).toEqual(strict(MAX_VALUE, 2));
    expect(untilWindowCloses(unbounded()).withName('name').name).toBe('name');
    expect(plain(untilWindowCloses(maxBytes(2).withLoggingEnabled({ myConfigKey: 'myConfigValue' }).shutDownWhenFull()).bufferConfig)).toEqual(
      strict(MAX_VALUE, 2, { myConfigKey: 'myConfigValue' }),
    );
  });

  // SuppressedTest.supportLongChainOfMethods
  it('supportLongChainOfMethods', () => {
    const bufferConfig = unbounded().emitEarlyWhenFull().withMaxRecords(3).withMaxBytes(4).withMaxRecords(5).withMaxBytes(6);
    expect(plain(bufferConfig)).toEqual(eager(5, 6));
    expect(plain(bufferConfig.shutDownWhenFull())).toEqual(strict(5, 6));
    const withLogging = unbounded().withLoggingEnabled({ myConfigKey: 'myConfigValue' }).emitEarlyWhenFull().withMaxRecords(3).withMaxBytes(4).withMaxRecords(5).withMaxBytes(6);
    expect(plain(withLogging)).toEqual(eager(5, 6, { myConfigKey: 'myConfigValue' }));
    expect(plain(withLogging.shutDownWhenFull())).toEqual(strict(5, 6, { myConfigKey: 'myConfigValue' }));
    const loggingAtEnd = unbounded().emitEarlyWhenFull().withMaxRecords(3).withMaxBytes(4).withMaxRecords(5).withMaxBytes(6).withLoggingEnabled({ myConfigKey: 'myConfigValue' });
    expect(plain(loggingAtEnd)).toEqual(eager(5, 6, { myConfigKey: 'myConfigValue' }));
    expect(plain(loggingAtEnd.shutDownWhenFull())).toEqual(strict(5, 6, { myConfigKey: 'myConfigValue' }));
  });

  it('the objects are immutable and bad arguments get a clear error', () => {
    const config = maxRecords(2);
    config.withMaxRecords(9);
    expect(config.maxRecords).toBe(2);
    expect(Object.isFrozen(config)).toBe(true);
    expect(plain(maxRecords(1).withLoggingDisabled())).toEqual({ ...eager(1, MAX_VALUE), loggingEnabled: false });
    expect(() => maxRecords(-1)).toThrow(IllegalArgumentError);
    expect(() => maxBytes(1.5)).toThrow(/byteLimit must be a non-negative integer/);
    expect(() => untilTimeLimit(-1, unbounded())).toThrow(/timeToWaitForMoreEvents must be a non-negative number/);
    expect(() => untilTimeLimit(1, null as never)).toThrow(/bufferConfig/);
    expect(() => untilTimeLimit(1, unbounded()).withName('bad name!')).toThrow();
  });
});
