// A threshold transition as the query and the threshold queue show it.
// Codecs as well as types: the read model's records are decoded on every
// read (src/core/stored-json.ts).
import * as t from 'io-ts';
import { isoTime } from '../core/iso-time';
import { decodeStored } from '../core/stored-json';
import { ThresholdIterationCodec, type ThresholdIteration, type ThresholdTransition } from '../engine';

export const TransitionRecord = t.readonly(
  t.type({
    thresholdId: t.number,
    thresholdName: t.string,
    epc: t.string,
    jobId: t.string,
    transitionId: t.string,
    destination: t.keyof({ IN: null, OUT: null }),
    confidence: t.number,
    /** When the tag crossed (ISO 8601). */
    creationTime: t.string,
  }),
);
export type TransitionRecord = t.TypeOf<typeof TransitionRecord>;

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
export const IterationRecord = t.type({ ...ThresholdIterationCodec.props, time: t.string, firstRead: t.string, lastRead: t.string });
export type IterationRecord = t.TypeOf<typeof IterationRecord>;

export const decodeTransitionRecord = (id: string, raw: string): TransitionRecord =>
  decodeStored(TransitionRecord, raw, `transitions read model: transition ${id}`);

export const decodeIterationRecord = (raw: string): IterationRecord => decodeStored(IterationRecord, raw, 'transitions read model: an iteration record');

export function iterationRecordOf(i: ThresholdIteration): IterationRecord {
  return { ...i, time: isoTime(i.time), firstRead: isoTime(i.firstRead), lastRead: isoTime(i.lastRead) };
}
