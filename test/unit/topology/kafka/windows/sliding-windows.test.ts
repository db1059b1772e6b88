/**
 * Ported from Kafka Streams' `SlidingWindowsTest` (inputs and expected
 * outputs unchanged; `Duration`s are milliseconds). Kafka's
 * `EqualityCheck.verifyEquality` / `verifyInEquality` are `equals` (both
 * ways, reflexive, not equal to null or another type) and `hashCode`.
 */
import { describe, expect, it } from 'vitest';
import { IllegalArgumentError, SlidingWindows } from '../../../../../src/index.js';

const ANY_SIZE = 123;
const ANY_GRACE = 1024;

/** Kafka's `1L + (long) (Math.random() * (to - 1L))` style bounds: an integer in [from, to). */
function randomBetween(from: number, to: number): number {
  return from + Math.floor(Math.random() * (to - from));
}

function verifyEquality(a: SlidingWindows, b: SlidingWindows): void {
  expect(a.equals(a)).toBe(true);
  expect(a.equals(b)).toBe(true);
  expect(b.equals(a)).toBe(true);
  expect(a.hashCode()).toBe(b.hashCode());
  expect(a.equals(null)).toBe(false);
  expect(a.equals({ timeDifferenceMs: () => a.timeDifferenceMs(), gracePeriodMs: () => a.gracePeriodMs() })).toBe(false);
}

function verifyInEquality(a: SlidingWindows, b: SlidingWindows): void {
  expect(a.equals(b)).toBe(false);
  expect(b.equals(a)).toBe(false);
  expect(a.hashCode()).not.toBe(b.hashCode());
}

describe('SlidingWindowsTest', () => {
  /** SlidingWindowsTest.shouldSetTimeDifference */
  it('shouldSetTimeDifference', () => {
    expect(SlidingWindows.ofTimeDifferenceAndGrace(ANY_SIZE, ANY_GRACE).timeDifferenceMs()).toBe(ANY_SIZE);
    expect(SlidingWindows.ofTimeDifferenceWithNoGrace(ANY_SIZE).timeDifferenceMs()).toBe(ANY_SIZE);
  });

  /** SlidingWindowsTest.timeDifferenceMustNotBeNegative */
  it('timeDifferenceMustNotBeNegative', () => {
    expect(() => SlidingWindows.ofTimeDifferenceAndGrace(-1, 5)).toThrow(IllegalArgumentError);
    expect(() => SlidingWindows.ofTimeDifferenceAndGrace(-1, 5)).toThrow('Window time difference must not be negative.');
  });

  /** SlidingWindowsTest.shouldSetGracePeriod */
  it('shouldSetGracePeriod', () => {
    expect(SlidingWindows.ofTimeDifferenceAndGrace(10, ANY_SIZE).gracePeriodMs()).toBe(ANY_SIZE);
  });

  /** SlidingWindowsTest.gracePeriodMustNotBeNegative */
  it('gracePeriodMustNotBeNegative', () => {
    expect(() => SlidingWindows.ofTimeDifferenceAndGrace(10, -1)).toThrow(IllegalArgumentError);
    expect(() => SlidingWindows.ofTimeDifferenceAndGrace(10, -1)).toThrow('Window grace period must not be negative.');
  });

  /** SlidingWindowsTest.equalsAndHashcodeShouldBeValidForPositiveCases */
  it('equalsAndHashcodeShouldBeValidForPositiveCases', () => {
    const grace = randomBetween(1, 20);
    const timeDifference = randomBetween(1, 20);
    verifyEquality(SlidingWindows.ofTimeDifferenceAndGrace(timeDifference, grace), SlidingWindows.ofTimeDifferenceAndGrace(timeDifference, grace));
    verifyEquality(SlidingWindows.ofTimeDifferenceAndGrace(timeDifference, grace), SlidingWindows.ofTimeDifferenceAndGrace(timeDifference, grace));
    verifyEquality(SlidingWindows.ofTimeDifferenceWithNoGrace(timeDifference), SlidingWindows.ofTimeDifferenceWithNoGrace(timeDifference));
  });

  /** SlidingWindowsTest.equalsAndHashcodeShouldNotBeEqualForDifferentTimeDifference */
  it('equalsAndHashcodeShouldNotBeEqualForDifferentTimeDifference', () => {
    const grace = randomBetween(1, 10);
    const timeDifferenceOne = randomBetween(1, 10);
    const timeDifferenceTwo = randomBetween(21, 41);
    verifyInEquality(SlidingWindows.ofTimeDifferenceAndGrace(timeDifferenceOne, grace), SlidingWindows.ofTimeDifferenceAndGrace(timeDifferenceTwo, grace));
  });

  /** SlidingWindowsTest.equalsAndHashcodeShouldNotBeEqualForDifferentGracePeriod */
  it('equalsAndHashcodeShouldNotBeEqualForDifferentGracePeriod', () => {
    const timeDifference = randomBetween(1, 10);
    const graceOne = randomBetween(1, 10);
    const graceTwo = randomBetween(21, 41);
    verifyInEquality(SlidingWindows.ofTimeDifferenceAndGrace(timeDifference, graceOne), SlidingWindows.ofTimeDifferenceAndGrace(timeDifference, graceTwo));
  });

  // sluice: Kafka's ApiUtils messages for values that are no milliseconds (a Duration cannot be one in Java)
  it('rejects a time difference or grace that is no whole number of ms, naming the parameter', () => {
    expect(() => SlidingWindows.ofTimeDifferenceAndGrace(1.5, 0)).toThrow('Invalid value for parameter "timeDifference" (value was: 1.5). It can\'t be converted to milliseconds.');
    expect(() => SlidingWindows.ofTimeDifferenceAndGrace(10, undefined as unknown as number)).toThrow('Invalid value for parameter "afterWindowEnd" (value was: undefined). It shouldn\'t be null.');
    expect(String(SlidingWindows.ofTimeDifferenceAndGrace(10, 5))).toBe('SlidingWindows{, sizeMs=10, graceMs=5}');
  });
});
