// An item reset (ItemsChanged with `reset`, docs/support.md) in the items and
// history read models: the facility's items and their index entries go; its
// history records go only when clearHistory. The deletes are queued on the
// caller's MULTI; the reads before it see everything earlier batches and
// segments committed (the projection is the only writer).
import type { RedisClient } from '../../src/core/redis/connect';
import type { ItemsReset } from '../../src/engine';
import { type ItemKeys, decodeStoredHistory, decodeStoredItem, indexKeysOf } from '../../src/items';

const CHUNK = 1000;
type Multi = ReturnType<RedisClient['multi']>;

export async function queueItemsReset(redis: RedisClient, k: ItemKeys, reset: ItemsReset, tx: Multi): Promise<{ items: number; history: number }> {
  const epcs = await redis.zRange(k.facility(reset.facility), 0, -1);
  let items = 0;
  for (let i = 0; i < epcs.length; i += CHUNK) {
    const chunk = epcs.slice(i, i + CHUNK);
    const raws = await redis.hmGet(k.item, chunk);
    chunk.forEach((epc, j) => {
      const raw = raws[j];
      if (raw == null) return;
      const stored = decodeStoredItem(epc, raw);
      // The facility index is only a candidate list: the item itself says where it is now.
      if (stored.item.facility !== reset.facility) return;
      for (const key of indexKeysOf(stored.item, k)) tx.zRem(key, epc);
      tx.zRem(k.all, epc);
      tx.zRem(k.time, epc);
      tx.hDel(k.item, epc);
      items++;
    });
  }
  return { items, history: reset.clearHistory ? await queueHistoryClear(redis, k, reset.facility, tx) : 0 };
}

/** The history records of changes that happened in `facility` (toFacility): a scan of the whole history (a support operation). */
async function queueHistoryClear(redis: RedisClient, k: ItemKeys, facility: string, tx: Multi): Promise<number> {
  let cleared = 0;
  let min = '-';
  for (;;) {
    const ids = await redis.zRange(k.history, min, '+', { BY: 'LEX', LIMIT: { offset: 0, count: CHUNK } });
    if (ids.length > 0) {
      const raws = await redis.hmGet(k.historyRecord, ids);
      ids.forEach((id, i) => {
        const raw = raws[i];
        if (raw == null) return;
        // An exit record (to ABSENT) has no toFacility: it left fromFacility.
        const { record } = decodeStoredHistory(id, raw);
        if ((record.toFacility ?? record.fromFacility) !== facility) return;
        tx.zRem(k.history, id);
        tx.hDel(k.historyRecord, id);
        cleared++;
      });
    }
    const last = ids[ids.length - 1];
    if (last === undefined || ids.length < CHUNK) return cleared;
    min = `(${last}`;
  }
}
