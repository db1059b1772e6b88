/**
 * The per-task instances of a sub-topology: processor instances with their
 * contexts, source lookup by topic, and the task's state stores.
 */
import { supplyProcessor, type Processor } from '../processor.js';
import type { StateStore } from '../../state/state-store.js';
import type { NodeDef, SubtopologyPlan, TopologyPlan } from '../plan.js';
import { ProcessorContextImpl, type ContextHost } from './processor-context-impl.js';
import type { ManagedStateStore } from '../task-contract.js';
import { defined } from '../../internal/defined.js';
import { StreamsError } from '../../errors.js';

/** One node of one task. */
export interface TaskNode {
  def: NodeDef;
  children: TaskNode[];
  processor?: Processor<unknown, unknown, unknown, unknown>;
  context?: ProcessorContextImpl;
  /** True while the node's `process` (or one of its punctuators) runs or its returned promise is pending: only then may it forward. */
  busy: boolean;
  /** The node's forwards still running (children chained after an async child); `undefined` when all ran synchronously. */
  tail: Promise<void> | undefined;
  /** Records this node received in this task (a plain increment where it is handed a record; the live UI's per-node rate). */
  processed: number;
}

/** The instantiated nodes and stores of a task. */
export interface TaskGraph {
  nodes: Map<string, TaskNode>;
  /** Parents before children. */
  ordered: TaskNode[];
  sourceByTopic: Map<string, TaskNode>;
  storeByName: Map<string, StateStore & ManagedStateStore>;
}

/** Builds fresh processor and store instances for one task. */
export function buildTaskGraph(plan: TopologyPlan, sub: SubtopologyPlan, host: ContextHost): TaskGraph {
  const graph: TaskGraph = { nodes: new Map(), ordered: [], sourceByTopic: new Map(), storeByName: new Map() };
  for (const name of sub.stores) {
    graph.storeByName.set(name, defined(plan.stores.get(name), `store ${name}`).builder.build() as StateStore & ManagedStateStore);
  }
  for (const name of sub.nodes) {
    const def = defined(plan.nodes.get(name), `node ${name}`);
    const node: TaskNode = { def, children: [], busy: false, tail: undefined, processed: 0 };
    if (def.kind === 'processor') {
      node.processor = supplyProcessor(def.supplier);
      node.context = new ProcessorContextImpl(host, name, def.stores);
    }
    if (def.kind === 'source') for (const topic of def.topics) graph.sourceByTopic.set(topic, node);
    graph.nodes.set(name, node);
    graph.ordered.push(node);
  }
  for (const node of graph.ordered) {
    node.children = (plan.children.get(node.def.name) ?? []).map((child) => defined(graph.nodes.get(child), `node ${child}`));
  }
  return graph;
}

/** Calls `init` on every processor, parents first; a throw that is no StreamsError becomes `PROCESSOR_INIT_FAILED` naming the node. */
export function initNodes(ordered: readonly TaskNode[], label: string): void {
  for (const node of ordered) {
    if (!node.processor?.init) continue;
    try {
      node.processor.init(defined(node.context, `context of ${node.def.name}`));
    } catch (error) {
      if (error instanceof StreamsError) throw error;
      throw new StreamsError(`Processor '${node.def.name}' failed to initialize in task ${label}`, { code: 'PROCESSOR_INIT_FAILED', kind: 'fatal', cause: error });
    }
  }
}

/** Adds the record count of every node of `ordered` to `into`, by node name (what `TaskProcessor.nodeRecordCounts` reports). */
export function addNodeRecordCounts(ordered: readonly TaskNode[], into: Map<string, number>): void {
  for (const node of ordered) into.set(node.def.name, (into.get(node.def.name) ?? 0) + node.processed);
}
