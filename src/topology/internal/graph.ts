/**
 * The mutable node graph behind a Topology, and its validation into an
 * immutable {@link TopologyPlan} (sub-topologies included).
 */
import { TopologyError } from '../../errors.js';
import type { GlobalStorePlan, NodeDef, SourceNodeDef, StoreDef, SubtopologyPlan, TopologyPlan } from '../../processors/plan.js';
import { defined } from '../../internal/defined.js';
import { validateName, validateStoreName } from './checks.js';

/** Nodes, stores and store connections, as added. */
export class TopologyGraph {
  readonly nodes = new Map<string, NodeDef>();
  readonly stores = new Map<string, StoreDef>();
  /** processor name -> store names, in connection order. */
  readonly connections = new Map<string, string[]>();
  /** topic -> the source node reading it. */
  readonly topicOwners = new Map<string, string>();
  /** source node -> its topic pattern (anchored). */
  readonly sourcePatterns = new Map<string, RegExp>();
  /** Internal (repartition) topics, unresolved names, in creation order. */
  readonly internalTopics = new Set<string>();
  /** Node groups whose input topics must be co-partitioned (joins), as added by `Topology.copartition`. */
  readonly copartitionGroups: string[][] = [];
  /** Internal topics with a fixed partition count (`Repartitioned.withNumberOfPartitions`). */
  readonly internalTopicPartitions = new Map<string, number>();
  /** Internal topics sized as the other source topics of the sub-topology reading them (a foreign-key join's subscription and response topics). */
  readonly internalTopicsSizedByReaders = new Set<string>();
  /** Global stores by store name (Kafka's `addGlobalStore`): their nodes belong to no task. */
  readonly globalStores = new Map<string, Omit<GlobalStorePlan, 'id'>>();

  addNode(def: NodeDef): void {
    if (typeof def.name !== 'string' || def.name === '') {
      throw new TopologyError(`A ${def.kind} node needs a non-empty name; got ${JSON.stringify(def.name)}`);
    }
    validateName(def.name);
    const existing = this.nodes.get(def.name);
    if (existing !== undefined) {
      throw new TopologyError(
        `Node name '${def.name}' is already used by a ${existing.kind} node; give the new ${def.kind} node another name`,
      );
    }
    if (def.kind === 'source') this.checkSourceTopics(def);
    this.nodes.set(def.name, def);
  }

  /** A topic has one source node: a named topic is read by one source, and matched by no pattern of another (Kafka's messages; internal topics exempt). */
  private checkSourceTopics(def: SourceNodeDef): void {
    const { pattern } = def;
    if (pattern !== undefined) {
      for (const topic of this.topicOwners.keys()) {
        if (!this.internalTopics.has(topic) && pattern.test(topic)) throw new TopologyError(`Pattern ${def.topicPattern} will match a topic that has already been registered by another source.`);
      }
      this.sourcePatterns.set(def.name, pattern);
      return;
    }
    for (const topic of def.topics) {
      const owner = this.topicOwners.get(topic);
      if (owner !== undefined) {
        throw new TopologyError(
          `Source '${def.name}': topic '${topic}' is already read by source '${owner}'; a topic can have one source node only (reuse that source)`,
        );
      }
      // An internal (repartition) topic is exempt: its real name is `<applicationId>-<name>`, which patterns never match at start.
      for (const p of this.internalTopics.has(topic) ? [] : this.sourcePatterns.values()) {
        if (p.test(topic)) throw new TopologyError(`Topic ${topic} matches a Pattern already registered by another source.`);
      }
    }
    for (const topic of def.topics) this.topicOwners.set(topic, def.name);
  }

  /**
   * Adds a store; the same builder added again is kept once (Kafka's
   * `isCompatibleWith`: a supplier's `stores()` may return a builder also
   * added directly or by another supplier); another builder of a store's
   * name, or any builder of a global store's name, is a TopologyError
   * (Kafka's messages first).
   */
  addStore(store: StoreDef): void {
    validateStoreName(store.name);
    if (this.globalStores.has(store.name)) {
      throw new TopologyError(`A different GlobalStateStore has already been added with the name ${store.name} (global store '${store.name}'); give this store another name`);
    }
    const existing = this.stores.get(store.name);
    if (existing !== undefined && existing.builder === store.builder) return;
    if (existing !== undefined) {
      throw new TopologyError(
        `A different StateStore has already been added with the name ${store.name} (State store '${store.name}' is already added with another builder); add each store once and connect it to several processors, or return the same builder from every supplier's stores()`,
      );
    }
    this.stores.set(store.name, store);
  }

  /** A global store's name may be no other store's (Kafka's `validateGlobalStoreArguments` messages). */
  checkNewGlobalStoreName(name: string): void {
    validateStoreName(name);
    if (this.globalStores.has(name)) throw new TopologyError(`A different GlobalStateStore has already been added with the name ${name}; give the new global store another name`);
    if (this.stores.has(name)) throw new TopologyError(`A different StateStore has already been added with the name ${name}; give the global store another name`);
  }

