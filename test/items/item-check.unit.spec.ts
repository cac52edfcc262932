// The hand-written guards of stored items (src/items/stored-item.ts) must
// accept exactly what their io-ts codecs accept: compared on generated stored
// items, each field (of the record and of its item; of the array form) replaced
// by values of every JSON type, removed, or joined by an extra field; the
// decoder built on them still names a refused field; and both stored forms
// decode to the item that was stored.
import { expect } from 'chai';
import type * as t from 'io-ts';
import { isRight } from 'fp-ts/Either';
import { LegacyStoredItem, StoredRow, decodeStoredItem, encodeStoredItem, isLegacyStoredItem, isStoredRow, type StoredItem } from '../../src/items/stored-item';
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

/**
 * Checks `guard` against `codec` on the candidates of 1,000 rounds: no
 * disagreement, and both outcomes exercised many times.
 */
function expectAgreement(candidatesOf: (n: number) => unknown[], codec: t.Decoder<unknown, unknown>, guard: (u: unknown) => boolean): void {
  let checked = 0;
  let rejected = 0;
  const disagreements: string[] = [];
  for (let n = 0; n < 1000; n++) {
    for (const c of candidatesOf(n)) {
      const expected = isRight(codec.decode(c));
      if (guard(c) !== expected) disagreements.push(JSON.stringify(c));
      checked++;
      if (!expected) rejected++;
    }
  }
  expect(disagreements.slice(0, 5)).to.deep.equal([]);
  expect(rejected).to.be.greaterThan(checked / 3);
  expect(checked - rejected).to.be.greaterThan(checked / 20);
}

describe('items: stored items, the object form written before the array form', () => {
  it('agrees with the io-ts codec on 1,000 valid stored items, each field of the record and of its item replaced, removed or joined', () => {
    const r = mulberry32(20261127);
    expectAgreement(
      (n) => {
        const base = validStored(r);
        const item = base['item'] as Record<string, unknown>;
        const itemField = Object.keys(item)[n % Object.keys(item).length]!;
        const recordField = Object.keys(base)[n % Object.keys(base).length]!;
        return [base, ...variants(base, recordField), ...variants(item, itemField).map((i) => ({ ...base, item: i }))];
      },
      LegacyStoredItem,
      isLegacyStoredItem,
    );
  });

  it('non-objects and arrays are refused', () => {
    for (const u of [null, undefined, 1, 'x', true, [], [validStored(mulberry32(1))]]) expect(isLegacyStoredItem(u), JSON.stringify(u)).to.equal(false);
  });

  it('a stored item the guard refuses is still refused with the codec\'s reason, naming the field', () => {
    const good = validStored(mulberry32(2));
    const epc = (good['item'] as { epc: string }).epc;
    expect(decodeStoredItem(epc, JSON.stringify(good))).to.deep.equal(good);
    const bad = { ...good, item: { ...(good['item'] as object), zone: 7 } };
    expect(() => decodeStoredItem('E1', JSON.stringify(bad))).to.throw(StoredValueError, /item E1 does not decode: .*zone/);
  });
});

describe('items: stored items, the array form', () => {
  /** A stored item as the projection builds it: lastModifiedTime and zLocation follow from the rest. */
  const validRow = (r: () => number): unknown[] => {
    const item = validItem(r);
    const ms = Date.parse(item['lastModifiedTime'] as string);
    return [item['tagId'], item['jobId'], item['xLocation'], item['yLocation'], item['zone'], item['floor'], item['facility'], ms, '00000000000000012345:000003'];
  };

  it('agrees with the io-ts codec on 1,000 valid rows, each value replaced, removed or joined by an extra one', () => {
    const r = mulberry32(20261129);
    expectAgreement(
      (n) => {
        const base = validRow(r);
        const i = n % base.length;
        return [base, ...REPLACEMENTS.map((v) => base.map((x, j) => (j === i ? v : x))), base.filter((_, j) => j !== i), [...base, 1]];
      },
      StoredRow,
      isStoredRow,
    );
  });

  it('non-arrays are refused', () => {
    for (const u of [null, undefined, 1, 'x', true, {}, [validRow(mulberry32(1))]]) expect(isStoredRow(u), JSON.stringify(u)).to.equal(false);
  });

  it('an item stored in the array form decodes to the item stored, as the object form of the same item does', () => {
    const r = mulberry32(3);
    for (let n = 0; n < 200; n++) {
      const item = validItem(r);
      const stored = { item, ms: Date.parse(item['lastModifiedTime'] as string), at: '00000000000000012345:000003' } as unknown as StoredItem;
      const raw = encodeStoredItem(stored);
      expect(raw.startsWith('['), raw).to.equal(true);
      expect(decodeStoredItem(item['epc'] as string, raw)).to.deep.equal(stored);
      expect(decodeStoredItem(item['epc'] as string, JSON.stringify(stored))).to.deep.equal(stored);
    }
  });

  it('is at most a third of the object form', () => {
    const item = validItem(mulberry32(4));
    const stored = { item, ms: Date.parse(item['lastModifiedTime'] as string), at: '00000000000000012345:000003' } as unknown as StoredItem;
    expect(encodeStoredItem(stored).length).to.be.at.most(JSON.stringify(stored).length / 3);
  });

  it('a refused row names the value and its field', () => {
    const bad = validRow(mulberry32(5));
    bad[4] = 7;
    expect(() => decodeStoredItem('E1', JSON.stringify(bad))).to.throw(StoredValueError, /item E1 does not decode: .*4 \(zone\)/);
    expect(() => decodeStoredItem('E1', '[1,2]')).to.throw(StoredValueError, /item E1 does not decode/);
  });
});
