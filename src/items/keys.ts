// Redis layout of the items and history read models (all under `<base>v1:items:`).
// Every sorted set has score 0 and is read by lex range, so paging is by a
// member (an EPC, or a history id) and never by offset.
//   items:item                hash  EPC -> the current Item, compact (./stored-item.ts)
//   items:all                 zset  EPCs (lex): epcPrefix and stable paging
//   items:facility:<name>     zset  EPCs of the items now in that facility
//   items:zone:<name>         zset  EPCs of the items now in a zone of that name (any facility)
//   items:job:<id>            zset  EPCs of the items that job saw last
//   items:time                zset  score lastModifiedTime (ms), member EPC
//   items:history             zset  history ids `<observationTime ms, 15 digits>:<event id>:<change index, 6 digits>`
//   items:history:record      hash  history id -> StoredHistory JSON
import type { RedisKeys } from '../core/redis/keys';
import { timeKey } from '../core/redis/lex-page';

/** The name of the items and history read model (readiness, `npm run rebuild -- items`). */
export const ITEMS_READ_MODEL = 'items';
export const ITEMS_PROJECTION = 'items-v1';

export const itemKeys = (keys: RedisKeys) => {
  const base = `${keys.base}v1:items:`;
  return {
    base,
    item: `${base}item`,
    all: `${base}all`,
    facility: (name: string): string => `${base}facility:${name}`,
    zone: (name: string): string => `${base}zone:${name}`,
    job: (id: string): string => `${base}job:${id}`,
    time: `${base}time`,
    history: `${base}history`,
    historyRecord: `${base}history:record`,
    /** Every key of these read models (log-reset and tests). */
    pattern: `${base}*`,
  };
};
export type ItemKeys = ReturnType<typeof itemKeys>;

export const historyId = (observationTime: number, eventId: string, index: number): string =>
  `${timeKey(observationTime)}:${eventId}:${index.toString().padStart(6, '0')}`;
