// The report-time shortcuts agree with Date.parse / IsoTimestamp / toISOString.
import { expect } from 'chai';
import { IsoTimestamp } from '../../src/core/codecs';
import { isoMsReader, isoWriter } from '../../src/agents/iso-time';
import { mulberry32 } from '../../src/simulator/prng';

describe('iso-time', () => {
  const base = Date.parse('2026-11-23T10:00:00.000Z');
  it('reads what IsoTimestamp accepts as Date.parse does, NaN for the rest, in any order', () => {
    const rnd = mulberry32(7);
    const read = isoMsReader();
    const samples: unknown[] = [
      '2026-11-23T10:00:01+01:00', '2026-11-23T10:00:01.5Z', '2026-11-23T10:00Z', '2026-11-23T10:00:01.123456Z', '2026-11-23T10:00:01.1234+0130',
      'yesterday', '2026-11-23T10:00:01.12xZ', '2026-11-23 10:00:01.123Z', '2026-13-23T10:00:01.123Z', '2026-11-23T10:00:01.123z', '', 5, null, undefined,
    ];
    for (let i = 0; i < 2000; i++) samples.push(new Date(base + Math.floor(rnd() * 5000) - 2500).toISOString());
    for (let i = 0; i < 2000; i++) samples.push(samples[Math.floor(rnd() * samples.length)]);
    for (const s of samples) {
      const want = IsoTimestamp.is(s) ? Date.parse(s) : NaN;
      expect(read(s), String(s)).to.satisfy((got: number) => (Number.isNaN(want) ? Number.isNaN(got) : got === want));
    }
  });
  it('writes what toISOString writes, across seconds and before 1970', () => {
    const rnd = mulberry32(9);
    const write = isoWriter();
    for (const ms of [0, -1, -1000, -1001, 999, 1000, base, base + 999, base + 1000, 253402300799999, 253402300800000]) expect(write(ms)).to.equal(new Date(ms).toISOString());
    for (let i = 0; i < 5000; i++) {
      const ms = base + Math.floor(rnd() * 10_000) - 5000;
      expect(write(ms)).to.equal(new Date(ms).toISOString());
    }
  });
});
