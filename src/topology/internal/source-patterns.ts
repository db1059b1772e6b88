/**
 * Regex subscriptions of source nodes (`builder.stream(/orders-.+/)`,
 * `Topology.addSource(name, /re/)`), as Kafka Streams' `Pattern` sources: a
 * pattern matches whole topic names, and is resolved to the matching topics
 * by the executor (the runtime at start, the test driver as topics are piped).
 */
import { TopologyError } from '../../errors.js';
import type { NodeDef, SourceNodeDef, TopologyPlan } from '../../processors/plan.js';
import type { SourcePatternInfo } from '../../processors/task-contract.js';
import { copartitionTopics } from './graph.js';

/**
 * The anchored form of `pattern` (`^(?:<source>)$`, its flags without `g`/`y`
 * so `test()` keeps no state): it matches a topic name only as a whole, as
 * Java's `Pattern.matcher(topic).matches()`.
 */
export function anchoredPattern(pattern: RegExp): RegExp {
  return new RegExp(`^(?:${pattern.source})$`, pattern.flags.replace(/[gy]/g, ''));
}

/** The pattern sources of a plan, in node order. */
export function sourcePatterns(plan: TopologyPlan): SourcePatternInfo[] {
  const out: SourcePatternInfo[] = [];
  for (const def of plan.nodes.values()) {
    if (def.kind === 'source' && def.pattern !== undefined) out.push({ source: def.name, pattern: def.pattern, text: def.topicPattern ?? def.pattern.source });
  }
  return out;
}

/** The pattern source matching `topic`, if any; a TopologyError (Kafka's message) when two patterns match it. */
export function patternSourceOf(plan: TopologyPlan, topic: string): SourcePatternInfo | undefined {
  const matching = sourcePatterns(plan).filter((p) => p.pattern.test(topic));
  const [first, second] = matching;
  if (first !== undefined && second !== undefined) {
    throw new TopologyError(
      `Topic ${topic} is already matched for another regex pattern ${first.text} and hence cannot be matched to this regex pattern ${second.text} any more.`,
    );
  }
  return first;
}

/**
 * The plan with each pattern source reading the topics of `topics` it
 * matches:
 * 1. topics read by a named source are left to it (a pattern never takes them);
 * 2. each other topic goes to the one pattern matching it (two: a TopologyError);
 * 3. a pattern matching no topic is a TopologyError naming it (patterns are resolved once);
 * 4. each sub-topology's source topics (and each co-partition group's topics) are recomputed from its source nodes.
 */
export function resolveSourcePatterns(plan: TopologyPlan, topics: readonly string[]): TopologyPlan {
  const patterns = sourcePatterns(plan);
  if (patterns.length === 0) return plan;
  // 1. named topics
  const named = new Set<string>();
  for (const def of plan.nodes.values()) if (def.kind === 'source' && def.pattern === undefined) for (const t of def.topics) named.add(t);
  // 2. matches
  const matched = new Map<string, string[]>(patterns.map((p) => [p.source, []]));
  for (const topic of [...new Set(topics)].sort()) {
    if (named.has(topic)) continue;
    const owner = patternSourceOf(plan, topic);
    if (owner !== undefined) matched.get(owner.source)?.push(topic);
  }
  // 3. unmatched patterns
  const empty = patterns.filter((p) => (matched.get(p.source) ?? []).length === 0);
  if (empty.length > 0) {
    throw new TopologyError(
      `${empty.map((p) => `Source '${p.source}' (pattern ${p.text})`).join(', ')} matches no topic of the cluster; ` +
        'sluice resolves source patterns once, at start: create a matching topic, then start the application',
    );
  }
  // 4. sub-topologies
  const nodes = new Map<string, NodeDef>();
  for (const [name, def] of plan.nodes) nodes.set(name, def.kind === 'source' && def.pattern !== undefined ? { ...def, topics: matched.get(name) ?? [] } : def);
  const subtopologies = plan.subtopologies.map((s) => ({
    ...s,
    sourceTopics: s.nodes.flatMap((n) => {
      const def = nodes.get(n);
      return def?.kind === 'source' ? (def as SourceNodeDef).topics : [];
    }),
  }));
  return { ...plan, nodes, subtopologies, ...(plan.copartitionSources ? { copartitionGroups: copartitionTopics(nodes, plan.copartitionSources) } : {}) };
}
