import { expect } from 'chai';
import * as E from 'fp-ts/Either';
import { decideOnHistory } from '../../src/core/command';
import { jobDecider } from '../../src/jobs/commands';
import { nextDue, type JobCommand } from '../../src/jobs/decide';
import { evolveJob, type JobEvent } from '../../src/jobs/events';
import { initialJobState, type StoredJobRequest } from '../../src/jobs/model';
import { queryJobs } from '../../src/jobs/view';
import { validateJobStart } from '../../src/jobs/request';

const agg = jobDecider;
const T0 = Date.parse('2026-01-01T00:00:00.000Z');
const at = (s: number): Date => new Date(T0 + s * 1000);
const iso = (s: number): string => at(s).toISOString();

const request = (over: Partial<StoredJobRequest> = {}): StoredJobRequest => ({
  name: 'j',
  recipeName: 'r',
  facility: 'DEFAULT',
  durationSeconds: null,
  startDelay: 'PT10S',
  readerGroups: null,
  reportToDatabaseEnabled: true,
  reportToHistoryEnabled: true,
  reportToMessageQueueEnabled: true,
  useOtherJobData: true,
  reportToFileEnabled: false,
  ...over,
});

const started = (over: Partial<StoredJobRequest> = {}): JobEvent => ({
  type: 'JobStarted',
  data: { id: 'j1', time: iso(0), request: request(over), readerNames: ['r1', 'r2'] },
});
const initializing: JobEvent = { type: 'JobInitializing', data: { time: iso(10) } };
const initialized: JobEvent = { type: 'JobInitialized', data: { time: iso(10), readerNames: ['r1', 'r2'], ackDeadline: iso(70) } };
const ack = (r: string, s = 20): JobEvent => ({ type: 'JobReaderAcknowledged', data: { time: iso(s), readerName: r } });
const running: JobEvent = { type: 'JobRunning', data: { time: iso(30) } };

function when(history: JobEvent[], cmd: JobCommand, now: Date) {
  const r = decideOnHistory(agg, history, cmd, now);
  if (E.isLeft(r)) throw new Error(`refused: ${r.left.message}`);
  return r.right;
}
const types = (events: ReadonlyArray<JobEvent>): string[] => events.map((e) => e.type);
const tick: JobCommand = { type: 'Tick' };

