// The relay writes item message bodies field by field (src/queues/item-json.ts)
// instead of JSON.stringify(itemMessageBody(change)): the text must be exactly
// the same, for every kind of value a change can hold.
import { expect } from 'chai';
import { itemMessageJson } from '../../src/queues/item-json';
import { itemMessageBody } from '../../src/queues/match';
import type { ItemChange } from '../../src/engine';
import { mulberry32 } from '../../src/simulator/prng';
import { change } from './support';

/** Names as users type them, and everything JSON.stringify escapes or must leave alone. */
const NAMES = ['DOCK', 'Shelf 1', 'ABSENT', '', 'quote "x"', 'back\\slash', 'tab\there', 'nl\nx', '\u0000\u001f', 'é 漢', '😀', 'lone \ud800', 'lone \udc00 end', '\u2028\u2029', '\u007f', '</script>'];
const NUMBERS = [null, 0, -0, 1, -1.5, 0.1, 1e21, 1e-7, 123456.789, Number.MAX_SAFE_INTEGER];

describe('queues: item message JSON', () => {
  it('is JSON.stringify(itemMessageBody(change)) on 5,000 generated changes', () => {
    const r = mulberry32(20261129); // seeded: a failure replays
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
    const kinds: ReadonlyArray<ItemChange['kind']> = ['FIRST_SEEN', 'ZONE_CHANGE', 'MOVED', 'HEARTBEAT', 'EXPIRED'];
    for (let n = 0; n < 5000; n++) {
      const c = change({
        kind: pick(kinds),
        epc: pick(['e2801160600002ab', 'E2BE00000000000000000001', '', 'x"y']),
        tid: pick([null, 'E2801160', '', 'tid\\']),
        jobId: pick(NAMES),
        fromZone: pick(NAMES),
        toZone: pick(NAMES),
        fromFloor: r() < 0.3 ? null : pick(NAMES),
        toFloor: r() < 0.3 ? null : pick(NAMES),
        fromFacility: r() < 0.3 ? null : pick(NAMES),
        toFacility: r() < 0.3 ? null : pick(NAMES),
        fromX: pick(NUMBERS),
        fromY: pick(NUMBERS),
        toX: r() < 0.5 ? pick(NUMBERS) : r() * 1000 - 500,
        toY: r() < 0.5 ? pick(NUMBERS) : r() * 1000 - 500,
        observationTime: pick([0, 1_700_000_000_000, -1, 253_402_300_799_999]) + Math.floor(r() * 1e9),
      });
      expect(itemMessageJson(c), JSON.stringify(c)).to.equal(JSON.stringify(itemMessageBody(c)));
    }
  });

  it('an exit to ABSENT says toFacility null, as the record does', () => {
    const exit = change({ kind: 'EXPIRED', toZone: 'ABSENT', toFacility: 'STORE', toFloor: null, toX: null, toY: null });
    expect(JSON.parse(itemMessageJson(exit))).to.include({ toFacility: null, fromFacility: 'STORE', toZone: 'ABSENT' });
  });

  it('numbers JSON cannot carry are written as JSON.stringify writes them (null)', () => {
    const c = change({ fromX: Number.NaN, toX: Infinity, fromY: -Infinity });
    expect(itemMessageJson(c)).to.equal(JSON.stringify(itemMessageBody(c)));
  });
});
