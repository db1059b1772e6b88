/**
 * Stops a worker whose launcher died. `npx sluice run` and `npm start` run the
 * worker as `npm → sh -c '<command>' → node`: npm forwards SIGTERM/SIGINT to the
 * `sh`, which dies without passing the signal on (dash does not `exec` its last
 * command), and the worker, reparented, would keep running and holding its
 * partitions. Under npm (`npm_lifecycle_event` set) the worker therefore watches its
 * parent process id: when it changes, the launcher is gone, which only a stop
 * request (or a killed npm) does, and the worker closes as on SIGTERM.
 * Not done outside npm: `nohup sluice run … &` reparents a worker on purpose.
 */

/** How often the parent process id is checked. */
export const PARENT_WATCH_INTERVAL_MS = 500;

/** What the watch needs; `ppid` is read again at every check. */
export interface ParentWatchOptions {
  /** The current parent process id (`() => process.ppid`). */
  ppid(): number;
  /** Called once, with the old and the new parent id, when the parent changed. */
  onOrphaned(from: number, to: number): void;
  intervalMs?: number;
}

/** Whether the worker runs under npm (`npx`, `npm exec`, an npm script): then its launcher is an `sh` that swallows signals. */
export function launchedByNpm(env: Record<string, string | undefined>): boolean {
  return env.npm_lifecycle_event !== undefined;
}

/** Starts watching; returns the function that stops the watch. The timer does not keep the process alive. */
export function watchParent(options: ParentWatchOptions): () => void {
  const first = options.ppid();
  const timer = setInterval(() => {
    const now = options.ppid();
    if (now === first) return;
    clearInterval(timer);
    options.onOrphaned(first, now);
  }, options.intervalMs ?? PARENT_WATCH_INTERVAL_MS);
  timer.unref();
  return () => clearInterval(timer);
}
