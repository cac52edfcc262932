import { expect } from 'chai';
import { isoTime } from '../../src/core/iso-time';
import { mulberry32 } from '../../src/simulator/prng';

describe('core: isoTime', () => {
  it('equals Date#toISOString on 200,000 generated times across the whole supported range and day boundaries', () => {
    let seed = 42;
    const next = (): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const min = Date.parse('0000-01-01T00:00:00.000Z');
    const max = Date.parse('9999-12-31T23:59:59.999Z');
    const times: number[] = [min, max, 0, -1, 1, 86_399_999, 86_400_000, Date.UTC(2024, 1, 29, 23, 59, 59, 999), Date.UTC(2024, 2, 1)];
    for (let i = 0; i < 100_000; i++) times.push(Math.floor(min + next() * (max - min)));
    // Runs within one day and across midnight, as a stream of observations is.
    let t = Date.UTC(2026, 10, 23, 23, 59, 0);
    for (let i = 0; i < 100_000; i++) times.push((t += Math.floor(next() * 5)));
    // One assertion over the mismatches: 200,000 chai assertions cost seconds of CPU, the comparisons alone do not.
    const mismatches = times.filter((ms) => isoTime(ms) !== new Date(ms).toISOString()).slice(0, 5);
    expect(mismatches.map((ms) => ({ ms, got: isoTime(ms), want: new Date(ms).toISOString() }))).to.deep.equal([]);
  });

  it('writes what toISOString writes, across seconds and before 1970 (the agent API\'s report times)', () => {
    const rnd = mulberry32(9);
    const base = Date.parse('2026-11-23T10:00:00.000Z');
    for (const ms of [0, -1, -1000, -1001, 999, 1000, base, base + 999, base + 1000, 253402300799999, 253402300800000]) expect(isoTime(ms)).to.equal(new Date(ms).toISOString());
    for (let i = 0; i < 5000; i++) {
      const ms = base + Math.floor(rnd() * 10_000) - 5000;
      expect(isoTime(ms)).to.equal(new Date(ms).toISOString());
    }
  });

  it('outside years 0000-9999 and for fractional milliseconds it is toISOString itself', () => {
    for (const ms of [Date.parse('-000001-12-31T23:59:59.999Z'), Date.parse('+010000-01-01T00:00:00.000Z'), 8.64e15, 1.5, -0.5]) expect(isoTime(ms)).to.equal(new Date(ms).toISOString());
    expect(() => isoTime(Number.NaN)).to.throw(RangeError);
  });
});
