import { expect } from 'chai';
import { isLeft, isRight } from 'fp-ts/Either';
import { formatIsoDuration, parseIsoDuration } from '../../src/core/duration';

function ms(text: string): number {
  const r = parseIsoDuration(text);
  if (!isRight(r)) throw new Error(`expected ${text} to parse: ${r.left}`);
  return r.right;
}

function reason(text: string): string {
  const r = parseIsoDuration(text);
  if (!isLeft(r)) throw new Error(`expected ${text} to be refused, got ${r.right}`);
  return r.left;
}

describe('parseIsoDuration', () => {
  it('reads minutes, hours, days and weeks', () => {
    expect(ms('PT1M')).to.equal(60_000);
    expect(ms('PT5M')).to.equal(300_000);
    expect(ms('PT2H')).to.equal(7_200_000);
    expect(ms('P1D')).to.equal(86_400_000);
    expect(ms('P1DT2H')).to.equal(93_600_000);
    expect(ms('P2W')).to.equal(14 * 86_400_000);
    expect(ms('PT1H30M15S')).to.equal(5_415_000);
  });

  it('reads fractional seconds with a dot or a comma, down to the millisecond', () => {
    expect(ms('PT0.5S')).to.equal(500);
    expect(ms('PT1,25S')).to.equal(1250);
    expect(ms('PT0.001S')).to.equal(1);
    expect(ms('PT0.500000000S')).to.equal(500);
  });

  it('accepts zero, lower case and surrounding blanks', () => {
    expect(ms('PT0S')).to.equal(0);
    expect(ms('pt5m')).to.equal(300_000);
    expect(ms(' PT5M ')).to.equal(300_000);
  });

  it('refuses text that is not a duration', () => {
    for (const bad of ['', 'P', 'PT', 'P1DT', '5M', 'PT5', 'PT5X', 'T5M', 'PT1.5M', 'PTM', 'PT5M3H']) {
      expect(reason(bad), bad).to.match(/is not an ISO 8601 duration/);
    }
  });

  it('refuses years and months, which have no fixed length', () => {
    expect(reason('P1Y')).to.match(/years and months/);
    expect(reason('P2M')).to.match(/years and months/);
    expect(reason('P1Y2M3D')).to.match(/years and months/);
  });

  it('refuses negative durations', () => {
    expect(reason('-PT5M')).to.match(/negative/);
    expect(reason('PT-5M')).to.match(/negative/);
  });

  it('refuses precision finer than a millisecond', () => {
    expect(reason('PT0.0001S')).to.match(/millisecond/);
  });

  it('refuses durations beyond the safe integer range', () => {
    expect(reason('P99999999999999D')).to.match(/too long/);
  });
});

describe('formatIsoDuration', () => {
  it('writes the canonical form, largest unit first, zero parts left out', () => {
    expect(formatIsoDuration(60_000)).to.equal('PT1M');
    expect(formatIsoDuration(300_000)).to.equal('PT5M');
    expect(formatIsoDuration(3_600_000)).to.equal('PT1H');
    expect(formatIsoDuration(93_600_000)).to.equal('P1DT2H');
    expect(formatIsoDuration(86_400_000)).to.equal('P1D');
    expect(formatIsoDuration(500)).to.equal('PT0.5S');
    expect(formatIsoDuration(1)).to.equal('PT0.001S');
    expect(formatIsoDuration(61_250)).to.equal('PT1M1.25S');
    expect(formatIsoDuration(0)).to.equal('PT0S');
  });

  it('round-trips with parseIsoDuration', () => {
    for (const value of [0, 1, 499, 500, 60_000, 300_000, 5_415_000, 93_600_000, 1_209_600_123]) {
      expect(ms(formatIsoDuration(value))).to.equal(value);
    }
    expect(formatIsoDuration(ms('PT60M'))).to.equal('PT1H');
  });

  it('throws on values that are no duration (a caller bug)', () => {
    expect(() => formatIsoDuration(-1)).to.throw(RangeError);
    expect(() => formatIsoDuration(1.5)).to.throw(RangeError);
    expect(() => formatIsoDuration(Number.NaN)).to.throw(RangeError);
  });
});
