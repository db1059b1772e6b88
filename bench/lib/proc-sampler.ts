/** Samples a child's peak RSS and CPU time from /proc (Linux), as a fallback to the child's own report. */
import { readFileSync } from 'node:fs';

const CLOCK_TICKS = 100;

/** Last values read from /proc/<pid>. */
export interface ProcSample {
  maxRssKb: number;
  cpuSeconds: number;
}

function readSample(pid: number): ProcSample | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const hwm = /VmHWM:\s+(\d+)/.exec(status);
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // fields[0] is field 3 (state): utime is field 14, stime field 15.
    const utime = Number(fields[11]);
    const stime = Number(fields[12]);
    return { maxRssKb: hwm ? Number(hwm[1]) : 0, cpuSeconds: (utime + stime) / CLOCK_TICKS };
  } catch {
    return undefined;
  }
}

/** CPU seconds (user + system) `pid` has used so far, or undefined when it cannot be read. */
export function cpuSecondsOf(pid: number): number | undefined {
  return readSample(pid)?.cpuSeconds;
}

/** Starts sampling `pid` every `intervalMs`; `stop()` returns the last sample seen. */
export function sampleProcess(pid: number, intervalMs = 200): { stop: () => ProcSample } {
  let last: ProcSample = { maxRssKb: 0, cpuSeconds: 0 };
  const tick = (): void => {
    const s = readSample(pid);
    if (s) last = { maxRssKb: Math.max(last.maxRssKb, s.maxRssKb), cpuSeconds: Math.max(last.cpuSeconds, s.cpuSeconds) };
  };
  tick();
  const timer = setInterval(tick, intervalMs);
  return {
    stop: () => {
      clearInterval(timer);
      tick();
      return last;
    },
  };
}
