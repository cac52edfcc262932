// How the items read model stores an item: the value of its field (the EPC)
// in the `items:item` hash. Written by the projection once per changed item
// and read a thousand at a time by a page of items, so it is compact: a JSON
// array of what varies, in a fixed order,
//   [tagId, jobId, xLocation, yLocation, zone, floor, facility, ms, at]
// The EPC is the hash field; zLocation, presenceConfidence and
// lastModifiedTime follow from the rest (as itemAfter in ./model.ts builds
// them), so they are not stored. About 120 bytes (with a UUID job id) instead
// of the 330 of the whole Item as an object with its field names.
//
// Items stored before this form (an object `{item, ms, at}` with the whole
// Item) are still read as they are; the projection writes every item it
// changes in the array form, and `npm run rebuild -- items` rewrites all.
import * as t from 'io-ts';
import { isoTime } from '../core/iso-time';
import { decodeStored, withFastCheck } from '../core/stored-json';
import { isNumberOrNull, isPlainRecord, isStringOrNull } from '../core/value-guards';
import { Item } from './model';

/** An item as the read model holds it, decoded. */
export interface StoredItem {
  readonly item: Item;
  /** lastModifiedTime in epoch ms (for the time filters). */
  readonly ms: number;
  /** Where the last applied change sits in the log: `<commit, 20 digits>:<index, 6 digits>`; older changes are ignored. */
  readonly at: string;
}

const NumberOrNull = t.union([t.number, t.null]);
const StringOrNull = t.union([t.string, t.null]);

type StoredRow = [string, string, number | null, number | null, string, string | null, string | null, number, string];
/** The stored form's fields, in order (io-ts's t.tuple takes at most five). */
const ROW_FIELDS: ReadonlyArray<readonly [string, t.Mixed]> = [
  ['tagId', t.string], ['jobId', t.string], ['xLocation', NumberOrNull], ['yLocation', NumberOrNull], ['zone', t.string],
  ['floor', StringOrNull], ['facility', StringOrNull], ['ms', t.number], ['at', t.string],
];
/** The stored form; a refused value names the field (`3 (yLocation)`). */
export const StoredRow = new t.Type<StoredRow, StoredRow, unknown>(
  'StoredItemRow',
  (u): u is StoredRow => isStoredRow(u),
  (u, c) => {
    if (!Array.isArray(u) || u.length !== ROW_FIELDS.length) return t.failure(u, c, `must be an array of ${ROW_FIELDS.length} values`);
    for (const [i, [name, codec]] of ROW_FIELDS.entries()) {
      const r = codec.validate(u[i], t.appendContext(c, `${i} (${name})`, codec, u[i]));
      if (r._tag === 'Left') return r;
    }
    return t.success(u as StoredRow);
  },
  t.identity,
);

/** The form before the array: the whole Item with its field names. */
export const LegacyStoredItem = t.readonly(t.type({ item: Item, ms: t.number, at: t.string }));

// Hand-written guards in front of the codecs (a page decodes a thousand
// items): the same values pass (test/items/item-check.unit.spec.ts compares
// them on generated values); anything they refuse goes through the codec
// for its reasons.
export function isStoredRow(u: unknown): u is StoredRow {
  return (
    Array.isArray(u) &&
    u.length === 9 &&
    typeof u[0] === 'string' &&
    typeof u[1] === 'string' &&
    isNumberOrNull(u[2]) &&
    isNumberOrNull(u[3]) &&
    typeof u[4] === 'string' &&
    isStringOrNull(u[5]) &&
    isStringOrNull(u[6]) &&
    typeof u[7] === 'number' &&
    typeof u[8] === 'string'
  );
}

function isItem(u: unknown): u is Item {
  return (
    isPlainRecord(u) &&
    typeof u['epc'] === 'string' &&
    typeof u['tagId'] === 'string' &&
    typeof u['jobId'] === 'string' &&
    isNumberOrNull(u['xLocation']) &&
    isNumberOrNull(u['yLocation']) &&
    isNumberOrNull(u['zLocation']) &&
    typeof u['zone'] === 'string' &&
    isStringOrNull(u['floor']) &&
    isStringOrNull(u['facility']) &&
    u['presenceConfidence'] === 'HIGH' &&
    typeof u['lastModifiedTime'] === 'string'
  );
}

export function isLegacyStoredItem(u: unknown): u is StoredItem {
  return isPlainRecord(u) && isItem(u['item']) && typeof u['ms'] === 'number' && typeof u['at'] === 'string';
}

const isStoredValue = (u: unknown): u is StoredRow | StoredItem => isStoredRow(u) || isLegacyStoredItem(u);
/** Either form, told apart by its JSON type, so a refused value gets the reasons of its own form only. */
const StoredValue = withFastCheck<StoredRow | StoredItem>(
  new t.Type<StoredRow | StoredItem, unknown, unknown>(
    'StoredItem',
    isStoredValue,
    (u, c) => (Array.isArray(u) ? StoredRow.validate(u, c) : LegacyStoredItem.validate(u, c)),
    t.identity,
  ),
  isStoredValue,
);

/** The value stored for `stored`. */
export function encodeStoredItem({ item, ms, at }: StoredItem): string {
  const row: StoredRow = [item.tagId, item.jobId, item.xLocation, item.yLocation, item.zone, item.floor, item.facility, ms, at];
  return JSON.stringify(row);
}

/** The stored item of `epc`, in either form (a StoredValueError when it does not decode). */
export function decodeStoredItem(epc: string, raw: string): StoredItem {
  const value = decodeStored(StoredValue, raw, `items read model: item ${epc}`);
  if (!Array.isArray(value)) return value;
  const [tagId, jobId, xLocation, yLocation, zone, floor, facility, ms, at] = value;
  return {
    item: {
      epc,
      tagId,
      jobId,
      xLocation,
      yLocation,
      zLocation: xLocation === null || yLocation === null ? null : 0,
      zone,
      floor,
      facility,
      presenceConfidence: 'HIGH',
      lastModifiedTime: isoTime(ms),
    },
    ms,
    at,
  };
}
