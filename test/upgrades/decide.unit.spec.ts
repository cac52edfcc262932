import { expect } from 'chai';
import * as E from 'fp-ts/Either';
import { decideOnHistory } from '../../src/core/command';
import { upgradeDecider } from '../../src/upgrades/commands';
import { withPolicyDefaults, type UpgradeRequest } from '../../src/upgrades/codec';
import { CANCELLED, nextDue, TIMED_OUT, type CommandOutcome, type UpgradeCommand } from '../../src/upgrades/decide';
import { evolveUpgrade, initialUpgradeState, overallStatus, type UpgradeEvent, type UpgradeState } from '../../src/upgrades/events';
import { planUpgrade } from '../../src/upgrades/targets';
import { toUpgradeStatus } from '../../src/upgrades/view';
import type { ReaderDefinition } from '../../src/readerdefinitions/codec';
import type { SoftwareImage } from '../../src/software/codec';

const agg = upgradeDecider;
const T0 = Date.parse('2026-01-01T00:00:00.000Z');
const at = (s: number): Date => new Date(T0 + s * 1000);
const iso = (s: number): string => at(s).toISOString();
const TIMEOUT = 60_000;
const NAMES = ['r1', 'r2', 'r3', 'r4', 'r5'];

const request = (max = 2): UpgradeRequest =>
  withPolicyDefaults({ target: { type: 'DEVICE', values: NAMES }, versionIdentifier: { version: '9.0', imageType: 'FIRMWARE_READER' }, policy: { maxParallelReaders: max } });

const startedEvent = (max = 2, names = NAMES): UpgradeEvent => ({
  type: 'UpgradeStarted',
  data: {
    id: 'u', time: iso(0), request: request(max),
    readers: names.map((name) => ({ name, readerType: 'XARRAY', previousVersion: { version: '8.0', imageType: 'FIRMWARE_READER' } })),
    skipped: [{ name: 's1', readerType: 'SPEEDWAY', reason: 'type SPEEDWAY is not in the policy' }],
    image: { imageName: 'img', checksum: 'ab'.repeat(32) },
  },
});

const ids = (n: number, prefix = 'c'): string[] => Array.from({ length: n }, (_, i) => `${prefix}${i}`);
const advance = (outcomes: Record<string, CommandOutcome> = {}, commandIds = ids(5)): UpgradeCommand => ({ type: 'Advance', outcomes: new Map(Object.entries(outcomes)), commandIds, readerTimeoutMs: TIMEOUT });

function run(history: UpgradeEvent[], cmd: UpgradeCommand, sec: number): { events: readonly UpgradeEvent[]; state: UpgradeState } {
  const r = decideOnHistory(agg, history, cmd, at(sec));
  if (E.isLeft(r)) throw new Error(r.left.message);
  return r.right;
}
const fold = (events: readonly UpgradeEvent[]): UpgradeState => events.reduce(evolveUpgrade, initialUpgradeState);
const types = (events: readonly UpgradeEvent[]) => events.map((e) => (e.type === 'UpgradeReaderStarted' || e.type === 'UpgradeReaderFinished' ? `${e.type}:${e.data.readerName}` : e.type));

