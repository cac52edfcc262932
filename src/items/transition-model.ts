// A threshold transition as the query and the threshold queue show it.
import { isoTime } from '../core/iso-time';
import type { ThresholdIteration, ThresholdTransition } from '../engine';

export interface TransitionRecord {
  readonly thresholdId: number;
  readonly thresholdName: string;
  readonly epc: string;
  readonly jobId: string;
  readonly transitionId: string;
  readonly destination: 'IN' | 'OUT';
  readonly confidence: number;
  /** When the tag crossed (ISO 8601). */
  readonly creationTime: string;
}

export function transitionRecordOf(t: ThresholdTransition): TransitionRecord {
  return {
    thresholdId: t.thresholdId,
    thresholdName: t.thresholdName,
    epc: t.epc,
    jobId: t.jobId,
    transitionId: t.transitionId,
    destination: t.destination,
    confidence: t.confidence,
    creationTime: isoTime(t.observationTime),
  };
}

/** An iteration record as GET /support/v1/iterationData shows it: times in ISO 8601. */
export type IterationRecord = Omit<ThresholdIteration, 'time' | 'firstRead' | 'lastRead'> & { time: string; firstRead: string; lastRead: string };

export function iterationRecordOf(i: ThresholdIteration): IterationRecord {
  return { ...i, time: isoTime(i.time), firstRead: isoTime(i.firstRead), lastRead: isoTime(i.lastRead) };
}
