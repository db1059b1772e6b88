/**
 * `KStream.split()`: routing each record to the first branch whose predicate
 * matches, as Kafka Streams' BranchedKStream.
 */
import { IllegalStateError } from '../errors.js';
import { branchSupplier, passThroughSupplier } from '../processors/dsl/stateless.js';
import type { ProcessorSupplier } from '../processors/processor.js';
import { requireFunction, requireNonNull } from './internal/checks.js';
import type { BuilderContext } from './internal/builder-context.js';
import type { KStream } from './kstream.js';

/**
 * How a branch is named and what is done with it. Without a function the
 * branch stream itself goes into the result map; `withFunction` puts the
 * function's result (unless null/undefined); `withConsumer` puts nothing.
 */
export interface Branched<K, V> {
  /** Appended to the split name to name the branch (default: its 1-based position; `0` for the default branch). */
  readonly name?: string;
  readonly fn?: (stream: KStream<K, V>) => KStream<K, V> | null | undefined | void;
  readonly kind?: 'function' | 'consumer';
}

/** Helpers for {@link Branched}. */
export const Branched = {
  /** A branch named `name`. */
  as<K, V>(name: string): Branched<K, V> {
    return { name };
  },
  /** Transforms the branch; the result goes into the map. */
  withFunction<K, V>(fn: (stream: KStream<K, V>) => KStream<K, V> | null | undefined, name?: string): Branched<K, V> {
    return { fn, kind: 'function', ...(name === undefined ? {} : { name }) };
  },
  /** Consumes the branch; nothing goes into the map. */
  withConsumer<K, V>(fn: (stream: KStream<K, V>) => void, name?: string): Branched<K, V> {
    return { fn, kind: 'consumer', ...(name === undefined ? {} : { name }) };
  },
};

type AddChild<K, V> = (
  name: string,
  supplier: ProcessorSupplier<K, V, K, V>,
  parents: string[],
  keyChanged: boolean,
) => KStream<K, V>;

/** The branches of a split stream; finish with `defaultBranch()` or `noDefaultBranch()`. */
export class BranchedKStream<K, V> {
  private readonly branches: Array<{ predicate: (key: K, value: V) => boolean; child: string }> = [];
  private readonly defaultChild: { name: string | null } = { name: null };
  private readonly result = new Map<string, KStream<K, V>>();
  private finished = false;

  /** @internal Use `KStream.split()`. */
  constructor(
    ctx: BuilderContext,
    private readonly source: KStream<K, V>,
    /** The splitter node name; also the prefix of branch names. */
    readonly splitName: string,
    private readonly addChild: AddChild<K, V>,
  ) {
    ctx.topology.addProcessor(splitName, branchSupplier(this.branches, this.defaultChild), source.nodeName);
  }

  private ensureOpen(op: string): void {
    if (this.finished) {
      throw new IllegalStateError(`split '${this.splitName}': ${op} after defaultBranch()/noDefaultBranch(); allowed only before them`);
    }
  }

  private addBranch(childName: string, branched: Branched<K, V>): void {
    const stream = this.addChild(childName, passThroughSupplier<K, V>(), [this.splitName], this.source.keyChanged);
    if (branched.fn === undefined) {
      this.result.set(childName, stream);
      return;
    }
    const out = branched.fn(stream);
    if (branched.kind !== 'consumer' && out) this.result.set(childName, out);
  }

  /** Adds a branch taking the records (not taken by an earlier branch) for which `predicate` is true. */
  branch(predicate: (key: K, value: V) => boolean, branched: Branched<K, V> = {}): this {
    requireFunction(predicate, 'predicate');
    requireNonNull(branched, 'branched');
    this.ensureOpen('branch()');
    const childName = this.splitName + (branched.name ?? String(this.branches.length + 1));
    this.branches.push({ predicate, child: childName });
    this.addBranch(childName, branched);
    return this;
  }

  /** Adds the branch of the records no predicate took, and returns the branches by name. */
  defaultBranch(branched: Branched<K, V> = {}): Map<string, KStream<K, V>> {
    requireNonNull(branched, 'branched');
    this.ensureOpen('defaultBranch()');
    const childName = this.splitName + (branched.name ?? '0');
    this.defaultChild.name = childName;
    this.addBranch(childName, branched);
    this.finished = true;
    return new Map(this.result);
  }

  /** Drops the records no predicate took, and returns the branches by name. */
  noDefaultBranch(): Map<string, KStream<K, V>> {
    this.ensureOpen('noDefaultBranch()');
    this.finished = true;
    return new Map(this.result);
  }
}
