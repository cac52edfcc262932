// The responsiveness checker against the embedded event store: each change
// recorded once on the reader's health stream, even before the projection
// shows it, and once when two checker processes see it at the same moment.
import { expect } from 'chai';
import { readStream } from '../../src/core/eventstore';
import { startResponsivenessChecker, type CheckerSource } from '../../src/health/checker';
import { healthEvents, healthStream } from '../../src/health/events';
import { DEFAULT_HEALTH_SETTINGS } from '../../src/health/settings';
import { initialHealthState, type ReaderHealthState } from '../../src/health/state';
import { startTestEventStore, type TestEventStore } from '../support/eventstore';
import { silent } from '../support/logger';

const T0 = Date.parse('2026-11-23T10:00:00.000Z');
const at = (sec: number): string => new Date(T0 + sec * 1000).toISOString();
const now = (sec: number): Date => new Date(T0 + sec * 1000);

describe('responsiveness checker on the event store', function () {
  this.timeout(60_000);
  let store: TestEventStore;
  before(async () => {
    store = await startTestEventStore();
  });
  after(async () => store?.close());

  const recorded = async (reader: string): Promise<string[]> => (await readStream(store.client, healthStream(reader), healthEvents)).events.map((e) => e.type);
  const checkerOver = (source: CheckerSource, clock: () => Date) =>
    startResponsivenessChecker({ client: store.client, source, settings: DEFAULT_HEALTH_SETTINGS, clock, logger: silent, ready: Promise.resolve(), everyMs: 0 });

  it('records a change once even before the projection shows it, then the reverse change; nothing for a reader whose definition was deleted', async () => {
    let clock = now(0);
    const states = new Map<string, ReaderHealthState>([['r1', { ...initialHealthState('r1'), lastCheckin: at(0) }]]);
    const checkins = new Map<string, string>([['r1', at(0)]]);
    const defined = new Set(['r1']);
    const checker = checkerOver({ states: async () => states, lastCheckins: async () => checkins, definedReaders: async () => defined }, () => clock);
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
    expect(await recorded('r1')).to.deep.equal(['ReaderNotResponding', 'ReaderResponding']);
    await checker.stop();
  });

  it('two checkers that see the same change at the same moment record it once', async () => {
    const states = new Map<string, ReaderHealthState>([['r2', { ...initialHealthState('r2'), lastCheckin: at(0) }]]);
    const source: CheckerSource = { states: async () => states, lastCheckins: async () => new Map([['r2', at(0)]]), definedReaders: async () => new Set(['r2']) };
    const a = checkerOver(source, () => now(40));
    const b = checkerOver(source, () => now(40));
    await Promise.all([a.tick(), b.tick()]);
    expect(await recorded('r2')).to.deep.equal(['ReaderNotResponding']);
    await Promise.all([a.stop(), b.stop()]);
  });
});