  connect(processorName: string, storeNames: readonly string[]): void {
    const list = this.connections.get(processorName) ?? [];
    for (const store of storeNames) if (!list.includes(store)) list.push(store);
    this.connections.set(processorName, list);
  }

  /** Validates and freezes the graph. Throws a TopologyError naming the node and the fix. */
  plan(): TopologyPlan {
    const nodes = new Map<string, NodeDef>();
    for (const [name, def] of this.nodes) {
      nodes.set(name, def.kind === 'processor' ? { ...def, stores: [...(this.connections.get(name) ?? [])] } : def);
    }
    const children = new Map<string, string[]>();
    for (const name of nodes.keys()) children.set(name, []);
    for (const def of nodes.values()) {
      if (def.kind === 'source') continue;
      if (def.parents.length === 0) {
        throw new TopologyError(`${label(def)} '${def.name}' has no parent; name at least one parent node when adding it`);
      }
      for (const parent of def.parents) {
        const p = nodes.get(parent);
        if (p === undefined) {
          throw new TopologyError(`${label(def)} '${def.name}' has unknown parent '${parent}'; add a source or processor named '${parent}' first, or fix the name`);
        }
        if (p.kind === 'sink') {
          throw new TopologyError(`${label(def)} '${def.name}' has sink '${parent}' as parent; a sink cannot have children, use a processor as parent`);
        }
        defined(children.get(parent), `children of '${parent}'`).push(def.name);
      }
    }
    checkCycles(nodes, children);
    this.checkStores(nodes);
    this.checkGlobalStores();
    const all = subtopologies(nodes, children, this.connections);
    // Global stores keep their sub-topology ids (describe() prints them) but generate no tasks, as Kafka's node groups.
    const globalStores: GlobalStorePlan[] = [];
    const subs = all.filter((sub) => {
      const global = [...this.globalStores.values()].find((g) => sub.nodes.includes(g.sourceName));
      if (global !== undefined) globalStores.push({ id: sub.id, ...global });
      return global === undefined;
    });
    const copartitionSources = this.copartitionGroups.map((group) => sourcesFeeding(nodes, group));
    return {
      nodes,
      children,
      stores: new Map(this.stores),
      subtopologies: subs,
      internalTopics: [...this.internalTopics],
      internalTopicPartitions: new Map(this.internalTopicPartitions),
      copartitionGroups: copartitionTopics(nodes, copartitionSources),
      copartitionSources,
      internalTopicsSizedByReaders: [...this.internalTopicsSizedByReaders],
      globalStores,
    };
  }

  /** A global store is used by its own processor only; other processors reach it without a connection (Kafka's message). */
  private checkGlobalStores(): void {
    for (const [processor, stores] of this.connections) {
      for (const store of stores) {
        const global = this.globalStores.get(store);
        if (global !== undefined && global.processorName !== processor) {
          throw new TopologyError(`Global StateStore ${store} can be used by a Processor without being specified; it should not be explicitly passed.`);
        }
      }
    }
    for (const global of this.globalStores.values()) {
      const node = this.nodes.get(global.processorName);
      const kids = [...this.nodes.values()].filter((n) => n.kind !== 'source' && n.name !== global.processorName && (n.parents.includes(global.processorName) || n.parents.includes(global.sourceName)));
      if (node !== undefined && kids.length > 0) {
        throw new TopologyError(`Processor '${global.processorName}' keeps global store '${global.storeName}' and cannot have children ([${kids.map((k) => k.name).join(', ')}]); read the store from other processors with getStateStore('${global.storeName}')`);
      }
    }
  }

  private checkStores(nodes: Map<string, NodeDef>): void {
    const used = new Set<string>();
    for (const [processor, stores] of this.connections) {
      const def = nodes.get(processor);
      if (def === undefined || def.kind !== 'processor') {
        throw new TopologyError(
          `State store(s) [${stores.join(', ')}] are connected to '${processor}', which is ${def ? `a ${def.kind}` : 'not a node of this topology'}; connect stores to processor nodes only`,
        );
      }
      for (const store of stores) {
        if (!this.stores.has(store)) {
          throw new TopologyError(`Processor '${processor}' is connected to unknown state store '${store}'; add it with addStateStore(Stores.keyValueStoreBuilder(...))`);
        }
        used.add(store);
      }
    }
    for (const store of this.stores.keys()) {
      if (!used.has(store)) {
        throw new TopologyError(
          `State store '${store}' is not connected to any processor; connect it with addStateStore(builder, '<processor>'), connectProcessorAndStateStores('<processor>', '${store}') or stream.process(supplier, '${store}'), or remove it`,
        );
      }
    }
  }
}

