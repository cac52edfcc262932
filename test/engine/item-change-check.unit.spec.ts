// The hand-written ItemChange check must accept exactly what the io-ts codec
// accepts: compared on generated changes, each field replaced by values of
// every JSON type (and a missing field, extra fields, non-objects).
import { expect } from 'chai';
import { isRight } from 'fp-ts/Either';
import { ItemChangeCodec, ItemChangeStrictCodec } from '../../src/engine/events';
import { isItemChange } from '../../src/engine/item-change-check';

// A small deterministic generator (mulberry32), so a failure can be replayed.
function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const valid = (r: () => number): Record<string, unknown> => ({
  kind: ['FIRST_SEEN', 'ZONE_CHANGE', 'MOVED', 'HEARTBEAT', 'EXPIRED'][Math.floor(r() * 5)],
  epc: 'E2801160600002' + Math.floor(r() * 1e6).toString(16),
  tid: r() < 0.5 ? null : 'E2801160',
  jobId: 'job-1',
  fromZone: 'DOCK',
  toZone: 'SHELF',
  fromFloor: r() < 0.5 ? null : '1',
  toFloor: r() < 0.5 ? null : '2',
  fromFacility: r() < 0.5 ? null : 'STORE',
  toFacility: r() < 0.5 ? null : 'STORE',
  fromX: r() < 0.3 ? null : r() * 10,
  fromY: r() < 0.3 ? null : r() * 10,
  toX: r() < 0.3 ? null : r() * 10,
  toY: r() < 0.3 ? null : r() * 10,
  observationTime: 1_700_000_000_000 + Math.floor(r() * 1e9),
  reportToDatabaseEnabled: r() < 0.5,
  reportToHistoryEnabled: r() < 0.5,
  reportToMessageQueueEnabled: r() < 0.5,
});

/** Values of every JSON type and a few edge cases io-ts might treat specially. */
const REPLACEMENTS: unknown[] = [undefined, null, '', 'MOVED', 'toString', 'constructor', 0, -1, Number.NaN, Infinity, true, false, {}, [], ['MOVED'], { kind: 'MOVED' }];

describe('engine: hand-written ItemChange check', () => {
  it('agrees with the io-ts codec on 2,000 valid changes, each field replaced by every kind of value, and a removed field', () => {
    const r = rng(20261123);
    let checked = 0;
    let rejected = 0;
    for (let n = 0; n < 2000; n++) {
      const base = valid(r);
      const candidates: unknown[] = [base, { ...base, extra: 1 }];
      const field = Object.keys(base)[n % Object.keys(base).length]!;
      for (const v of REPLACEMENTS) candidates.push({ ...base, [field]: v });
      const { [field]: _removed, ...without } = base;
      candidates.push(without);
      for (const c of candidates) {
        const expected = ItemChangeStrictCodec.is(c);
        expect(isItemChange(c), `${field}: ${JSON.stringify(c)}`).to.equal(expected);
        expect(isRight(ItemChangeCodec.decode(c)), `decode ${JSON.stringify(c)}`).to.equal(expected);
        checked++;
        if (!expected) rejected++;
      }
    }
    // Both outcomes were exercised many times.
    expect(rejected).to.be.greaterThan(checked / 3);
    expect(checked - rejected).to.be.greaterThan(checked / 4);
  });

  it('non-objects are refused, and a refused change still gets the strict codec\'s error naming the field', () => {
    for (const u of [null, undefined, 1, 'x', true, []]) expect(isItemChange(u), JSON.stringify(u)).to.equal(false);
    const bad = { ...valid(rng(1)), toZone: 7 };
    const result = ItemChangeCodec.decode(bad);
    expect(isRight(result)).to.equal(false);
    if (result._tag === 'Left') expect(result.left.map((e) => e.context.map((c) => c.key).join('.')).join(' ')).to.include('toZone');
  });
});