describe('upgrade decider', () => {
  it('Start: WAITING with the policy defaults filled in; starting the same id again is a 409', () => {
    expect(withPolicyDefaults({ target: { type: 'FACILITY', values: ['F', 'F'] }, versionIdentifier: { version: '1', imageType: 'CAP_SERVICE' } }).policy).to.deep.equal({
      maxParallelReaders: 10, allowedReaderTypes: ['XARRAY', 'XSPAN', 'XPORTAL', 'SPEEDWAY'],
    });
    const s = fold([startedEvent()]);
    expect(overallStatus(s)).to.equal('WAITING');
    const again = decideOnHistory(agg, [startedEvent()], { type: 'Start', id: 'u', request: request(), readers: [], skipped: [], image: { imageName: '', checksum: '' } }, at(1));
    expect(E.isLeft(again) && again.left.status).to.equal(409);
  });

  it('Advance starts at most maxParallelReaders; the next starts only as one finishes; all done -> COMPLETED', () => {
    const h: UpgradeEvent[] = [startedEvent(2)];
    let r = run(h, advance(), 1);
    expect(types(r.events)).to.deep.equal(['UpgradeReaderStarted:r1', 'UpgradeReaderStarted:r2']);
    h.push(...r.events);
    expect(overallStatus(r.state)).to.equal('IN_PROGRESS');
    expect(run(h, advance(), 2).events, 'no free slot').to.deep.equal([]);
    r = run(h, advance({ c0: { result: 'DONE', message: null } }, ids(2, 'd')), 3);
    expect(types(r.events)).to.deep.equal(['UpgradeReaderFinished:r1', 'UpgradeReaderStarted:r3']);
    expect(r.events[1]).to.deep.include({ data: { time: iso(3), readerName: 'r3', commandId: 'd0' } });
    h.push(...r.events);
    const outcomes = { c0: { result: 'DONE' as const, message: null }, c1: { result: 'DONE' as const, message: null }, d0: { result: 'DONE' as const, message: null } };
    r = run(h, advance(outcomes, ids(2, 'e')), 4);
    expect(types(r.events)).to.deep.equal(['UpgradeReaderFinished:r2', 'UpgradeReaderFinished:r3', 'UpgradeReaderStarted:r4', 'UpgradeReaderStarted:r5']);
    h.push(...r.events);
    r = run(h, advance({ ...outcomes, e0: { result: 'DONE', message: null }, e1: { result: 'DONE', message: 'ok' } }), 5);
    expect(types(r.events)).to.deep.equal(['UpgradeReaderFinished:r4', 'UpgradeReaderFinished:r5', 'UpgradeFinished']);
    expect(overallStatus(r.state)).to.equal('COMPLETED');
    expect(nextDue(r.state, new Map(), TIMEOUT)).to.equal(undefined);
  });

  it('a FAILED reader does not stop the others; the upgrade ends FAILED with the reason', () => {
    const h: UpgradeEvent[] = [startedEvent(5, ['r1', 'r2'])];
    h.push(...run(h, advance(), 1).events);
    const r = run(h, advance({ c0: { result: 'FAILED', message: 'checksum mismatch' }, c1: { result: 'DONE', message: null } }), 2);
    expect(types(r.events)).to.deep.equal(['UpgradeReaderFinished:r1', 'UpgradeReaderFinished:r2', 'UpgradeFinished']);
    expect(r.state.finished?.status).to.equal('FAILED');
    expect(toUpgradeStatus(r.state, at(9)).details.failedReaders).to.deep.equal([{ name: 'r1', reason: 'checksum mismatch' }]);
  });

  it('a reader silent past the time-out is FAILED; nextDue is its deadline', () => {
    const h: UpgradeEvent[] = [startedEvent(5, ['r1'])];
    h.push(...run(h, advance(), 10).events);
    const s = fold(h);
    expect(nextDue(s, new Map(), TIMEOUT)).to.equal(T0 + 10_000 + TIMEOUT);
    expect(run(h, advance(), 69).events).to.deep.equal([]);
    const r = run(h, advance(), 70);
    expect(r.events.map((e) => e.type)).to.deep.equal(['UpgradeReaderFinished', 'UpgradeFinished']);
    expect(r.events[0]).to.deep.include({ data: { time: iso(70), readerName: 'r1', status: 'FAILED', reason: TIMED_OUT } });
  });

  it('Stop cancels the readers not started; those in progress finish; then FAILED. Stop again decides nothing; unknown upgrade 404', () => {
    const h: UpgradeEvent[] = [startedEvent(2)];
    h.push(...run(h, advance(), 1).events);
    let r = run(h, { type: 'Stop' }, 2);
    expect(types(r.events)).to.deep.equal(['UpgradeStopRequested', 'UpgradeReaderFinished:r3', 'UpgradeReaderFinished:r4', 'UpgradeReaderFinished:r5']);
    expect(r.events[1]).to.deep.include({ data: { time: iso(2), readerName: 'r3', status: 'FAILED', reason: CANCELLED } });
    h.push(...r.events);
    expect(run(h, { type: 'Stop' }, 3).events).to.deep.equal([]);
    r = run(h, advance({ c0: { result: 'DONE', message: null } }), 4);
    expect(types(r.events), 'nothing new starts after stop').to.deep.equal(['UpgradeReaderFinished:r1']);
    h.push(...r.events);
    r = run(h, advance({ c0: { result: 'DONE', message: null }, c1: { result: 'DONE', message: null } }), 5);
    expect(types(r.events)).to.deep.equal(['UpgradeReaderFinished:r2', 'UpgradeFinished']);
    expect(overallStatus(r.state)).to.equal('FAILED');
    const none = decideOnHistory(agg, [], { type: 'Stop' }, at(0));
    expect(E.isLeft(none) && none.left.status).to.equal(404);
  });

  it('Stop before any reader started ends the upgrade at once', () => {
    const r = run([startedEvent()], { type: 'Stop' }, 1);
    expect(r.events.at(-1)).to.deep.equal({ type: 'UpgradeFinished', data: { time: iso(1), status: 'FAILED' } });
  });

  it('a reader that cannot be given its command fails; others carry on', () => {
    const h: UpgradeEvent[] = [startedEvent(2)];
    h.push(...run(h, advance(), 1).events);
    const r = run(h, { type: 'ReaderUnreachable', readerName: 'r2', reason: 'reader definition deleted' }, 2);
    expect(types(r.events)).to.deep.equal(['UpgradeReaderFinished:r2']);
    expect(nextDue(r.state, new Map(), TIMEOUT), 'a free slot: advance now').to.equal(0);
    expect(run(h, { type: 'ReaderUnreachable', readerName: 'r4', reason: 'x' }, 2).events, 'not in progress').to.deep.equal([]);
  });

  it('status object: elapsed seconds per reader and overall, skipped readers reported', () => {
    const h: UpgradeEvent[] = [startedEvent(1, ['r1', 'r2'])];
    h.push(...run(h, advance(), 5).events);
    const st = toUpgradeStatus(fold(h), at(35));
    expect(st).to.deep.include({ id: 'u', status: 'IN_PROGRESS', elapsedTimeSeconds: 35, lastUpdatedTime: iso(5) });
    expect(st.details.readers).to.deep.equal([
      { name: 'r1', previousVersion: { version: '8.0', imageType: 'FIRMWARE_READER' }, status: 'IN_PROGRESS', elapsedTimeSeconds: 30, lastUpdatedTime: iso(5) },
      { name: 'r2', previousVersion: { version: '8.0', imageType: 'FIRMWARE_READER' }, status: 'WAITING', elapsedTimeSeconds: 0, lastUpdatedTime: iso(0) },
    ]);
    expect(st.details.skippedReaders).to.deep.equal([{ name: 's1', readerType: 'SPEEDWAY', reason: 'type SPEEDWAY is not in the policy' }]);
  });
});