describe('job decider', () => {
  it('Start -> WAITING with the request and prospective readers', () => {
    const { events, state } = when([], { type: 'Start', id: 'j1', request: request(), readerNames: ['r1'], conflicts: [] }, at(0));
    expect(types(events)).to.deep.equal(['JobStarted']);
    expect(state.status).to.equal('WAITING');
    expect(state.creationTime).to.equal(iso(0));
  });

  it('Start conflicting with an active job is a 409 naming JobId=', () => {
    const r = decideOnHistory(agg, [], { type: 'Start', id: 'j2', request: request(), readerNames: ['r1'], conflicts: [{ readerName: 'r1', jobId: 'j1' }] }, at(0));
    expect(E.isLeft(r) && r.left.status).to.equal(409);
    expect(E.isLeft(r) && r.left.message).to.contain('JobId=j1');
  });

  it('WAITING: nothing before the start delay, INITIALIZING at it', () => {
    expect(when([started()], tick, at(9)).events).to.deep.equal([]);
    const { state } = when([started()], tick, at(10));
    expect(state.status).to.equal('INITIALIZING');
    expect(state.startAttempts).to.equal(1);
    expect(nextDue(when([started()], tick, at(0)).state)).to.deep.equal({ at: T0 + 10_000, action: 'Tick' });
  });

  it('INITIALIZING: readers resolved -> STARTING with an ack deadline', () => {
    const { state } = when([started(), initializing], { type: 'Initialize', readerNames: ['r1'], notes: [], ackTimeoutMs: 60_000 }, at(10));
    expect(state.status).to.equal('STARTING');
    expect(state.readerNames).to.deep.equal(['r1']);
    expect(nextDue(state)).to.deep.equal({ at: T0 + 70_000, action: 'Tick' });
  });

  it('INITIALIZING: no readers -> STOPPED JOB_FAILED with an error', () => {
    const { state } = when([started(), initializing], { type: 'Initialize', readerNames: [], notes: ['reader x taken'], ackTimeoutMs: 1 }, at(10));
    expect(state.status).to.equal('STOPPED');
    expect(state.stopReason).to.equal('JOB_FAILED');
    expect(state.errors.map((e) => e.message)).to.deep.equal(['reader x taken', 'no readers resolved for the job']);
  });

  it('STARTING: all acknowledged -> RUNNING at the next tick', () => {
    const h = [started(), initializing, initialized, ack('r1'), ack('r2', 21)];
    expect(nextDue(h.reduce(evolveJob, initialJobState))?.at).to.equal(T0 + 21_000);
    expect(when(h, tick, at(21)).state.status).to.equal('RUNNING');
  });

  it('STARTING: ack time-out with some acknowledged -> failedReaderNames and RUNNING', () => {
    const h = [started(), initializing, initialized, ack('r1')];
    expect(when(h, tick, at(69)).events).to.deep.equal([]);
    const { state } = when(h, tick, at(70));
    expect(state.status).to.equal('RUNNING');
    expect(state.failedReaderNames).to.deep.equal(['r2']);
    expect(state.errorCount).to.equal(1);
  });

  it('STARTING: ack time-out with none acknowledged -> JOB_FAILED', () => {
    const { state } = when([started(), initializing, initialized], tick, at(70));
    expect(state.status).to.equal('STOPPED');
    expect(state.stopReason).to.equal('JOB_FAILED');
    expect(state.failedReaderNames).to.deep.equal(['r1', 'r2']);
  });

  it('FailReader: the reason is a job error and the reader failed; the others need not wait for the deadline; the last one fails the job', () => {
    const fail = (r: string): JobCommand => ({ type: 'FailReader', readerName: r, message: 'transmit power 40 dBm is above the reader maximum 32.5 dBm' });
    const h = [started(), initializing, initialized, ack('r1')];
    const { events, state } = when(h, fail('r2'), at(21));
    expect(types(events)).to.deep.equal(['JobErrorRecorded', 'JobReaderFailed']);
    expect(state.errors.map((e) => e.message)).to.deep.equal(['reader r2: transmit power 40 dBm is above the reader maximum 32.5 dBm']);
    expect(state.failedReaderNames).to.deep.equal(['r2']);
    expect(nextDue(state)).to.deep.equal({ at: at(21).getTime(), action: 'Tick' });
    const after = when([...h, ...events], tick, at(22));
    expect(types(after.events)).to.deep.equal(['JobRunning']);
    expect(when([...h, ...events], fail('r2'), at(23)).events).to.deep.equal([]);
    const both = when([started(), initializing, initialized, ...when([started(), initializing, initialized], fail('r1'), at(20)).events], fail('r2'), at(21));
    expect(both.state.status).to.equal('STOPPED');
    expect(both.state.stopReason).to.equal('JOB_FAILED');
  });

  it('Acknowledge: idempotent; refused for a reader not in the job or failed', () => {
    const h = [started(), initializing, initialized, ack('r1')];
    expect(when(h, { type: 'Acknowledge', readerName: 'r1' }, at(25)).events).to.deep.equal([]);
    expect(types(when(h, { type: 'Acknowledge', readerName: 'r2' }, at(25)).events)).to.deep.equal(['JobReaderAcknowledged']);
    const other = decideOnHistory(agg, h, { type: 'Acknowledge', readerName: 'zz' }, at(25));
    expect(E.isLeft(other) && other.left.status).to.equal(404);
    const failed = [...h, { type: 'JobReaderFailed', data: { time: iso(70), readerName: 'r2' } } as JobEvent, running];
    const late = decideOnHistory(agg, failed, { type: 'Acknowledge', readerName: 'r2' }, at(80));
    expect(E.isLeft(late) && late.left.status).to.equal(409);
  });

  it('RUNNING with durationSeconds -> JOB_COMPLETED when it has passed; without -> no timer', () => {
    const h = [started({ durationSeconds: 5 }), initializing, initialized, ack('r1'), ack('r2'), running];
    expect(when(h, tick, at(34)).events).to.deep.equal([]);
    const { state } = when(h, tick, at(35));
    expect(state.stopReason).to.equal('JOB_COMPLETED');
    expect(state.stoppedAt).to.equal(iso(35));
    expect(nextDue([started(), initializing, initialized, running].reduce(evolveJob, initialJobState))).to.equal(undefined);
  });

  it('Stop graceful while RUNNING -> STOPPING, then STOPPED USER_REQUESTED_GRACEFUL after the stop time-out', () => {
    const h = [started(), initializing, initialized, ack('r1'), running];
    const stop = when(h, { type: 'Stop', graceful: true, stopTimeoutMs: 5000 }, at(40));
    expect(stop.state.status).to.equal('STOPPING');
    const h2 = [...h, ...stop.events];
    expect(when(h2, tick, at(44)).events).to.deep.equal([]);
    const { state } = when(h2, tick, at(45));
    expect([state.status, state.stopReason]).to.deep.equal(['STOPPED', 'USER_REQUESTED_GRACEFUL']);
  });

  it('Stop abrupt -> STOPPED USER_REQUESTED_ABRUPT at once; stop while WAITING stops at once; stopped is a no-op', () => {
    const h = [started(), initializing, initialized, ack('r1'), running];
    const { state } = when(h, { type: 'Stop', graceful: false, stopTimeoutMs: 5000 }, at(40));
    expect([state.status, state.stopReason]).to.deep.equal(['STOPPED', 'USER_REQUESTED_ABRUPT']);
    const w = when([started()], { type: 'Stop', graceful: true, stopTimeoutMs: 5000 }, at(1));
    expect([w.state.status, w.state.stopReason]).to.deep.equal(['STOPPED', 'USER_REQUESTED_GRACEFUL']);
    expect(when([started(), ...w.events], { type: 'Stop', graceful: false, stopTimeoutMs: 1 }, at(2)).events).to.deep.equal([]);
    const none = decideOnHistory(agg, [], { type: 'Stop', graceful: true, stopTimeoutMs: 1 }, at(2));
    expect(E.isLeft(none) && none.left.status).to.equal(404);
  });

  it('errors are capped at maxErrors (most recent kept), errorOccurred counts all', () => {
    const errs: JobEvent[] = Array.from({ length: 105 }, (_, i) => ({ type: 'JobErrorRecorded', data: { time: iso(i), message: `e${i}` } }));
    const s = [started(), ...errs].reduce(evolveJob, initialJobState);
    expect(s.errors).to.have.length(100);
    expect(s.errors[0]?.message).to.equal('e5');
    expect(s.errorCount).to.equal(105);
  });
});

