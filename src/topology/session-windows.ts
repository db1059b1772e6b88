/**
 * Session windows (Kafka's `SessionWindows`): to be built by the session
 * windows work (issue "Windows, time and suppression").
 */

/** Sessions of activity separated by an inactivity gap. */
export class SessionWindows {
  /** @internal */
  protected constructor() {}
}
