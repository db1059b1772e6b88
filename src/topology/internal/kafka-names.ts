/**
 * Node and store names of the table DSL in Kafka's order of generation
 * (`NamedInternal.orElseGenerateWithPrefix` / `suffixWithOrElseGet`,
 * `InternalStreamsBuilder.newStoreName`): an index is consumed for every
 * node even when the user names it, so the generated names after a named
 * node are the ones Kafka Streams gives.
 */
import type { Named } from '../options.js';
import type { BuilderContext } from './builder-context.js';
import { validateName } from './checks.js';

/** The user's name, else `prefix` + the next index; the index is consumed either way (Kafka's `orElseGenerateWithPrefix`). */
export function nodeName(ctx: BuilderContext, named: Named | string | undefined, prefix: string): string {
  const generated = ctx.newName(prefix);
  if (named === undefined) return generated;
  return validateName(typeof named === 'string' ? named : named.name);
}

/** `<name><suffix>` for a named node, else `prefix` + the next index; the index is consumed either way (Kafka's `suffixWithOrElseGet`). */
export function suffixedNodeName(ctx: BuilderContext, named: Named | string | undefined, suffix: string, prefix: string): string {
  const generated = ctx.newName(prefix);
  if (named === undefined) return generated;
  return validateName(`${typeof named === 'string' ? named : named.name}${suffix}`);
}

/** A generated store name, `<prefix>STATE-STORE-<n>` (Kafka's `newStoreName`). */
export function newStoreName(ctx: BuilderContext, prefix: string): string {
  return ctx.newName(`${prefix}STATE-STORE-`);
}
