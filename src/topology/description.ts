/**
 * `Topology.describe()`: the structure of a topology, printed in Kafka
 * Streams' text layout (`toString()`) or as a Mermaid flowchart (`toMermaid()`).
 */
import type { TopologyPlan } from '../processors/plan.js';
import { defined } from '../internal/defined.js';

/** A source node: reads topics. */
export interface SourceNodeDescription {
  readonly type: 'source';
  readonly name: string;
  /** The topics it reads (empty for a pattern source). */
  readonly topics: readonly string[];
  /** The pattern of a regex subscription (`orders-.*`; Java's `topicPattern()`); absent for named topics. */
  readonly topicPattern?: string;
  readonly successors: readonly string[];
  readonly predecessors: readonly string[];
}

/** A processor node, with the state stores it is connected to. */
export interface ProcessorNodeDescription {
  readonly type: 'processor';
  readonly name: string;
  readonly stores: readonly string[];
  readonly successors: readonly string[];
  readonly predecessors: readonly string[];
}

/** A sink node: writes a topic (or a topic chosen per record by an extractor, then `topic` is null). */
export interface SinkNodeDescription {
  readonly type: 'sink';
  readonly name: string;
  readonly topic: string | null;
  /** The extractor's function name when the topic is chosen per record. */
  readonly extractor: string | null;
  readonly successors: readonly string[];
  readonly predecessors: readonly string[];
}

/** Any node of a description. */
export type NodeDescription = SourceNodeDescription | ProcessorNodeDescription | SinkNodeDescription;

/** One sub-topology: nodes ordered as Kafka Streams prints them. */
export interface SubtopologyDescription {
  readonly id: number;
  readonly nodes: readonly NodeDescription[];
}

/** A global store (Kafka's `TopologyDescription.GlobalStore`): its source and the processor keeping it; it generates no tasks. */
export interface GlobalStoreDescription {
  readonly id: number;
  readonly source: SourceNodeDescription;
  readonly processor: ProcessorNodeDescription;
}

/** The description of a topology. */
export interface TopologyDescription {
  readonly subtopologies: readonly SubtopologyDescription[];
  /** The global stores (`builder.globalTable`, `Topology.addGlobalStore`), by id. */
  readonly globalStores: readonly GlobalStoreDescription[];
  /** Kafka Streams' `TopologyDescription.toString()` layout. */
  toString(): string;
  /** A Mermaid `flowchart` of topics, nodes and stores, one subgraph per sub-topology. */
  toMermaid(): string;
}

/** Builds the description of a validated plan. */
export function describePlan(plan: TopologyPlan): TopologyDescription {
  const parents = new Map<string, string[]>();
  for (const [name, kids] of plan.children) for (const kid of kids) parents.set(kid, [...(parents.get(kid) ?? []), name]);
  const sizes = new Map<string, number>();
  const size = (name: string): number => {
    let s = sizes.get(name);
    if (s === undefined) {
      s = 1 + (plan.children.get(name) ?? []).reduce((sum, kid) => sum + size(kid), 0);
      sizes.set(name, s);
    }
    return s;
  };
  // Kafka's NODE_COMPARATOR: larger sub-tree first, then by name.
  const order = (a: string, b: string): number => size(b) - size(a) || (a < b ? -1 : a > b ? 1 : 0);
  const describeNode = (name: string): NodeDescription => {
    const def = defined(plan.nodes.get(name), `node '${name}' of the plan`);
    const successors = [...(plan.children.get(name) ?? [])].sort(order);
    const predecessors = [...(parents.get(name) ?? [])].sort(order);
    switch (def.kind) {
      case 'source':
        return def.topicPattern !== undefined
          ? { type: 'source', name, topics: [], topicPattern: def.topicPattern, successors, predecessors }
          : { type: 'source', name, topics: [...def.topics], successors, predecessors };
      case 'processor':
        return { type: 'processor', name, stores: [...def.stores], successors, predecessors };
      case 'sink':
        return typeof def.topic === 'string'
          ? { type: 'sink', name, topic: def.topic, extractor: null, successors, predecessors }
          : { type: 'sink', name, topic: null, extractor: def.topic.name || 'anonymous', successors, predecessors };
    }
  };
  const subtopologies = plan.subtopologies.map((sub) => ({
    id: sub.id,
    nodes: [...sub.nodes].sort(order).map(describeNode),
  }));
  const globalStores = (plan.globalStores ?? []).map((g) => ({
    id: g.id,
    source: describeNode(g.sourceName) as SourceNodeDescription,
    processor: describeNode(g.processorName) as ProcessorNodeDescription,
  }));
  return {
    subtopologies,
    globalStores,
    toString: () => formatText(subtopologies, globalStores),
    toMermaid: () => formatMermaid([...subtopologies, ...globalStores.map((g) => ({ id: g.id, nodes: [g.source, g.processor] }))]),
  };
}