/**
 * The source nodes feeding `group` (walking parents up from each node), in
 * group order; an unknown node is a TopologyError (Kafka's `copartitionSources`
 * of a node that was never added).
 */
function sourcesFeeding(nodes: Map<string, NodeDef>, group: readonly string[]): string[] {
  const sources: string[] = [];
  const seen = new Set<string>();
  const visit = (name: string): void => {
    if (seen.has(name)) return;
    seen.add(name);
    const def = nodes.get(name);
    if (def === undefined) throw new TopologyError(`Co-partition group [${group.join(', ')}] names unknown node '${name}'; add it before building, or fix the name`);
    if (def.kind === 'source') sources.push(name);
    else for (const parent of def.parents) visit(parent);
  };
  for (const name of group) visit(name);
  return sources;
}

/** The topics the source nodes of each group read (a group of fewer than two topics checks nothing and is still kept, as Kafka's). */
export function copartitionTopics(nodes: ReadonlyMap<string, NodeDef>, groups: readonly string[][]): string[][] {
  return groups.map((sources) => {
    const topics = new Set<string>();
    for (const source of sources) {
      const def = nodes.get(source);
      if (def?.kind === 'source') for (const topic of def.topics) topics.add(topic);
    }
    return [...topics];
  });
}

function label(def: NodeDef): string {
  return def.kind === 'sink' ? 'Sink' : def.kind === 'processor' ? 'Processor' : 'Source';
}

function checkCycles(nodes: Map<string, NodeDef>, children: Map<string, string[]>): void {
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (name: string, path: string[]): void => {
    const s = state.get(name);
    if (s === 'done') return;
    if (s === 'visiting') {
      const cycle = [...path.slice(path.indexOf(name)), name];
      throw new TopologyError(`Processor '${name}' is part of a cycle (${cycle.join(' -> ')}); a topology must be acyclic, remove one of these parent links`);
    }
    state.set(name, 'visiting');
    for (const child of children.get(name) ?? []) visit(child, [...path, name]);
    state.set(name, 'done');
  };
  for (const name of nodes.keys()) visit(name, []);
}

function subtopologies(
  nodes: Map<string, NodeDef>,
  children: Map<string, string[]>,
  connections: Map<string, string[]>,
): SubtopologyPlan[] {
  const parent = new Map<string, string>();
  const find = (x: string): string => {
    let root = x;
    for (let up = parent.get(root); up !== undefined && up !== root; up = parent.get(root)) root = up;
    parent.set(x, root);
    return root;
  };
  const union = (a: string, b: string): void => {
    parent.set(find(a), find(b));
  };
  for (const name of nodes.keys()) parent.set(name, name);
  for (const [name, kids] of children) for (const kid of kids) union(name, kid);
  const storeUser = new Map<string, string>();
  for (const [processor, stores] of connections) {
    for (const store of stores) {
      const other = storeUser.get(store);
      if (other === undefined) storeUser.set(store, processor);
      else union(processor, other);
    }
  }
  const ids = new Map<string, number>();
  const sources = [...nodes.values()].filter((d) => d.kind === 'source').map((d) => d.name).sort();
  for (const name of [...sources, ...[...nodes.keys()].sort()]) {
    const root = find(name);
    if (!ids.has(root)) ids.set(root, ids.size);
  }
  const plans: SubtopologyPlan[] = [...Array(ids.size)].map((_, id) => ({ id, nodes: [], sourceTopics: [], sinkTopics: [], stores: [] }));
  for (const name of topologicalOrder(nodes, children)) {
    const plan = defined(plans[ids.get(find(name)) ?? -1], `sub-topology of node '${name}'`);
    const def = defined(nodes.get(name), `node '${name}'`);
    plan.nodes.push(name);
    if (def.kind === 'source') plan.sourceTopics.push(...def.topics);
    if (def.kind === 'sink' && typeof def.topic === 'string' && !plan.sinkTopics.includes(def.topic)) plan.sinkTopics.push(def.topic);
    for (const store of connections.get(name) ?? []) if (!plan.stores.includes(store)) plan.stores.push(store);
  }
  return plans;
}

/** Parents before children; ties in insertion order. */
function topologicalOrder(nodes: Map<string, NodeDef>, children: Map<string, string[]>): string[] {
  const indegree = new Map<string, number>();
  for (const name of nodes.keys()) indegree.set(name, 0);
  for (const kids of children.values()) for (const kid of kids) indegree.set(kid, (indegree.get(kid) ?? 0) + 1);
  const order: string[] = [];
  const ready = [...nodes.keys()].filter((n) => indegree.get(n) === 0);
  for (let name = ready.shift(); name !== undefined; name = ready.shift()) {
    order.push(name);
    for (const kid of children.get(name) ?? []) {
      const d = (indegree.get(kid) ?? 0) - 1;
      indegree.set(kid, d);
      if (d === 0) ready.push(kid);
    }
  }
  return order;
}
