/**
 * Ported from Kafka Streams' `TimeWindowsTest` (inputs and expected outputs
 * unchanged; Kafka's `Duration`s are milliseconds here). Kafka's
 * `verifyEquality` / `verifyInEquality` (EqualityCheck, in
 * `test/helpers/windows`) compare `equals` both ways and `hashCode`.
 */
import { describe, expect, it } from 'vitest';
import { IllegalArgumentError, TimeWindows } from '../../../../../src/index.js';
import { verifyEquality, verifyInEquality } from '../../../../helpers/windows/equality-check.js';

const ANY_SIZE = 123;
const ANY_GRACE = 1024;

describe('TimeWindowsTest', () => {
  // TimeWindowsTest.shouldSetWindowSize
  it('shouldSetWindowSize', () => {
    expect(TimeWindows.ofSizeWithNoGrace(ANY_SIZE).sizeMs).toBe(ANY_SIZE);
    expect(TimeWindows.ofSizeAndGrace(ANY_SIZE, ANY_GRACE).sizeMs).toBe(ANY_SIZE);
  });

  // TimeWindowsTest.shouldSetWindowAdvance
  it('shouldSetWindowAdvance', () => {
    const anyAdvance = 4;
    expect(TimeWindows.ofSizeWithNoGrace(ANY_SIZE).advanceBy(anyAdvance).advanceMs).toBe(anyAdvance);
  });

  // TimeWindowsTest.windowSizeMustNotBeZero
  it('windowSizeMustNotBeZero', () => {
    expect(() => TimeWindows.ofSizeWithNoGrace(0)).toThrow(IllegalArgumentError);
    expect(() => TimeWindows.ofSizeWithNoGrace(0)).toThrow('Window size (sizeMs) must be larger than zero.');
  });

  // TimeWindowsTest.windowSizeMustNotBeNegative
  it('windowSizeMustNotBeNegative', () => {
    expect(() => TimeWindows.ofSizeWithNoGrace(-1)).toThrow(IllegalArgumentError);
  });

  // TimeWindowsTest.advanceIntervalMustNotBeZero
  it('advanceIntervalMustNotBeZero', () => {
    const windowSpec = TimeWindows.ofSizeWithNoGrace(ANY_SIZE);
    expect(() => windowSpec.advanceBy(0)).toThrow(IllegalArgumentError);
    expect(() => windowSpec.advanceBy(0)).toThrow(
      'Window advancement interval should be more than zero and less than window duration which is 123 ms, but given advancement interval is: 0 ms',
    );
  });

  // TimeWindowsTest.advanceIntervalMustNotBeNegative
  it('advanceIntervalMustNotBeNegative', () => {
    expect(() => TimeWindows.ofSizeWithNoGrace(ANY_SIZE).advanceBy(-1)).toThrow(IllegalArgumentError);
  });

  // TimeWindowsTest.advanceIntervalMustNotBeLargerThanWindowSize
  it('advanceIntervalMustNotBeLargerThanWindowSize', () => {
    expect(() => TimeWindows.ofSizeWithNoGrace(ANY_SIZE).advanceBy(ANY_SIZE + 1)).toThrow(IllegalArgumentError);
  });

  // TimeWindowsTest.gracePeriodShouldEnforceBoundaries
  it('gracePeriodShouldEnforceBoundaries', () => {
    expect(TimeWindows.ofSizeAndGrace(3, 0).gracePeriodMs()).toBe(0);
    expect(() => TimeWindows.ofSizeAndGrace(3, -1)).toThrow('Grace period must not be negative.');
  });

  // TimeWindowsTest.shouldComputeWindowsForHoppingWindows
  it('shouldComputeWindowsForHoppingWindows', () => {
    const windows = TimeWindows.ofSizeWithNoGrace(12).advanceBy(5);
    const matched = windows.windowsFor(21);
    expect(matched.size).toBe(Math.floor(12 / 5) + 1);
    expect(matched.get(10)).toEqual({ start: 10, end: 22 });
    expect(matched.get(15)).toEqual({ start: 15, end: 27 });
    expect(matched.get(20)).toEqual({ start: 20, end: 32 });
  });

  // TimeWindowsTest.shouldComputeWindowsForBarelyOverlappingHoppingWindows
  it('shouldComputeWindowsForBarelyOverlappingHoppingWindows', () => {
    const matched = TimeWindows.ofSizeWithNoGrace(6).advanceBy(5).windowsFor(7);
    expect(matched.size).toBe(1);
    expect(matched.get(5)).toEqual({ start: 5, end: 11 });
  });

  // TimeWindowsTest.shouldComputeWindowsForTumblingWindows
  it('shouldComputeWindowsForTumblingWindows', () => {
    const matched = TimeWindows.ofSizeWithNoGrace(12).windowsFor(21);
    expect(matched.size).toBe(1);
    expect(matched.get(12)).toEqual({ start: 12, end: 24 });
  });

  // TimeWindowsTest.equalsAndHashcodeShouldBeValidForPositiveCases
  it('equalsAndHashcodeShouldBeValidForPositiveCases', () => {
    verifyEquality(TimeWindows.ofSizeWithNoGrace(3), TimeWindows.ofSizeWithNoGrace(3));
    verifyEquality(TimeWindows.ofSizeWithNoGrace(3).advanceBy(1), TimeWindows.ofSizeWithNoGrace(3).advanceBy(1));
    verifyEquality(TimeWindows.ofSizeAndGrace(3, 4), TimeWindows.ofSizeAndGrace(3, 4));
    verifyEquality(TimeWindows.ofSizeAndGrace(3, 33), TimeWindows.ofSizeAndGrace(3, 33));
  });

  // TimeWindowsTest.equalsAndHashcodeShouldBeValidForNegativeCases
  it('equalsAndHashcodeShouldBeValidForNegativeCases', () => {
    verifyInEquality(TimeWindows.ofSizeWithNoGrace(9), TimeWindows.ofSizeWithNoGrace(3));
    verifyInEquality(TimeWindows.ofSizeAndGrace(9, 9), TimeWindows.ofSizeAndGrace(3, 9));
    verifyInEquality(TimeWindows.ofSizeWithNoGrace(3).advanceBy(2), TimeWindows.ofSizeWithNoGrace(3).advanceBy(1));
    verifyInEquality(TimeWindows.ofSizeAndGrace(3, 2), TimeWindows.ofSizeAndGrace(3, 1));
    verifyInEquality(TimeWindows.ofSizeAndGrace(3, 9), TimeWindows.ofSizeAndGrace(3, 4));
    verifyInEquality(TimeWindows.ofSizeAndGrace(4, 2).advanceBy(2), TimeWindows.ofSizeAndGrace(3, 2).advanceBy(2));
    verifyInEquality(TimeWindows.ofSizeAndGrace(3, 2).advanceBy(1), TimeWindows.ofSizeAndGrace(3, 2).advanceBy(2));
    expect(TimeWindows.ofSizeAndGrace(3, 1).advanceBy(2).equals(TimeWindows.ofSizeAndGrace(3, 2).advanceBy(2))).toBe(false);
  });

  // sluice: Kafka's Duration validation for a value that is no whole number of ms
  it('refuses sizes that are not whole milliseconds, naming the parameter', () => {
    expect(() => TimeWindows.ofSizeWithNoGrace(1.5)).toThrow('Invalid value for parameter "size" (value was: 1.5). It can\'t be converted to milliseconds.');
    expect(() => TimeWindows.ofSizeAndGrace(10, null as never)).toThrow('Invalid value for parameter "afterWindowEnd" (value was: null). It shouldn\'t be null.');
  });
});
