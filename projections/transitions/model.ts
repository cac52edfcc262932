// A threshold transition as the query and the threshold queue show it.
import { isoTime } from '../../src/core/iso-time';
import type { ThresholdTransition } from '../../src/engine/threshold/transition';

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
