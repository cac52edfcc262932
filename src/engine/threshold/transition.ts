// A threshold transition as the engine writes it into ItemsChanged
// (`transitions`), and the iteration record of a decision when the recipe
// has iterationDataLogEnabled (`iterations`). The transitions read model and
// the AMQP relay read these; this file is their contract.
import { nameBasedUuid } from '../../core/digest';
import * as t from 'io-ts';

export const ThresholdTransitionCodec = t.type({
  transitionId: t.string,
  jobId: t.string,
  thresholdId: t.number,
  thresholdName: t.string,
  facility: t.string,
  epc: t.string,
  tid: t.union([t.string, t.null]),
  destination: t.keyof({ IN: null, OUT: null }),
  /** 0-1 */
  confidence: t.number,
  /** When the tag crossed (epoch ms). */
  observationTime: t.number,
  reportToDatabaseEnabled: t.boolean,
  reportToMessageQueueEnabled: t.boolean,
});
export type ThresholdTransition = t.TypeOf<typeof ThresholdTransitionCodec>;

/** One decision of the threshold decider, with its evidence (GET /support/v1/iterationData). */
export const ThresholdIterationCodec = t.type({
  jobId: t.string,
  thresholdId: t.number,
  epc: t.string,
  /** When the decision was taken (engine time, epoch ms). */
  time: t.number,
  /** TRANSITION, or why not (decide.ts NoTransition). */
  outcome: t.string,
  destination: t.union([t.keyof({ IN: null, OUT: null }), t.null]),
  confidence: t.union([t.number, t.null]),
  /** The reads the decision saw: count and weight per side, and the time they span (epoch ms). */
  readsIn: t.number,
  readsOut: t.number,
  weightIn: t.number,
  weightOut: t.number,
  firstRead: t.number,
  lastRead: t.number,
});
export type ThresholdIteration = t.TypeOf<typeof ThresholdIterationCodec>;

/**
 * A transition's id: a UUID-shaped digest of job, threshold, EPC and crossing
 * time, so the engine stays free of randomness (the same input gives the same
 * output) and the id is stable wherever the transition is shown.
 */
export function transitionIdOf(jobId: string, thresholdId: number, epc: string, at: number): string {
  return nameBasedUuid(jobId, String(thresholdId), epc, String(at));
}
