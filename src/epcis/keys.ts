// Redis layout of the EPCIS events read model (all under `<base>v1:epcis:`).
//   epcis:ids     zset  ids `<event time ms, 15 digits>:<ItemsChanged id>:<ref>`, score 0, read by lex range
//   epcis:source  hash  id -> EpcisSource JSON (src/epcis/source.ts)
// An id is derived from the fact alone, so a replayed fact is the same member.
import type { RedisKeys } from '../core/redis/keys';
import { timeKey } from '../core/redis/lex-page';

export const EPCIS_PROJECTION = 'epcis-v1';
/** Its name for `npm run rebuild`, readiness and /healthz. */
export const EPCIS_READ_MODEL = 'epcis';

export const epcisKeys = (keys: RedisKeys) => {
  const base = `${keys.base}v1:epcis:`;
  return { base, ids: `${base}ids`, source: `${base}source` };
};
export type EpcisKeys = ReturnType<typeof epcisKeys>;

export const epcisSourceId = (time: number, eventId: string, ref: string): string => `${timeKey(time)}:${eventId}:${ref}`;
