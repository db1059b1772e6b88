/**
 * Ported from Kafka Streams' `SessionWindowsTest` (inputs and expected
 * outputs unchanged; durations in milliseconds). Kafka's `verifyEquality` /
 * `verifyInEquality` check `equals` and `hashCode`, as here.
 */
import { describe, expect, it } from 'vitest';
import { IllegalArgumentError, SessionWindows } from '../../../../../src/index.js';

const ANY_SIZE = 123;
const ANY_OTHER_SIZE = 456; // should be larger than anySize
const ANY_GRACE = 1024;

function verifyEquality(a: SessionWindows, b: SessionWindows): void {
  expect(a.equals(b)).toBe(true);
  expect(b.equals(a)).toBe(true);
  expect(a.hashCode()).toBe(b.hashCode());
}

function verifyInEquality(a: SessionWindows, b: SessionWindows): void {
  expect(a.equals(b)).toBe(false);
  expect(b.equals(a)).toBe(false);
  expect(a.hashCode()).not.toBe(b.hashCode());
}

describe('SessionWindowsTest', () => {
  // SessionWindowsTest.shouldSetWindowGap
  it('shouldSetWindowGap', () => {
    const anyGap = 42;
    expect(SessionWindows.ofInactivityGapWithNoGrace(anyGap).inactivityGap()).toBe(anyGap);
    expect(SessionWindows.ofInactivityGapAndGrace(anyGap, ANY_GRACE).inactivityGap()).toBe(anyGap);
  });

  // SessionWindowsTest.gracePeriodShouldEnforceBoundaries
  it('gracePeriodShouldEnforceBoundaries', () => {
    SessionWindows.ofInactivityGapAndGrace(3, 0);
    expect(() => SessionWindows.ofInactivityGapAndGrace(3, -1)).toThrow(IllegalArgumentError);
    expect(() => SessionWindows.ofInactivityGapAndGrace(3, -1)).toThrow('Grace period must not be negative.');
  });

  // SessionWindowsTest.noGraceAPIShouldNotSetGracePeriod
  it('noGraceAPIShouldNotSetGracePeriod', () => {
    expect(SessionWindows.ofInactivityGapWithNoGrace(3).gracePeriodMs()).toBe(0);
    expect(SessionWindows.ofInactivityGapWithNoGrace(ANY_SIZE).gracePeriodMs()).toBe(0);
    expect(SessionWindows.ofInactivityGapWithNoGrace(ANY_OTHER_SIZE).gracePeriodMs()).toBe(0);
  });

  // SessionWindowsTest.withGraceAPIShouldSetGracePeriod
  it('withGraceAPIShouldSetGracePeriod', () => {
    expect(SessionWindows.ofInactivityGapAndGrace(3, ANY_GRACE).gracePeriodMs()).toBe(ANY_GRACE);
    expect(SessionWindows.ofInactivityGapAndGrace(ANY_SIZE, ANY_GRACE).gracePeriodMs()).toBe(ANY_GRACE);
    expect(SessionWindows.ofInactivityGapAndGrace(ANY_OTHER_SIZE, ANY_GRACE).gracePeriodMs()).toBe(ANY_GRACE);
  });

  // SessionWindowsTest.windowSizeMustNotBeNegative
  it('windowSizeMustNotBeNegative', () => {
    expect(() => SessionWindows.ofInactivityGapWithNoGrace(-1)).toThrow(IllegalArgumentError);
  });

  // SessionWindowsTest.windowSizeMustNotBeZero
  it('windowSizeMustNotBeZero', () => {
    expect(() => SessionWindows.ofInactivityGapWithNoGrace(0)).toThrow('Gap time cannot be zero or negative.');
  });

  // SessionWindowsTest.equalsAndHashcodeShouldBeValidForPositiveCases
  it('equalsAndHashcodeShouldBeValidForPositiveCases', () => {
    verifyEquality(SessionWindows.ofInactivityGapWithNoGrace(1), SessionWindows.ofInactivityGapWithNoGrace(1));
    verifyEquality(SessionWindows.ofInactivityGapAndGrace(1, 11), SessionWindows.ofInactivityGapAndGrace(1, 11));
  });

  // SessionWindowsTest.equalsAndHashcodeShouldBeValidForNegativeCases
  it('equalsAndHashcodeShouldBeValidForNegativeCases', () => {
    verifyInEquality(SessionWindows.ofInactivityGapWithNoGrace(9), SessionWindows.ofInactivityGapWithNoGrace(1));
    verifyInEquality(SessionWindows.ofInactivityGapAndGrace(9, 9), SessionWindows.ofInactivityGapAndGrace(1, 9));
    verifyInEquality(SessionWindows.ofInactivityGapAndGrace(1, 9), SessionWindows.ofInactivityGapAndGrace(1, 6));
  });

  // sluice: a missing or fractional duration fails with Kafka's ApiUtils message
  it('names the parameter of a missing or non-integer duration', () => {
    expect(() => SessionWindows.ofInactivityGapWithNoGrace(null as unknown as number)).toThrow('Invalid value for parameter "inactivityGap" (value was: null). It shouldn\'t be null.');
    expect(() => SessionWindows.ofInactivityGapAndGrace(5, 1.5)).toThrow('Invalid value for parameter "afterWindowEnd" (value was: 1.5). It can\'t be converted to milliseconds.');
    expect(String(SessionWindows.ofInactivityGapAndGrace(5, 2))).toBe('SessionWindows{gapMs=5, graceMs=2}');
  });
});
