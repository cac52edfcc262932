import { expect } from 'chai';
import { gaussian, mulberry32, rngFor, seedOf } from '../../src/simulator/prng';

describe('simulator PRNG', () => {
  it('mulberry32 gives the same sequence for the same seed and another for another seed', () => {
    const take = (seed: number): number[] => {
      const r = mulberry32(seed);
      return Array.from({ length: 5 }, () => r());
    };
    expect(take(42)).to.deep.equal(take(42));
    expect(take(42)).to.not.deep.equal(take(43));
    for (const v of take(7)) expect(v).to.be.within(0, 1);
  });

  it('seeds one stream per purpose and key', () => {
    expect(seedOf(1, 'reads', 'r1')).to.equal(seedOf(1, 'reads', 'r1'));
    expect(seedOf(1, 'reads', 'r1')).to.not.equal(seedOf(1, 'reads', 'r2'));
    expect(seedOf('ab', 'c')).to.not.equal(seedOf('a', 'bc')); // parts are delimited
    expect(rngFor(3, 'x')()).to.equal(rngFor(3, 'x')());
  });

  it('gaussian has about the asked mean and deviation', () => {
    const r = mulberry32(9);
    const xs = Array.from({ length: 20_000 }, () => gaussian(r, 5, 2));
    const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
    const sd = Math.sqrt(xs.reduce((a, b) => a + (b - mean) ** 2, 0) / xs.length);
    expect(mean).to.be.closeTo(5, 0.05);
    expect(sd).to.be.closeTo(2, 0.05);
  });
});
