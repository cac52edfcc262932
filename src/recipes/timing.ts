// The processing parameters of LOCATION and INVENTORY recipes: defaults and
// the rules between them (Errors 1, 3 and the second half of 4; Limits).
// Rules that need the reader configurations are in references.ts.
import { isLeft } from 'fp-ts/Either';
import { formatIsoDuration } from '../core/duration';
import type { FieldError } from '../core/http/errors';
import { durationMillis } from './codec';
import { DEFAULTS, type GivenRecipe } from './fields';
import type { ReportingInterval } from './model';

export type TimedType = 'LOCATION' | 'INVENTORY';

export interface Timing {
  readonly tagHeartbeatMs: number;
  /** Absent: absence by expiry is disabled. */
  readonly tagExpiryMs: number | undefined;
  readonly reportingInterval: ReportingInterval;
  readonly computeWindow: number;
}

const MINUTE = 60_000;
const MIN_HEARTBEAT_MS = MINUTE;

/** Reporting interval 0 means 500 ms. */
export function reportingIntervalMs(interval: ReportingInterval): number {
  return interval === 0 ? 500 : interval * 1000;
}

/**
 * Values with defaults applied. The deprecated tagHeartbeatMinutes becomes
 * tagHeartbeatDuration. An omitted computeWindow is the type's default, or
 * the reporting interval when that is longer: an explicit long interval
 * must not make the recipe invalid through a field the client never sent.
 */
export function resolveTiming(type: TimedType, b: GivenRecipe): Timing {
  const reportingInterval = b.reportingInterval ?? DEFAULTS.reportingInterval;
  const fromMinutes = b.tagHeartbeatMinutes === undefined ? undefined : b.tagHeartbeatMinutes * MINUTE;
  return {
    tagHeartbeatMs: millis(b.tagHeartbeatDuration) ?? fromMinutes ?? DEFAULTS.tagHeartbeatMs,
    tagExpiryMs: millis(b.tagExpiryDuration),
    reportingInterval,
    computeWindow: b.computeWindow ?? Math.max(DEFAULTS.computeWindow[type], reportingInterval),
  };
}

function millis(value: string | number | undefined): number | undefined {
  if (value === undefined) return undefined;
  const parsed = durationMillis(value);
  // The body codec (DurationValue) refuses every value that does not parse.
  if (isLeft(parsed)) throw new Error(`unchecked duration reached validation: ${parsed.left}`);
  return parsed.right;
}

export function timingErrors(type: TimedType, b: GivenRecipe, timing: Timing): FieldError[] {
  const errors: FieldError[] = [];
  const add = (field: string, reason: string): void => {
    errors.push({ path: `body.${field}`, reason });
  };
  if (b.tagHeartbeatMinutes !== undefined && b.tagHeartbeatDuration !== undefined) {
    const reason = 'must not be set together with tagHeartbeatDuration (it is deprecated: send only tagHeartbeatDuration)';
    add('tagHeartbeatMinutes', reason);
  }
  if (b.tagHeartbeatDuration !== undefined && timing.tagHeartbeatMs < MIN_HEARTBEAT_MS) {
    add('tagHeartbeatDuration', `must be at least PT1M, got ${formatIsoDuration(timing.tagHeartbeatMs)}`);
  }
  if (timing.reportingInterval === 0 && type !== 'LOCATION') {
    add('reportingInterval', `may be 0 (500 ms) only for LOCATION recipes, not ${type}`);
  }
  if (timing.computeWindow < timing.reportingInterval) {
    add('computeWindow', `must be at least reportingInterval (${timing.reportingInterval}), got ${timing.computeWindow}`);
  }
  if (b.minimumMovementInMeters !== undefined && !Number.isInteger(b.minimumMovementInMeters * 2)) {
    add('minimumMovementInMeters', `must be a multiple of 0.5, got ${b.minimumMovementInMeters}`);
  }
  const intervalMs = reportingIntervalMs(timing.reportingInterval);
  if (timing.tagExpiryMs !== undefined && timing.tagExpiryMs <= intervalMs) {
    const interval = timing.reportingInterval === 0 ? '500 ms' : `${timing.reportingInterval} s`;
    add('tagExpiryDuration', `must be longer than reportingInterval (${interval}), got ${formatIsoDuration(timing.tagExpiryMs)}`);
  }
  return errors;
}