describe('job start request', () => {
  it('applies defaults and resolves the only facility', () => {
    const r = validateJobStart({ recipeName: 'r' }, ['DEFAULT'], new Set(['r']));
    expect(E.isRight(r) && r.right).to.deep.include({ facility: 'DEFAULT', startDelay: 'PT3M', durationSeconds: null, useOtherJobData: true, reportToDatabaseEnabled: true });
  });
  it('requires facility with several, a known recipe and a valid duration', () => {
    const several = validateJobStart({ recipeName: 'r' }, ['A', 'B'], new Set(['r']));
    expect(E.isLeft(several) && several.left.errors[0]?.path).to.equal('body.facility');
    const recipe = validateJobStart({ recipeName: 'x' }, ['A'], new Set(['r']));
    expect(E.isLeft(recipe) && recipe.left.errors[0]?.path).to.equal('body.recipeName');
    const delay = validateJobStart({ recipeName: 'r', startDelay: '3 minutes' }, ['A'], new Set(['r']));
    expect(E.isLeft(delay) && delay.left.errors[0]?.path).to.equal('body.startDelay');
    const dur = validateJobStart({ recipeName: 'r', durationSeconds: -1 }, ['A'], new Set(['r']));
    expect(E.isLeft(dur) && dur.left.errors[0]?.path).to.equal('body.durationSeconds');
  });
});

describe('job list query', () => {
  const job = (id: string, name: string, created: number, activity: number, status: 'WAITING' | 'STOPPED') => ({
    ...initialJobState,
    id,
    status,
    job: request({ name }),
    creationTime: iso(created),
    lastActivityTime: iso(activity),
  });
  const jobs = [job('a', 'zeta', 0, 50, 'STOPPED'), job('b', 'alpha', 10, 20, 'WAITING'), job('c', 'mid', 20, 30, 'WAITING')];
  const ids = (q: Parameters<typeof queryJobs>[1]): string[] => queryJobs(jobs, q).map((j) => j.id);

  it('defaults: lastActivityTime desc, latest 1', () => expect(ids({})).to.deep.equal(['a']));
  it('sorts by name/creationTime asc|desc', () => {
    expect(ids({ sortBy: 'name', sortOrder: 'asc', latest: 10 })).to.deep.equal(['b', 'c', 'a']);
    expect(ids({ sortBy: 'creationTime', latest: 10 })).to.deep.equal(['c', 'b', 'a']);
  });
  it('filters by status and times', () => {
    expect(ids({ status: ['WAITING'], latest: 10 })).to.deep.equal(['c', 'b']);
    expect(ids({ startedAfter: T0 + 5000, startedBefore: T0 + 15_000, latest: 10 })).to.deep.equal(['b']);
    expect(ids({ lastActivityBefore: T0 + 40_000, lastActivityAfter: T0 + 25_000, latest: 10 })).to.deep.equal(['c']);
  });
});
