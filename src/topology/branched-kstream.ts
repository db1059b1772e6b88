/**
 * `KStream.split()`: routing each record to the first branch whose predicate
 * matches, as Kafka Streams' BranchedKStream.
 */
import { IllegalStateError } from '../errors.js';
import { branchSupplier, passThroughSupplier } from '../processors/dsl/stateless.js';
import type { ProcessorSupplier } from '../processors/processor.js';
import { requireFunction, requireNonNull } from './internal/checks.js';
import type { BuilderContext } from './internal/builder-context.js';
import type { Branched, BranchedKStream, KStream } from './dsl-interfaces.js';

type AddChild<K, V> = (
  name: string,
  supplier: ProcessorSupplier<K, V, K, V>,
  parents: string[],
  keyChanged: boolean,
) => KStream<K, V>;

/** @internal The implementation of {@link BranchedKStream} (dsl-interfaces.ts). */
export class BranchedKStreamImpl<K, V> implements BranchedKStream<K, V> {
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

  branch(predicate: (key: K, value: V) => boolean, branched: Branched<K, V> = {}): this {
    requireFunction(predicate, 'predicate');
    requireNonNull(branched, 'branched');
    this.ensureOpen('branch()');
    const childName = this.splitName + (branched.name ?? String(this.branches.length + 1));
    this.branches.push({ predicate, child: childName });
    this.addBranch(childName, branched);
    return this;
  }

  defaultBranch(branched: Branched<K, V> = {}): Map<string, KStream<K, V>> {
    requireNonNull(branched, 'branched');
    this.ensureOpen('defaultBranch()');
    const childName = this.splitName + (branched.name ?? '0');
    this.defaultChild.name = childName;
    this.addBranch(childName, branched);
    this.finished = true;
    return new Map(this.result);
  }

  noDefaultBranch(): Map<string, KStream<K, V>> {
    this.ensureOpen('noDefaultBranch()');
    this.finished = true;
    return new Map(this.result);
  }
}