describe('upgrade targets', () => {
  const def = (name: string, type: ReaderDefinition['type'], facility = 'F1'): ReaderDefinition =>
    ({ name, type, facility, agentIdentifier: name, address: null, groups: [], placement: null, readerZone: null, antennaZones: null, labels: null });
  const image = { versionInfo: { versionIdentifier: { version: '9.0', imageType: 'FIRMWARE_READER' }, imageName: 'i', checksum: 'ab'.repeat(32) } } as SoftwareImage;
  const ctx = {
    readers: [def('b', 'XARRAY'), def('a', 'SPEEDWAY'), def('c', null), def('d', 'XSPAN', 'F2')],
    facilities: ['F1', 'F2'],
    images: [image],
    active: [],
    versions: new Map([['b', { App: '1.2', Firmware: '7.6.1' }]]),
  };
  const req = (type: 'DEVICE' | 'FACILITY', values: string[], allowed?: Array<'XARRAY' | 'XSPAN' | 'XPORTAL' | 'SPEEDWAY'>) =>
    withPolicyDefaults({ target: { type, values }, versionIdentifier: { version: '9.0', imageType: 'FIRMWARE_READER' }, ...(allowed ? { policy: { allowedReaderTypes: allowed } } : {}) });

  it('FACILITY takes its readers sorted; types outside the policy and untyped readers are skipped with the reason; previous version from the last check-in', () => {
    const plan = planUpgrade(req('FACILITY', ['F1'], ['XARRAY']), ctx);
    if (E.isLeft(plan)) throw new Error(plan.left.message);
    expect(plan.right.readers).to.deep.equal([{ name: 'b', readerType: 'XARRAY', previousVersion: { version: '7.6.1', imageType: 'FIRMWARE_READER' } }]);
    expect(plan.right.skipped.map((s) => [s.name, s.readerType])).to.deep.equal([['a', 'SPEEDWAY'], ['c', null]]);
  });

  it('a reader already in an active upgrade is a 409', () => {
    const plan = planUpgrade(req('DEVICE', ['b']), { ...ctx, active: [{ id: 'x', readerNames: ['b'] }] });
    expect(E.isLeft(plan) && plan.left.status).to.equal(409);
    expect(E.isLeft(plan) && plan.left.message).to.contain('upgrade x');
  });
});
