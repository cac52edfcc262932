// Timers survive a restart of the job runner: against the real (embedded)
// event store, a job whose timer is due later is left behind by a runner that
// stops before the timer fires; a NEW runner instance replays the job events,
// reschedules the timer for the time that is left and makes the transition
// exactly once. Time is a fake clock shared by the runners (the runner takes
// its clock and timers injected), so nothing waits for minutes.
import { expect } from 'chai';
import * as E from 'fp-ts/Either';
import { readStream } from '../../src/core/eventstore';
import { runCommand } from '../../src/core/command';
import { onJob } from '../../src/jobs/commands';
import type { JobCommand } from '../../src/jobs/decide';
import { jobEvents, jobStream } from '../../src/jobs/events';
import type { StoredJobRequest } from '../../src/jobs/model';
import { startJobRunner, type JobRunner, type ResolveReaders } from '../../src/jobs/runner';
import { ManualClock } from '../support/clock';
import { startTestEventStore, testLogger, uniqueToken, type TestEventStore } from '../support/eventstore';
import { sleep } from '../support/wait';

const T0 = Date.parse('2026-03-01T08:00:00.000Z');
const ACK_TIMEOUT_MS = 60_000;

const request = (over: Partial<StoredJobRequest>): StoredJobRequest => ({
  name: 'restart',
  recipeName: 'rec',
  facility: 'DEFAULT',
  durationSeconds: null,
  startDelay: 'PT0S',
  readerGroups: null,
  reportToDatabaseEnabled: true,
  reportToHistoryEnabled: true,
  reportToMessageQueueEnabled: true,
  useOtherJobData: true,
  reportToFileEnabled: false,
  ...over,
});

