/**
 * What DSL objects share with their StreamsBuilder.
 */
import type { Serde } from '../../serdes/serde.js';
import type { KGroupedStream } from '../kgrouped-stream.js';
import type { KGroupedTable } from '../kgrouped-table.js';
import type { KStream } from '../kstream.js';
import type { KTable } from '../ktable.js';
import type { Topology } from '../topology.js';
import type { Named } from '../options.js';
import { validateName } from './checks.js';

/**
 * The DSL classes, handed in by the StreamsBuilder: the wiring files of
 * `topology/internal/` (and `KTable.toStream`) build their results with
 * them instead of importing the classes, so no import circle runs through
 * `kstream.ts`/`ktable.ts` and the wiring files (the classes import the
 * wiring files, never the other way round).
 */
export interface DslClasses {
  readonly KStream: typeof KStream;
  readonly KTable: typeof KTable;
  readonly KGroupedStream: typeof KGroupedStream;
  readonly KGroupedTable: typeof KGroupedTable;
}

/** The builder state DSL objects write into. */
export interface BuilderContext {
  readonly topology: Topology;
  /** The DSL classes to build results with (see {@link DslClasses}). */
  readonly dsl: DslClasses;
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
