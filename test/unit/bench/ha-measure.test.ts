/** The pure measurements of the HA scenarios (bench/ha/measure.ts) on hand-made events. */
import { describe, expect, it } from 'vitest';
import type { InstanceEvent, InstanceSpec } from '../../../bench/ha/app.js';
import type { Instance } from '../../../bench/ha/fleet.js';
import { commitPause, gainedAt, generationBefore, generationsIn, maxGap, restoredAfter, spread } from '../../../bench/ha/measure.js';

function instance(slot: number, events: InstanceEvent[], stoppedAt?: number): Instance {
  return {
    spec: { slot } as InstanceSpec,
    events,
    startedAt: 0,
    stoppedAt,
    owned: () => [],
    isRunning: () => true,
    kill: () => Promise.resolve(),
    terminate: () => Promise.resolve(),
    failure: () => undefined,
  };
}
const assignment = (ts: number, generation: number, gained: string[]): InstanceEvent => ({ kind: 'assignment', ts, generation, memberId: 'm', tasks: gained, gained, lost: [] });

describe('HA measurements', () => {
  it('spread: max and median (even and odd counts, empty)', () => {
    expect(spread([3, 1, 2])).toEqual({ max: 3, median: 2 });
    expect(spread([4, 1, 2, 3])).toEqual({ max: 4, median: 3 });
    expect(spread([])).toEqual({ max: 0, median: 0 });
  });

  it('maxGap: the largest gap between consecutive times inside the window, edges excluded', () => {
    expect(maxGap([0, 100, 150, 900, 1000], 50, 2000)).toBe(750);
    expect(maxGap([0, 100, 150, 900, 1000], 0, 200)).toBe(100);
    expect(maxGap([500], 0, 1000)).toBe(0);
  });

  it('gainedAt: the first survivor assignment after the kill that gained the task', () => {
    const a = instance(1, [assignment(10, 1, ['0_0']), assignment(7000, 2, ['0_2'])]);
    const b = instance(2, [assignment(6500, 2, ['0_1', '0_2'])]);
    expect(gainedAt([a, b], '0_2', 100)).toMatchObject({ ts: 6500, instance: b });
    expect(gainedAt([a, b], '0_0', 100)).toBeUndefined();
  });

  it('generations: distinct generations in a window, and the last before a time', () => {
    const a = instance(0, [assignment(10, 1, []), assignment(2000, 3, []), assignment(3000, 4, [])]);
    const b = instance(1, [assignment(11, 1, []), assignment(2001, 3, [])]);
    expect(generationsIn([a, b], 1000, 5000)).toEqual([3, 4]);
    expect(generationBefore([a, b], 1000)).toBe(1);
  });

  it('restoredAfter and commitPause read the restore totals and the commit rhythm of an instance while up', () => {
    const events: InstanceEvent[] = [
      { kind: 'restore', ts: 5, partition: 0, totalRestored: 99 },
      { kind: 'running', ts: 100 },
      { kind: 'restore', ts: 200, partition: 1, totalRestored: 7 },
      { kind: 'commit', ts: 300, task: '0_1' },
      { kind: 'commit', ts: 400, task: '0_1' },
      { kind: 'commit', ts: 1400, task: '0_2' },
      { kind: 'commit', ts: 9000, task: '0_2' },
    ];
    expect(restoredAfter([instance(0, events)], 100)).toBe(7);
    expect(commitPause(instance(0, events, 2000), 0, 10_000)).toBe(1000); // 9000 is after the stop
    expect(commitPause(instance(0, events), 0, 10_000)).toBe(7600);
  });
});
