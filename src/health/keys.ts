// Redis layout of the reader health read model (all under `<base>v1:`):
//   health:readers            hash  reader -> ReaderHealthState JSON
//   health:events             zset  score eventTime (ms), member = event JSON (all readers)
//   health:events:<reader>    zset  the same, one reader
//   health:applied            hash  reader -> last log position applied (replays change nothing)
//   agents:lastCheckin        hash  reader -> ISO (written by the agent gateway at every check-in)
import type { RedisKeys } from '../core/redis/keys';
import { decodeStored } from '../core/stored-json';
import { ReaderHealthState } from './state';

export const HEALTH_PROJECTION = 'health-v1';
/** The name of the reader health read model (readiness, `npm run rebuild -- health`). */
export const HEALTH_READ_MODEL = 'health';

export const healthKeys = (keys: RedisKeys) => ({
  /** Prefix of every key the health projection writes (not lastCheckin: the gateway writes that). */
  base: `${keys.base}v1:health:`,
  applied: `${keys.base}v1:health:applied`,
  readers: `${keys.base}v1:health:readers`,
  events: `${keys.base}v1:health:events`,
  readerEvents: (reader: string): string => `${keys.base}v1:health:events:${reader}`,
  lastCheckin: `${keys.base}v1:agents:lastCheckin`,
});

/** The stored health of `reader` (health:readers); a StoredValueError when it does not decode. */
export const decodeReaderState = (reader: string, raw: string): ReaderHealthState =>
  decodeStored(ReaderHealthState, raw, `health read model: reader ${reader}`);
