/**
 * The `Unset` brand of the fluent DSL options (`Consumed`, `Grouped`,
 * `Joined`, `Repartitioned`, ...): its own module so the option machinery
 * (internal/fluent.ts) and the option classes (options.ts and the others)
 * both name it without importing each other.
 */

/** The type parameter of a side whose serde is not set (yet): such an option fits a stream of any type on that side. */
export interface Unset {
  /** A brand no value has: `Unset` is only a type parameter. */
  readonly 'sluice.unset': never;
}
