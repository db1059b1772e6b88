/**
 * What DSL objects share with their StreamsBuilder. This module (and
 * dsl-parts.ts) imports none of the DSL classes: the wiring files of
 * `topology/internal/` take and return plain parts (node names, serdes, this
 * context) and the classes build their own results, so no import circle runs
 * through `kstream.ts`/`ktable.ts` and the wiring files (the classes import
 * the wiring files, never the other way round).
 */
import type { Serde } from '../../serdes/serde.js';
import type { Topology } from '../topology.js';
import type { Named } from '../options.js';
import { validateName } from './checks.js';

/** The builder state DSL objects write into. */
export interface BuilderContext {
  readonly topology: Topology;
  /** `prefix` + the next 10-digit index, e.g. `KSTREAM-FILTER-0000000001`. */
  newName(prefix: string): string;
  readonly defaultKeySerde: Serde<unknown> | undefined;
  readonly defaultValueSerde: Serde<unknown> | undefined;
}

/** Serdes of a stream, where known. */
export interface StreamSerdes<K, V> {
  key?: Serde<K> | undefined;
  value?: Serde<V> | undefined;
}

/** The user's name, or a generated one with `prefix`. */
export function nameOr(ctx: BuilderContext, named: Named | string | undefined, prefix: string): string {
  if (named === undefined) return ctx.newName(prefix);
  return validateName(typeof named === 'string' ? named : named.name);
}
