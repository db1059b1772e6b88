/**
 * The per-task instances of a sub-topology: processor instances with their
 * contexts, source lookup by topic, and the task's state stores.
 */
import { IllegalStateError } from '../../errors.js';
import { supplyProcessor, type Processor } from '../processor.js';
import type { StateStore } from '../state/state-store.js';
import type { NodeDef, SubtopologyPlan, TopologyPlan } from '../plan.js';
import { ProcessorContextImpl, type ContextHost } from './processor-context-impl.js';
import type { ManagedStateStore } from '../task-contract.js';
import { defined } from '../../internal/defined.js';

/** One node of one task. */
export interface TaskNode {
  def: NodeDef;
  children: TaskNode[];
  processor?: Processor<unknown, unknown, unknown, unknown>;
  context?: ProcessorContextImpl;
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
    graph.storeByName.set(name, defined(plan.stores.get(name), `store '${name}' of the plan`).builder.build() as StateStore & ManagedStateStore);
  }
  for (const name of sub.nodes) {
    const def = defined(plan.nodes.get(name), `node '${name}' of the plan`);
    const node: TaskNode = { def, children: [] };
    if (def.kind === 'processor') {
      node.processor = supplyProcessor(def.supplier);
      node.context = new ProcessorContextImpl(host, name, def.stores);
    }
    if (def.kind === 'source') for (const topic of def.topics) graph.sourceByTopic.set(topic, node);
    graph.nodes.set(name, node);
    graph.ordered.push(node);
  }
  for (const node of graph.ordered) {
    node.children = (plan.children.get(node.def.name) ?? []).map((child) => defined(graph.nodes.get(child), `node '${child}' of the task`));
  }
  return graph;
}

/** States of a task. */
export type TaskState = 'CREATED' | 'RUNNING' | 'CLOSED';

const TRANSITIONS: { [S in TaskState]: readonly TaskState[] } = {
  CREATED: ['RUNNING', 'CLOSED'],
  RUNNING: ['CLOSED'],
  CLOSED: [],
};

const ALLOWED: Record<'init' | 'process' | 'punctuateWallClock', readonly TaskState[]> = {
  init: ['CREATED'],
  process: ['RUNNING'],
  punctuateWallClock: ['RUNNING'],
};

/** The task's state machine: guarded operations and transitions (IllegalStateError names the allowed states). */
export class TaskStateMachine {
  state: TaskState = 'CREATED';

  constructor(private readonly label: string) {}

  guard(op: keyof typeof ALLOWED): void {
    const allowed = ALLOWED[op];
    if (!allowed.includes(this.state)) {
      throw new IllegalStateError(`Task ${this.label} cannot ${op} in state ${this.state}; allowed in: ${allowed.join(', ')}`);
    }
  }

  transition(to: TaskState): void {
    if (!TRANSITIONS[this.state].includes(to)) {
      const from = (Object.keys(TRANSITIONS) as TaskState[]).filter((s) => TRANSITIONS[s].includes(to));
      throw new IllegalStateError(`Task ${this.label} cannot go from ${this.state} to ${to}; allowed from: ${from.join(', ')}`);
    }
    this.state = to;
  }
}
