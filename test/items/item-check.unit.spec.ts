// The hand-written StoredItem guard must accept exactly what the io-ts codec
// accepts: compared on generated stored items, each field (of the record and
// of its item) replaced by values of every JSON type, removed, or joined by
// an extra field; and the decoder built on it still names a refused field.
import { expect } from 'chai';
import { isRight } from 'fp-ts/Either';
import { StoredItem, decodeStoredItem, isStoredItem } from '../../src/items/model';
import { StoredValueError } from '../../src/core/stored-json';
import { mulberry32 } from '../../src/simulator/prng';

const validItem = (r: () => number): Record<string, unknown> => {
  const located = r() < 0.5;
  return {
    epc: 'E2801160600002' + Math.floor(r() * 1e6).toString(16),
    tagId: r() < 0.5 ? '' : 'E2801160',
    jobId: 'job-1',
    xLocation: located ? r() * 10 : null,
    yLocation: located ? r() * 10 : null,
    zLocation: located ? 0 : null,
    zone: r() < 0.2 ? 'ABSENT' : 'DOCK',
    floor: r() < 0.5 ? null : '1',
    facility: r() < 0.3 ? null : 'STORE',
    presenceConfidence: 'HIGH',
    lastModifiedTime: new Date(1_700_000_000_000 + Math.floor(r() * 1e9)).toISOString(),
  };
};
const validStored = (r: () => number): Record<string, unknown> => ({ item: validItem(r), ms: 1_700_000_000_000 + Math.floor(r() * 1e9), at: '00000000000000012345:000003' });

/** Values of every JSON type and a few edge cases io-ts might treat specially. */
const REPLACEMENTS: unknown[] = [undefined, null, '', 'HIGH', 'LOW', 'toString', 0, -1, Number.NaN, Infinity, true, false, {}, [], ['HIGH']];

/** `base` with `field` replaced by each replacement, removed, and with an extra field. */
function variants(base: Record<string, unknown>, field: string): Array<Record<string, unknown>> {
  const { [field]: _removed, ...without } = base;
  return [...REPLACEMENTS.map((v) => ({ ...base, [field]: v })), without, { ...base, extra: 1 }];
}

describe('items: hand-written StoredItem check', () => {
  it('agrees with the io-ts codec on 1,000 valid stored items, each field of the record and of its item replaced, removed or joined', () => {
    const r = mulberry32(20261127);
    let checked = 0;
    let rejected = 0;
    const disagreements: string[] = [];
    for (let n = 0; n < 1000; n++) {
      const base = validStored(r);
      const item = base['item'] as Record<string, unknown>;
      const itemField = Object.keys(item)[n % Object.keys(item).length]!;
      const recordField = Object.keys(base)[n % Object.keys(base).length]!;
      const candidates: unknown[] = [base, ...variants(base, recordField), ...variants(item, itemField).map((i) => ({ ...base, item: i }))];
      for (const c of candidates) {
        const expected = isRight(StoredItem.decode(c));
        if (isStoredItem(c) !== expected) disagreements.push(JSON.stringify(c));
        checked++;
        if (!expected) rejected++;
      }
    }
    expect(disagreements.slice(0, 5)).to.deep.equal([]);
    // Both outcomes were exercised many times.
    expect(rejected).to.be.greaterThan(checked / 3);
    expect(checked - rejected).to.be.greaterThan(checked / 20);
  });

  it('non-objects and arrays are refused', () => {
    for (const u of [null, undefined, 1, 'x', true, [], [validStored(mulberry32(1))]]) expect(isStoredItem(u), JSON.stringify(u)).to.equal(false);
  });

  it('a stored item the guard refuses is still refused with the codec\'s reason, naming the field', () => {
    const good = validStored(mulberry32(2));
    expect(decodeStoredItem('E1', JSON.stringify(good))).to.deep.equal(good);
    const bad = { ...good, item: { ...(good['item'] as object), zone: 7 } };
    expect(() => decodeStoredItem('E1', JSON.stringify(bad))).to.throw(StoredValueError, /item E1 does not decode: .*zone/);
  });
});
