import { expect } from 'chai';
import { responsivenessChanges, startResponsivenessChecker, type CheckerSource } from '../../src/health/checker';
import { DEFAULT_HEALTH_SETTINGS } from '../../src/health/settings';
import { initialHealthState, type ReaderHealthState } from '../../src/health/state';
import { silent } from '../support/logger';
import type { EventStoreDBClient } from '@eventstore/db-client';

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

  it('ticks: records a change once even before the projection shows it, then the reverse change; nothing for a reader whose definition was deleted', async () => {
    let clock = now(0);
    const appended: { stream: string; type: string }[] = [];
    const client = {
      appendToStream: async (stream: string, event: { type: string }) => {
        appended.push({ stream, type: event.type });
        return {};
      },
    } as unknown as EventStoreDBClient;
    const states = new Map<string, ReaderHealthState>([['r1', { ...initialHealthState('r1'), lastCheckin: at(0) }]]);
    const checkins = new Map<string, string>([['r1', at(0)]]);
    const defined = new Set(['r1']);
    const source: CheckerSource = { states: async () => states, lastCheckins: async () => checkins, definedReaders: async () => defined };
    const checker = startResponsivenessChecker({
      client, source, settings: DEFAULT_HEALTH_SETTINGS, clock: () => clock, logger: silent, ready: Promise.resolve(), everyMs: 0,
    });
    expect(await checker.tick()).to.deep.equal([]);
    clock = now(40);
    expect((await checker.tick()).map((e) => e.type)).to.deep.equal(['ReaderNotResponding']);
    expect(await checker.tick()).to.deep.equal([]); // the projection has not caught up: no duplicate
    states.set('r1', { ...states.get('r1')!, notRespondingRecorded: true });
    expect(await checker.tick()).to.deep.equal([]);
    checkins.set('r1', at(39));
    expect((await checker.tick()).map((e) => e.type)).to.deep.equal(['ReaderResponding']);
    // Deleted: it goes silent, and nothing is recorded for it.
    defined.delete('r1');
    clock = now(120);
    expect(await checker.tick()).to.deep.equal([]);
    expect(appended).to.deep.equal([
      { stream: 'readerHealth-r1', type: 'ReaderNotResponding' },
      { stream: 'readerHealth-r1', type: 'ReaderResponding' },
    ]);
    await checker.stop();
  });
});
