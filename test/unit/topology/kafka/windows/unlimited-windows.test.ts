/**
 * Ported from Kafka Streams' `UnlimitedWindowsTest` (inputs and expected
 * outputs unchanged; Kafka's `Instant`s are epoch milliseconds here). An
 * unlimited window ends at Java's `Long.MAX_VALUE`, read as 2^63.
 */
import { describe, expect, it } from 'vitest';
import { IllegalArgumentError, UnlimitedWindows } from '../../../../../src/index.js';
import { verifyEquality, verifyInEquality } from '../../../../helpers/windows/equality-check.js';

const ANY_START_TIME = 10;
const UNLIMITED_END = 2 ** 63;

describe('UnlimitedWindowsTest', () => {
  // UnlimitedWindowsTest.shouldSetWindowStartTime
  it('shouldSetWindowStartTime', () => {
    expect(UnlimitedWindows.of().startOn(ANY_START_TIME).startMs).toBe(ANY_START_TIME);
  });

  // UnlimitedWindowsTest.startTimeMustNotBeNegative
  it('startTimeMustNotBeNegative', () => {
    expect(() => UnlimitedWindows.of().startOn(-1)).toThrow(IllegalArgumentError);
    expect(() => UnlimitedWindows.of().startOn(-1)).toThrow('Window start time (startMs) cannot be negative.');
  });

  // UnlimitedWindowsTest.shouldIncludeRecordsThatHappenedOnWindowStart
  it('shouldIncludeRecordsThatHappenedOnWindowStart', () => {
    const w = UnlimitedWindows.of().startOn(ANY_START_TIME);
    const matchedWindows = w.windowsFor(w.startMs);
    expect(matchedWindows.size).toBe(1);
    expect(matchedWindows.get(ANY_START_TIME)).toEqual({ start: ANY_START_TIME, end: UNLIMITED_END });
  });

  // UnlimitedWindowsTest.shouldIncludeRecordsThatHappenedAfterWindowStart
  it('shouldIncludeRecordsThatHappenedAfterWindowStart', () => {
    const w = UnlimitedWindows.of().startOn(ANY_START_TIME);
    const matchedWindows = w.windowsFor(w.startMs + 1);
    expect(matchedWindows.size).toBe(1);
    expect(matchedWindows.get(ANY_START_TIME)).toEqual({ start: ANY_START_TIME, end: UNLIMITED_END });
  });

  // UnlimitedWindowsTest.shouldExcludeRecordsThatHappenedBeforeWindowStart
  it('shouldExcludeRecordsThatHappenedBeforeWindowStart', () => {
    const w = UnlimitedWindows.of().startOn(ANY_START_TIME);
    expect(w.windowsFor(w.startMs - 1).size).toBe(0);
  });

  // UnlimitedWindowsTest.equalsAndHashcodeShouldBeValidForPositiveCases
  it('equalsAndHashcodeShouldBeValidForPositiveCases', () => {
    verifyEquality(UnlimitedWindows.of(), UnlimitedWindows.of());
    verifyEquality(UnlimitedWindows.of().startOn(1), UnlimitedWindows.of().startOn(1));
  });

  // UnlimitedWindowsTest.equalsAndHashcodeShouldBeValidForNegativeCases
  it('equalsAndHashcodeShouldBeValidForNegativeCases', () => {
    verifyInEquality(UnlimitedWindows.of().startOn(9), UnlimitedWindows.of().startOn(1));
  });
});
