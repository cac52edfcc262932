// Redis layout of the threshold transitions read model (all under `<base>v1:transitions:`).
//   transitions:ids      zset  ids `<observationTime ms, 15 digits>:<transitionId>`, score 0, read by lex range
//   transitions:record   hash  id -> TransitionRecord JSON
//   transitions:iterations zset score decision time (ms), member the iteration JSON (recipes with
//                          iterationDataLogEnabled; the newest MAX_ITERATIONS kept)
// An id is derived from the transition alone, so a replayed transition is the same member.
import type { RedisKeys } from '../core/redis/keys';
import { timeKey } from '../core/redis/lex-page';

export const TRANSITIONS_PROJECTION = 'transitions-v1';
/** Its name for `npm run rebuild`, readiness and /healthz. */
export const TRANSITIONS_READ_MODEL = 'transitions';

/** Iteration records kept (a diagnostics log: the oldest go first). */
export const MAX_ITERATIONS = 100_000;

export const transitionKeys = (keys: RedisKeys) => {
  const base = `${keys.base}v1:transitions:`;
  return { base, ids: `${base}ids`, record: `${base}record`, iterations: `${base}iterations` };
};
export type TransitionKeys = ReturnType<typeof transitionKeys>;

export const transitionRecordId = (observationTime: number, transitionId: string): string => `${timeKey(observationTime)}:${transitionId}`;
