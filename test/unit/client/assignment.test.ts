import { describe, expect, it } from 'vitest';
import { diffAssignment, fromMemberAssignment, tpKey } from '../../../src/cluster/kafkajs/internal/assignment.js';

describe('assignment diffs', () => {
  it('converts a kafkajs memberAssignment to sorted topic-partitions', () => {
    expect(fromMemberAssignment({ b: [1, 0], a: [2] })).toEqual([
      { topic: 'a', partition: 2 },
      { topic: 'b', partition: 0 },
      { topic: 'b', partition: 1 },
    ]);
  });

  it('diffs the whole old and new assignment', () => {
    const before = fromMemberAssignment({ t: [0, 1, 2, 3] });
    const after = fromMemberAssignment({ t: [2, 3], u: [0] });
    expect(diffAssignment(before, after)).toEqual({
      assigned: [{ topic: 'u', partition: 0 }],
      revoked: [
        { topic: 't', partition: 0 },
        { topic: 't', partition: 1 },
      ],
      kept: [
        { topic: 't', partition: 2 },
        { topic: 't', partition: 3 },
      ],
    });
    expect(diffAssignment([], before).assigned).toHaveLength(4);
    expect(diffAssignment(before, []).revoked).toHaveLength(4);
  });

  it('keys distinguish topic and partition', () => {
    expect(tpKey({ topic: 'a1', partition: 1 })).not.toBe(tpKey({ topic: 'a', partition: 11 }));
  });
});
