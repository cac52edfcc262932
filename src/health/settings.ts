// Timing of reader health (HEALTH_*, parsed in src/config.ts; documented in
// docs/health.md). The agent gateway answers `checkinIntervalSeconds` with
// the same interval, so both sides agree on what "missed" means.
export interface HealthSettings {
  /** Expected seconds between two check-ins of an agent (HEALTH_CHECKIN_INTERVAL_SECONDS, default 10). */
  readonly checkinIntervalSeconds: number;
  /** A reader is NOT_RESPONDING when its last check-in is older than this many intervals (3). */
  readonly missedCheckins: number;
  /** A status event counts for this long after its eventTime (HEALTH_STATUS_WINDOW_MINUTES, default 15). */
  readonly statusWindowMinutes: number;
}

export const DEFAULT_HEALTH_SETTINGS: HealthSettings = { checkinIntervalSeconds: 10, missedCheckins: 3, statusWindowMinutes: 15 };

/** Milliseconds without a check-in after which a reader is NOT_RESPONDING. */
export const notRespondingAfterMs = (s: HealthSettings): number => s.checkinIntervalSeconds * s.missedCheckins * 1000;
