import { afterEach, describe, expect, it, vi } from 'vitest';
import { launchedByNpm, watchParent } from '../../../src/cli/internal/parent-watch.js';

afterEach(() => vi.useRealTimers());

describe('watchParent (a worker launched by npx/npm stops when its sh launcher dies)', () => {
  it('calls onOrphaned once, with the old and new parent id, at the first check after the parent changed', () => {
    vi.useFakeTimers();
    let ppid = 4242;
    const onOrphaned = vi.fn();
    watchParent({ ppid: () => ppid, onOrphaned, intervalMs: 500 });
    vi.advanceTimersByTime(2000);
    expect(onOrphaned).not.toHaveBeenCalled();
    ppid = 1;
    vi.advanceTimersByTime(499);
    expect(onOrphaned).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(onOrphaned).toHaveBeenCalledTimes(1);
    expect(onOrphaned).toHaveBeenCalledWith(4242, 1);
    ppid = 7;
    vi.advanceTimersByTime(5000);
    expect(onOrphaned).toHaveBeenCalledTimes(1);
  });

  it('stops checking once disposed', () => {
    vi.useFakeTimers();
    let ppid = 10;
    const onOrphaned = vi.fn();
    const stop = watchParent({ ppid: () => ppid, onOrphaned });
    stop();
    ppid = 1;
    vi.advanceTimersByTime(10_000);
    expect(onOrphaned).not.toHaveBeenCalled();
  });

  it('is on only under npm (npm_lifecycle_event is set by npx, npm exec and npm scripts)', () => {
    expect(launchedByNpm({ npm_lifecycle_event: 'npx' })).toBe(true);
    expect(launchedByNpm({ npm_lifecycle_event: 'start' })).toBe(true);
    expect(launchedByNpm({})).toBe(false);
  });
});
