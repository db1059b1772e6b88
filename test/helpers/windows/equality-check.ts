/**
 * Kafka's `EqualityCheck.verifyEquality` / `verifyInEquality` for the window
 * specifications' `equals` / `hashCode`.
 */
import { expect } from 'vitest';

/** What the window specifications offer for equality. */
export interface Equatable {
  equals(other: unknown): boolean;
  hashCode(): number;
}

/** Kafka's `EqualityCheck.verifyEquality`: equal both ways, same hash, unequal to null and to another type. */
export function verifyEquality(a: Equatable, b: Equatable): void {
  expect(a.equals(b)).toBe(true);
  expect(b.equals(a)).toBe(true);
  expect(a.equals(a)).toBe(true);
  expect(a.hashCode()).toBe(b.hashCode());
  expect(a.equals(null)).toBe(false);
  expect(a.equals({})).toBe(false);
}

/** Kafka's `EqualityCheck.verifyInEquality`: unequal both ways, different hashes. */
export function verifyInEquality(a: Equatable, b: Equatable): void {
  expect(a.equals(b)).toBe(false);
  expect(b.equals(a)).toBe(false);
  expect(a.hashCode()).not.toBe(b.hashCode());
}
