/**
 * Partition assignors of the group coordinator: `range` (Kafka's default
 * RangeAssignor, per topic) and `roundrobin`.
 */
import type { TopicPartition } from '../../port.js';
import { defined } from '../../../internal/defined.js';

/** Assignor names. */
export type AssignorName = 'range' | 'roundrobin';

/** A member as the assignor sees it. */
export interface AssignorMember {
  memberId: string;
  topics: string[];
}

/**
 * Range: for each topic, the subscribed members sorted by id get consecutive
 * ranges; the first `partitions % members` get one partition more.
 */
export function rangeAssign(members: AssignorMember[], partitionsOf: (topic: string) => number): Map<string, TopicPartition[]> {
  const out = new Map<string, TopicPartition[]>(members.map((m) => [m.memberId, []]));
  const topics = [...new Set(members.flatMap((m) => m.topics))].sort();
  for (const topic of topics) {
    const subs = members.filter((m) => m.topics.includes(topic)).map((m) => m.memberId).sort();
    const n = partitionsOf(topic);
    const per = Math.floor(n / subs.length);
    const extra = n % subs.length;
    let next = 0;
    subs.forEach((id, i) => {
      const count = per + (i < extra ? 1 : 0);
      const assigned = defined(out.get(id), `assignment of member ${id}`);
      for (let k = 0; k < count; k++) assigned.push({ topic, partition: next++ });
    });
  }
  return out;
}

/** Round-robin: all partitions sorted by topic then partition, dealt to subscribed members in id order. */
export function roundRobinAssign(members: AssignorMember[], partitionsOf: (topic: string) => number): Map<string, TopicPartition[]> {
  const out = new Map<string, TopicPartition[]>(members.map((m) => [m.memberId, []]));
  const sorted = [...members].sort((a, b) => (a.memberId < b.memberId ? -1 : a.memberId > b.memberId ? 1 : 0));
  const topics = [...new Set(members.flatMap((m) => m.topics))].sort();
  let cursor = 0;
  for (const topic of topics) {
    for (let p = 0; p < partitionsOf(topic); p++) {
      for (let tries = 0; tries < sorted.length; tries++) {
        const m = defined(sorted[cursor++ % sorted.length], 'round-robin member');
        if (m.topics.includes(topic)) {
          defined(out.get(m.memberId), `assignment of member ${m.memberId}`).push({ topic, partition: p });
          break;
        }
      }
    }
  }
  return out;
}

/** Runs the named assignor. */
export function assign(name: AssignorName, members: AssignorMember[], partitionsOf: (topic: string) => number): Map<string, TopicPartition[]> {
  return name === 'roundrobin' ? roundRobinAssign(members, partitionsOf) : rangeAssign(members, partitionsOf);
}