function names(list: readonly string[]): string {
  return list.length === 0 ? 'none' : list.join(', ');
}

function formatNode(node: NodeDescription): string {
  switch (node.type) {
    case 'source':
      // Kafka prints a pattern as is (`topics: orders-.*`), a topic list in brackets.
      return `Source: ${node.name} (topics: ${node.topicPattern ?? `[${node.topics.join(', ')}]`})\n      --> ${names(node.successors)}`;
    case 'processor':
      return (
        `Processor: ${node.name} (stores: [${node.stores.join(', ')}])\n` +
        `      --> ${names(node.successors)}\n      <-- ${names(node.predecessors)}`
      );
    case 'sink': {
      const target = node.topic !== null ? `topic: ${node.topic}` : `extractor class: ${node.extractor}`;
      return `Sink: ${node.name} (${target})\n      <-- ${names(node.predecessors)}`;
    }
  }
}

/** Kafka's `TopologyDescription.toString()`: sub-topologies and global stores interleaved by id. */
function formatText(subtopologies: readonly SubtopologyDescription[], globalStores: readonly GlobalStoreDescription[] = []): string {
  const parts: Array<{ id: number; text: string }> = [];
  for (const sub of subtopologies) {
    let text = `  Sub-topology: ${sub.id}\n`;
    for (const node of sub.nodes) text += `    ${formatNode(node)}\n`;
    parts.push({ id: sub.id, text: `${text}\n` });
  }
  for (const g of globalStores) {
    parts.push({ id: g.id, text: `  Sub-topology: ${g.id} for global store (will not generate tasks)\n    ${formatNode(g.source)}\n    ${formatNode(g.processor)}\n` });
  }
  return `Topologies:\n ${parts.sort((a, b) => a.id - b.id).map((p) => p.text).join('')}`;
}

function formatMermaid(subtopologies: readonly SubtopologyDescription[]): string {
  const ids = new Map<string, string>();
  const id = (key: string): string => {
    let v = ids.get(key);
    if (v === undefined) {
      v = `n${ids.size}`;
      ids.set(key, v);
    }
    return v;
  };
  const q = (text: string): string => `"${text.replace(/"/g, '#quot;')}"`;
  const lines = ['flowchart TB'];
  const outside: string[] = [];
  for (const sub of subtopologies) {
    lines.push(`  subgraph sub${sub.id}[${q(`Sub-topology: ${sub.id}`)}]`);
    for (const node of sub.nodes) {
      lines.push(`    ${id(`node:${node.name}`)}[${q(node.name)}]`);
      for (const succ of node.successors) outside.push(`  ${id(`node:${node.name}`)} --> ${id(`node:${succ}`)}`);
      if (node.type === 'source') {
        for (const t of node.topicPattern !== undefined ? [`/${node.topicPattern}/`] : node.topics) outside.push(`  ${id(`topic:${t}`)}[/${q(t)}/] --> ${id(`node:${node.name}`)}`);
      } else if (node.type === 'sink') {
        const t = node.topic ?? `(${node.extractor})`;
        outside.push(`  ${id(`node:${node.name}`)} --> ${id(`topic:${t}`)}[/${q(t)}/]`);
      } else {
        for (const s of node.stores) outside.push(`  ${id(`node:${node.name}`)} -.- ${id(`store:${s}`)}[(${q(s)})]`);
      }
    }
    lines.push('  end');
  }
  return [...lines, ...outside].join('\n') + '\n';
}