describe('job runner restart (embedded event store, fake clock)', function () {
  this.timeout(60_000);
  let store: TestEventStore;
  let clock: ManualClock;
  const runners: JobRunner[] = [];
  const resolved: string[] = [];
  const resolveReaders: ResolveReaders = async (job) => {
    resolved.push(job.id);
    return { readerNames: ['r1'], notes: [] };
  };

  beforeEach(async () => {
    store = await startTestEventStore();
    clock = new ManualClock(T0);
    resolved.length = 0;
  });
  afterEach(async () => {
    for (const r of runners.splice(0)) await r.stop();
    await store.close();
  });

  const startRunner = async (): Promise<JobRunner> => {
    const runner = startJobRunner({
      client: store.client,
      logger: testLogger('job-runner'),
      settings: { ackTimeoutMs: ACK_TIMEOUT_MS, stopTimeoutMs: 10_000 },
      clock,
      resolveReaders,
      retryMs: 100,
    });
    runners.push(runner);
    await runner.caughtUp;
    return runner;
  };
  const stopRunner = async (runner: JobRunner): Promise<void> => {
    runners.splice(runners.indexOf(runner), 1);
    await runner.stop();
  };
  const command = async (id: string, cmd: JobCommand): Promise<void> => {
    const r = await runCommand(store.client, onJob(id), cmd, { now: clock.now(), metadata: { user: 'test' } });
    if (E.isLeft(r)) throw new Error(r.left.message);
  };
  const types = async (id: string): Promise<string[]> => (await readStream(store.client, jobStream(id), jobEvents)).events.map((e) => e.type);
  /** Fires due timers and lets the runner's commands and subscription run, until `done` holds. */
  const settle = async (id: string, done: (t: string[]) => boolean, ms = 10_000): Promise<string[]> => {
    const deadline = Date.now() + ms;
    for (;;) {
      clock.advance(0);
      const seen = await types(id);
      if (done(seen)) return seen;
      if (Date.now() > deadline) throw new Error(`job ${id}: events ${seen.join(', ')}`);
      await sleep(20);
    }
  };
  /** Gives a runner real time to (wrongly) act, then the events of the job. */
  const quietly = async (id: string): Promise<string[]> => {
    clock.advance(0);
    await sleep(300);
    clock.advance(0);
    return types(id);
  };
  const count = (list: string[], type: string): number => list.filter((t) => t === type).length;

  it('WAITING: the start delay left when the runner stopped is kept by the new runner; JobInitializing once', async () => {
    const id = `job${uniqueToken()}`;
    await command(id, { type: 'Start', id, request: request({ startDelay: 'PT2M' }), readerNames: ['r1'], conflicts: [] });

    const first = await startRunner();
    expect(first.jobs().get(id)?.status).to.equal('WAITING');
    expect(clock.pending()).to.equal(1);
    clock.advance(60_000); // half the delay
    expect(await quietly(id)).to.deep.equal(['JobStarted']);
    await stopRunner(first);
    expect(clock.pending()).to.equal(0); // its timer is gone with it

    clock.advance(30_000); // down: 90 s of 120 s have passed
    const second = await startRunner();
    expect(second.jobs().get(id)?.status).to.equal('WAITING');
    expect(await quietly(id)).to.deep.equal(['JobStarted']); // 30 s still to go

    clock.advance(30_000);
    const seen = await settle(id, (t) => t.includes('JobInitialized'));
    expect(seen).to.deep.equal(['JobStarted', 'JobInitializing', 'JobInitialized']);
    expect(resolved).to.deep.equal([id]);
    const after = (await readStream(store.client, jobStream(id), jobEvents)).events;
    expect(after[1]?.data.time).to.equal(new Date(T0 + 120_000).toISOString());
    // Nothing more until the acknowledgement time-out.
    expect(await quietly(id)).to.deep.equal(seen);
  });

  it('WAITING overdue while no runner ran: the new runner moves it at once', async () => {
    const id = `job${uniqueToken()}`;
    await command(id, { type: 'Start', id, request: request({ startDelay: 'PT10S' }), readerNames: ['r1'], conflicts: [] });
    const first = await startRunner();
    await stopRunner(first);
    clock.advance(3_600_000); // an hour down
    await startRunner();
    const seen = await settle(id, (t) => t.includes('JobInitialized'));
    expect(seen).to.deep.equal(['JobStarted', 'JobInitializing', 'JobInitialized']);
  });

  it('RUNNING with durationSeconds: the new runner ends it JOB_COMPLETED when the duration is over, exactly once', async () => {
    const id = `job${uniqueToken()}`;
    await command(id, { type: 'Start', id, request: request({ durationSeconds: 120 }), readerNames: ['r1'], conflicts: [] });
    await command(id, { type: 'Tick' });
    await command(id, { type: 'Initialize', readerNames: ['r1'], notes: [], ackTimeoutMs: ACK_TIMEOUT_MS });
    await command(id, { type: 'Acknowledge', readerName: 'r1' });
    await command(id, { type: 'Tick' });
    expect(await types(id)).to.deep.equal(['JobStarted', 'JobInitializing', 'JobInitialized', 'JobReaderAcknowledged', 'JobRunning']);

    const first = await startRunner();
    expect(first.jobs().get(id)?.status).to.equal('RUNNING');
    clock.advance(100_000);
    await stopRunner(first);
    clock.advance(10_000); // 110 s of 120 s
    const second = await startRunner();
    expect(await quietly(id)).to.have.length(5);

    clock.advance(10_000);
    const seen = await settle(id, (t) => t.includes('JobStopped'));
    expect(count(seen, 'JobStopped')).to.equal(1);
    const events = (await readStream(store.client, jobStream(id), jobEvents)).events;
    const last = events[events.length - 1];
    expect(last?.type).to.equal('JobStopped');
    expect(last?.data).to.deep.include({ stopReason: 'JOB_COMPLETED', time: new Date(T0 + 120_000).toISOString() });
    await settle(id, () => second.jobs().get(id) === undefined); // the runner forgets stopped jobs
    expect(await quietly(id)).to.deep.equal(seen);
  });

  it('two runners by mistake (old one not yet gone): each transition is still appended once', async () => {
    const id = `job${uniqueToken()}`;
    await command(id, { type: 'Start', id, request: request({ startDelay: 'PT30S', durationSeconds: 60 }), readerNames: ['r1'], conflicts: [] });
    await startRunner();
    await startRunner();
    clock.advance(30_000);
    const starting = await settle(id, (t) => t.includes('JobInitialized'));
    expect(starting).to.deep.equal(['JobStarted', 'JobInitializing', 'JobInitialized']);
    await command(id, { type: 'Acknowledge', readerName: 'r1' });
    const running = await settle(id, (t) => t.includes('JobRunning'));
    expect(count(running, 'JobRunning')).to.equal(1);
    clock.advance(60_000);
    const seen = await settle(id, (t) => t.includes('JobStopped'));
    expect(await quietly(id)).to.deep.equal(seen);
    expect(seen).to.deep.equal(['JobStarted', 'JobInitializing', 'JobInitialized', 'JobReaderAcknowledged', 'JobRunning', 'JobStopped']);
  });
});
