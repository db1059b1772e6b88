/**
 * The window of a stream–stream join (Kafka's `JoinWindows`).
 * TODO(issue 16, stream-stream joins): implemented by the stream-join work.
 */

/** Two records join when their timestamps differ by at most `beforeMs` / `afterMs`; late records are accepted within `graceMs`. */
export interface JoinWindows {
  readonly beforeMs: number;
  readonly afterMs: number;
  readonly graceMs: number;
}

/** Helpers for {@link JoinWindows}. */
export const JoinWindows = {
  /** `|t1 - t2| <= timeDifferenceMs`, no grace. */
  ofTimeDifferenceWithNoGrace(timeDifferenceMs: number): JoinWindows {
    return { beforeMs: timeDifferenceMs, afterMs: timeDifferenceMs, graceMs: 0 };
  },
  /** `|t1 - t2| <= timeDifferenceMs`, with `graceMs` for out-of-order records. */
  ofTimeDifferenceAndGrace(timeDifferenceMs: number, graceMs: number): JoinWindows {
    return { beforeMs: timeDifferenceMs, afterMs: timeDifferenceMs, graceMs };
  },
};
