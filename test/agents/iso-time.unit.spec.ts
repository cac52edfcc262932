// The report-time shortcut agrees with Date.parse / IsoTimestamp (the writing direction: test/core/iso-time.unit.spec.ts).
import { expect } from 'chai';
import { IsoTimestamp } from '../../src/core/codecs';
import { isoMsReader } from '../../src/agents/iso-time';
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
});
