import { expect } from 'chai';
import { responsivenessChanges } from '../../src/health/checker';
import { DEFAULT_HEALTH_SETTINGS } from '../../src/health/settings';

const T0 = Date.parse('2026-11-23T10:00:00.000Z');
const at = (sec: number): string => new Date(T0 + sec * 1000).toISOString();
const now = (sec: number): Date => new Date(T0 + sec * 1000);

describe('responsiveness checker: changes (injected clock)', () => {
  it('given a reader that never checked in, then nothing is recorded', () => {
    expect(responsivenessChanges([{ readerName: 'r1', lastCheckin: null, recordedNotResponding: false }], now(1000), DEFAULT_HEALTH_SETTINGS)).to.deep.equal([]);
  });

  it('given the last check-in 31 s ago and nothing recorded, then ReaderNotResponding; at 30 s nothing', () => {
    const r = { readerName: 'r1', lastCheckin: at(0), recordedNotResponding: false };
    expect(responsivenessChanges([r], now(30), DEFAULT_HEALTH_SETTINGS)).to.deep.equal([]);
    expect(responsivenessChanges([r], now(31), DEFAULT_HEALTH_SETTINGS)).to.deep.equal([
      { type: 'ReaderNotResponding', data: { readerName: 'r1', eventTime: at(31), lastCheckin: at(0) } },
    ]);
  });

  it('given NOT_RESPONDING recorded, then nothing again while it lasts, and ReaderResponding once it checks in', () => {
    expect(responsivenessChanges([{ readerName: 'r1', lastCheckin: at(0), recordedNotResponding: true }], now(100), DEFAULT_HEALTH_SETTINGS)).to.deep.equal([]);
    expect(responsivenessChanges([{ readerName: 'r1', lastCheckin: at(95), recordedNotResponding: true }], now(100), DEFAULT_HEALTH_SETTINGS)).to.deep.equal([
      { type: 'ReaderResponding', data: { readerName: 'r1', eventTime: at(100), lastCheckin: at(95) } },
    ]);
  });
});
