// Which events a queue receives, and the message bodies. Pure: the relay
// (./relay.ts) does the I/O. Rules in docs/queues.md ("What a queue receives").
import { type ItemChange, type ThresholdTransition, writesHistory } from '../engine';
import { historyRecordOf, recordToFacility, matchesThreshold, type ItemEvent } from '../items';
import type { HealthEventView } from '../health';
import type { HealthQueueFilter, ItemQueueFilter, ThresholdQueueFilter } from './model';

/**
 * Zone transitions (FIRST_SEEN from ABSENT, ZONE_CHANGE, EXPIRED to ABSENT:
 * the history records) always qualify; MOVED (a move inside a zone or between
 * floors of one logical zone) only with zoneTransitionsOnly=false. HEARTBEAT
 * never: it says an unmoved item is still there, which is no ItemEvent
 * (from = to), and would put every present tag on every queue once per
 * heartbeat period.
 */
const kindQualifies = (kind: ItemChange['kind'], zoneTransitionsOnly: boolean): boolean =>
  writesHistory(kind) || (kind === 'MOVED' && !zoneTransitionsOnly);

/** Whether an item queue with `filter` receives `change` (every present field must match). */
export function matchesItemFilter(filter: ItemQueueFilter, change: ItemChange): boolean {
  if (!change.reportToMessageQueueEnabled) return false;
  if (!kindQualifies(change.kind, filter.zoneTransitionsOnly ?? true)) return false;
  if (filter.fromFacility != null && change.fromFacility !== filter.fromFacility) return false;
  // As records show it: an exit to ABSENT goes to no facility (recordToFacility).
  if (filter.toFacility != null && recordToFacility(change) !== filter.toFacility) return false;
  if (filter.fromZone != null && change.fromZone !== filter.fromZone) return false;
  if (filter.toZone != null && change.toZone !== filter.toZone) return false;
  if (filter.jobId != null && change.jobId !== filter.jobId) return false;
  if (filter.epc != null && !change.epc.toUpperCase().startsWith(filter.epc.toUpperCase())) return false;
  if (filter.distance != null && filter.distance > 0) {
    // As the history query's minDistanceMoved: without both locations the distance is unknown.
    const { fromX, fromY, toX, toY } = change;
    if (fromX === null || fromY === null || toX === null || toY === null) return false;
    if (Math.hypot(toX - fromX, toY - fromY) < filter.distance) return false;
  }
  return true;
}

/** The item queue message: the interface's ItemEvent, the same record the history query returns. */
export const itemMessageBody = (change: ItemChange): ItemEvent => historyRecordOf(change).record;

/** Whether a health queue with `filter` receives `event`. */
export function matchesHealthFilter(filter: HealthQueueFilter, event: HealthEventView): boolean {
  if (filter.readerName != null && event.readerName !== filter.readerName) return false;
  if (filter.type != null && event.type !== filter.type) return false;
  if (filter.code != null && event.code !== filter.code) return false;
  return true;
}

/** Whether a threshold queue with `filter` receives `t`: `threshold` is the threshold's id (decimal) or name. */
export function matchesThresholdFilter(filter: ThresholdQueueFilter, t: ThresholdTransition): boolean {
  if (!t.reportToMessageQueueEnabled) return false;
  if (filter.threshold != null && !matchesThreshold(filter.threshold, t.thresholdId, t.thresholdName)) return false;
  if (filter.jobId != null && t.jobId !== filter.jobId) return false;
  return true;
}
