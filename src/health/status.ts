// Reader health as the interface returns it, derived at a given time from the
// projected state (src/health/state.ts) and the last check-in. Rules
// (docs/health.md):
// - a status object is the worst of its events whose eventTime lies within
//   the last `statusWindowMinutes` and after the last HEALTH_RESET; FAILED
//   beats WARNING, and the code is that of the newest event of that
//   severity; with no such event it is HEALTHY with code null;
// - state: AWAITING_AGENT (never checked in) > NOT_RESPONDING (last check-in
//   older than missedCheckins intervals) > ERROR (agent reports ERROR) >
//   UPDATING_FIRMWARE > ERROR (a FAILED status object) > RUNNING_JOB > IDLE.
import { STATUS_CATEGORIES, type StatusCategory } from './codes';
import { notRespondingAfterMs, type HealthSettings } from './settings';
import type { CategoryState, ReaderHealthState, Temperature } from './state';
import type { Versions } from './events';

export type HealthStatusValue = 'HEALTHY' | 'WARNING' | 'FAILED';
export type ReaderState = 'AWAITING_AGENT' | 'IDLE' | 'RUNNING_JOB' | 'UPDATING_FIRMWARE' | 'NOT_RESPONDING' | 'ERROR';

export interface StatusObject {
  readonly status: HealthStatusValue;
  readonly code: string | null;
}

export interface ReaderHealth {
  readonly readerName: string;
  readonly state: ReaderState;
  readonly lastCheckin: string | null;
  readonly lastReboot: string | null;
  /** Not in the interface: `args.reason` of the last REBOOT event. */
  readonly lastRebootReason: string | null;
  readonly version: Versions | null;
  /** Not in the interface: the reader's own temperature as it last reported it. */
  readonly temperature: Temperature | null;
  readonly connectionStatus: StatusObject;
  readonly throughputStatus: StatusObject;
  readonly clockSyncStatus: StatusObject;
  readonly hardwareStatus: StatusObject & { readonly devices: { device: string; code: string }[] };
  readonly softwareStatus: StatusObject;
}

const HEALTHY: StatusObject = { status: 'HEALTHY', code: null };

export function categoryStatus(category: CategoryState, now: Date, settings: HealthSettings): StatusObject {
  const since = now.getTime() - settings.statusWindowMinutes * 60_000;
  const counts = (at?: { eventTime: string }): boolean => at !== undefined && Date.parse(at.eventTime) > since;
  if (counts(category.FAILED)) return { status: 'FAILED', code: category.FAILED!.code };
  if (counts(category.WARNING)) return { status: 'WARNING', code: category.WARNING!.code };
  return HEALTHY;
}

/** The newer of the projected check-in and the gateway's fresher Redis value. */
export function newestCheckin(a: string | null | undefined, b: string | null | undefined): string | null {
  if (!a) return b ?? null;
  if (!b) return a;
  return Date.parse(a) >= Date.parse(b) ? a : b;
}

export function isNotResponding(lastCheckin: string, now: Date, settings: HealthSettings): boolean {
  return now.getTime() - Date.parse(lastCheckin) > notRespondingAfterMs(settings);
}

export function readerState(
  lastCheckin: string | null,
  agentState: ReaderHealthState['agent'],
  statuses: readonly StatusObject[],
  now: Date,
  settings: HealthSettings,
): ReaderState {
  if (lastCheckin === null) return 'AWAITING_AGENT';
  if (isNotResponding(lastCheckin, now, settings)) return 'NOT_RESPONDING';
  if (agentState?.state === 'ERROR') return 'ERROR';
  if (agentState?.state === 'UPDATING_FIRMWARE') return 'UPDATING_FIRMWARE';
  if (statuses.some((s) => s.status === 'FAILED')) return 'ERROR';
  if (agentState?.state === 'RUNNING_JOB') return 'RUNNING_JOB';
  return 'IDLE';
}

/**
 * The reader health of `readerName` at `now`. `state` is undefined when no
 * event of the reader was projected yet; `gatewayCheckin` is the gateway's
 * lastCheckin from Redis.
 */
export function readerHealthAt(
  readerName: string,
  state: ReaderHealthState | undefined,
  gatewayCheckin: string | undefined,
  now: Date,
  settings: HealthSettings,
): ReaderHealth {
  const statuses = {} as Record<StatusCategory, StatusObject>;
  for (const c of STATUS_CATEGORIES) statuses[c] = state ? categoryStatus(state.categories[c], now, settings) : HEALTHY;
  const lastCheckin = newestCheckin(state?.lastCheckin, gatewayCheckin);
  return {
    readerName,
    state: readerState(lastCheckin, state?.agent ?? null, Object.values(statuses), now, settings),
    lastCheckin,
    lastReboot: state?.lastReboot ?? null,
    lastRebootReason: state?.lastRebootReason ?? null,
    version: state?.version ?? null,
    temperature: state?.temperature ?? null,
    connectionStatus: statuses.connectionStatus,
    throughputStatus: statuses.throughputStatus,
    clockSyncStatus: statuses.clockSyncStatus,
    hardwareStatus: { ...statuses.hardwareStatus, devices: [] },
    softwareStatus: statuses.softwareStatus,
  };
}
