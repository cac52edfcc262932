// The JSON text of an item queue message (the ItemEvent of ./match.ts,
// itemMessageBody), written field by field from the change. Pure.
//
// Why not JSON.stringify(itemMessageBody(change)): at one queue every change
// is one message, and building the record object and stringifying it took
// about 2 us of the relay's ~12 us per message; this takes about a quarter
// of that. The text is exactly JSON.stringify's, key order included
// (test/queues/item-json.unit.spec.ts compares both on generated changes,
// with strings that need escaping).
import { isoTime } from '../core/iso-time';
import type { ItemChange } from '../engine';
import { recordToFacility } from '../items';

/** Characters JSON.stringify escapes: controls, `"`, `\` and (lone) surrogates; a string with any goes through it. */
// eslint-disable-next-line no-control-regex -- control characters are exactly what must be escaped
const NEEDS_ESCAPE = /[\u0000-\u001f"\\\ud800-\udfff]/;

const str = (s: string): string => (NEEDS_ESCAPE.test(s) ? JSON.stringify(s) : `"${s}"`);
const strOrNull = (s: string | null): string => (s === null ? 'null' : str(s));
// JSON.stringify writes a finite number as String does and anything else as null.
const num = (n: number | null): string => (n !== null && Number.isFinite(n) ? `${n}` : 'null');

/** JSON.stringify(itemMessageBody(change)), faster. */
export function itemMessageJson(change: ItemChange): string {
  return (
    `{"epc":${str(change.epc.toUpperCase())},"tagId":${str(change.tid ?? '')},` +
    `"fromZone":${str(change.fromZone)},"toZone":${str(change.toZone)},` +
    `"fromFloor":${strOrNull(change.fromFloor)},"toFloor":${strOrNull(change.toFloor)},` +
    `"fromFacility":${strOrNull(change.fromFacility)},"toFacility":${strOrNull(recordToFacility(change))},` +
    `"fromX":${num(change.fromX)},"toX":${num(change.toX)},"fromY":${num(change.fromY)},"toY":${num(change.toY)},` +
    // ISO 8601 text: digits and "-:.TZ+" only, nothing to escape.
    `"observationTime":"${isoTime(change.observationTime)}"}`
  );
}
