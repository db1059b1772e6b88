/**
 * Says why a group join takes long. A worker restarted after a crash joins a
 * group that still lists its dead predecessor: the coordinator holds every
 * JoinGroup until all known members rejoined or the missing ones are dropped,
 * which for a dead member happens only when its session expires (up to
 * `sessionTimeoutMs` after its last heartbeat, i.e. after this join started).
 * Without a word the restart looks hung for ~30 s. The watch logs once per join
 * held longer than {@link joinHeldThresholdMs}, with the most it may still take.
 */

/** What a held join reports. */
export interface JoinHeld {
  groupId: string;
  /** How long the join has been waiting. */
  waitedMs: number;
  /** At most how much longer the previous member's session can hold it (`sessionTimeoutMs - waitedMs`, at least 0). */
  remainingMs: number;
  sessionTimeoutMs: number;
}

/** What a join watch needs. */
export interface JoinWatchOptions {
  groupId: string;
  sessionTimeoutMs: number;
  /** Called at most once per watch. */
  onHeld(held: JoinHeld): void;
  /** Default {@link joinHeldThresholdMs}. */
  thresholdMs?: number;
}

/**
 * How long a join may take before it counts as held: 5 s, above the broker's
 * `group.initial.rebalance.delay.ms` (3 s) that delays the first join of an
 * empty group; half the session timeout when that is shorter.
 */
export function joinHeldThresholdMs(sessionTimeoutMs: number): number {
  return Math.min(5_000, Math.floor(sessionTimeoutMs / 2));
}

/** The log line of a held join. */
export function joinHeldMessage(held: JoinHeld): string {
  return (
    `joining group '${held.groupId}' is held by the group coordinator (${Math.round(held.waitedMs / 1000)} s so far): ` +
    `it waits for a previous member (e.g. this worker before a crash or kill) whose session has not expired yet, or for the other members to rejoin; ` +
    `at most ~${Math.ceil(held.remainingMs / 1000)} s more for a previous member's session (sessionTimeoutMs ${held.sessionTimeoutMs})`
  );
}

/** Starts watching one join; the returned function ends the watch (call it when the join settles). */
export function watchJoin(options: JoinWatchOptions): () => void {
  const thresholdMs = options.thresholdMs ?? joinHeldThresholdMs(options.sessionTimeoutMs);
  const timer = setTimeout(() => {
    options.onHeld({
      groupId: options.groupId,
      waitedMs: thresholdMs,
      remainingMs: Math.max(0, options.sessionTimeoutMs - thresholdMs),
      sessionTimeoutMs: options.sessionTimeoutMs,
    });
  }, thresholdMs);
  timer.unref();
  return () => clearTimeout(timer);
}
