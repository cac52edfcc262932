// A reader link's outbox (src/readers/outbox.ts) against the real gateway,
// Redis and the embedded event store: what it sends again, with which
// reportId, what it drops and how, and how it holds back. The job side is the
// gateway's own contract (JobsForAgents) answering what each test needs; a
// store client that loses the answer of an append it made stands for a
// connection dropped after the store had written.
import { expect } from 'chai';
import type { EventStoreDBClient } from '@eventstore/db-client';
import { loadConfigOrThrow } from '../../src/config';
import { connectRedis, type RedisClient } from '../../src/core/redis/connect';
import { RedisKeys } from '../../src/core/redis/keys';
import { unavailable } from '../../src/core/http/errors';
import { metrics } from '../../src/core/metrics';
import { tagReportEvents, tagReportsStream } from '../../src/agents/events';
import { readStream } from '../../src/core/eventstore';
import type { Assignment, JobsForAgents } from '../../src/agents';
import type { AppDeps } from '../../src/slice';
import type { TagRead } from '../../src/readers/batch';
import { Outbox } from '../../src/readers/outbox';
import { BURST_PAUSE_MS, BURST_READS } from '../../src/readers/settings';
import { withEventStore, testLogger } from '../support/eventstore';
import { dropKeysAndQuit, recordingLogger, type LogLine } from '../queues/relay-fixture';
import { sleep, waitFor } from '../support/wait';

const JOB = 'job-outbox';
const assignment = (acknowledged: boolean): Assignment => ({ jobId: JOB, facility: 'DEFAULT', status: 'RUNNING', acknowledged, recipe: {}, readerConfiguration: {}, readerDefinition: {} });
const read = (epc: string): TagRead => ({ epc, antennaId: 1, peakRssi: -55, firstSeenUs: Date.now() * 1000, lastSeenUs: Date.now() * 1000, seenCount: 1, channelIndex: null, phaseAngle: null, tid: null });
const epcs = (tag: string, n: number): string[] => Array.from({ length: n }, (_, i) => `AF${tag}${i.toString(16).toUpperCase().padStart(18, '0')}`);

describe('readers: the outbox of a reader link', function () {
  this.timeout(60_000);
  const es = withEventStore({ maxAppendSize: 8192 });
  const keys = new RedisKeys(`tagtrail-test-${crypto.randomUUID()}:`);
  let redis: RedisClient | undefined;
  let outbox: Outbox | undefined;

  before(async () => {
    redis = await connectRedis(loadConfigOrThrow({}).redisUrl, testLogger('redis'), 5000);
  });
  afterEach(async () => {
    await outbox?.stop(0);
    outbox = undefined;
  });
  after(async () => {
    await dropKeysAndQuit(redis, keys);
  });

  interface Rig {
    readonly reader: string;
    readonly outbox: Outbox;
    readonly lines: LogLine[];
    /** Event ids of every append the outbox asked for, in order. */
    readonly appended: string[];
    /** What the job side answers next: an assignment, none (no job), or a failure. */
    answer: () => Promise<Assignment | undefined>;
    /** The store writes the next append, then its answer is lost. */
    loseNextAnswer: boolean;
  }

  const rig = (cap = 1000): Rig => {
    const reader = `rd-${crypto.randomUUID().slice(0, 8)}`;
    const lines: LogLine[] = [];
    const r: Rig = { reader, lines, appended: [], answer: async () => assignment(true), loseNextAnswer: false, outbox: undefined as unknown as Outbox };
    const real = es.client;
    const client = new Proxy(real, {
      get(target, prop) {
        if (prop !== 'appendToStream') return Reflect.get(target, prop, target) as unknown;
        return async (...args: Parameters<EventStoreDBClient['appendToStream']>) => {
          const events = Array.isArray(args[1]) ? args[1] : [args[1]];
          r.appended.push(...events.map((e) => String(e.id)));
          const result = await target.appendToStream(...args);
          if (r.loseNextAnswer) {
            r.loseNextAnswer = false;
            throw new Error('connection lost before the answer');
          }
          return result;
        };
      },
    });
    const deps = { redis, keys, client, logger: recordingLogger(lines) } as unknown as AppDeps;
    const jobs: JobsForAgents = { assignmentFor: () => r.answer(), reportTargetFor: () => r.answer(), acknowledgeAssignment: async () => undefined };
    outbox = new Outbox({ deps, jobs, logger: recordingLogger(lines), reader, now: () => new Date() }, cap);
    return Object.assign(r, { outbox });
  };
  const stored = async (reader: string): Promise<Array<{ id: string; epcs: string[] }>> =>
    (await readStream(es.client, tagReportsStream(reader), tagReportEvents)).events.map((e) => ({ id: e.id, epcs: e.data.observations.map((o) => o.epc) }));
  const sent = (r: Rig): Promise<true> => waitFor('the outbox to be empty', () => r.outbox.size === 0);
  const dropped = async (reader: string, reason: string): Promise<number> =>
    (await metrics.readerReadsDropped.get()).values.find((v) => v.labels['reader'] === reader && v.labels['reason'] === reason)?.value ?? 0;

  it('an attempt written but unanswered, then a 503: the same report sent again, stored once', async () => {
    const r = rig();
    let rebuilding = 1;
    r.loseNextAnswer = true;
    // After the lost answer, the read model rebuilds once: a 503, as the gateway answers it.
    r.answer = async () => (r.appended.length > 0 && rebuilding-- > 0 ? Promise.reject(unavailable('Read model jobs is rebuilding', 2)) : assignment(true));
    r.outbox.openJob(JOB, 60_000);
    r.outbox.add(epcs('01', 3).map(read));
    r.outbox.closeJob();
    await sent(r);
    const events = await stored(r.reader);
    expect(events.map((e) => e.epcs)).to.deep.equal([epcs('01', 3)]);
    expect(new Set(r.appended), 'every attempt with the one reportId').to.deep.equal(new Set([events[0]?.id]));
    expect(r.appended.length, 'attempts that reached the store').to.equal(2);
    expect(r.lines.filter((l) => l.msg === 'tag report not stored; sending it again')).to.have.length(1);
    expect(r.lines.some((l) => l.msg === 'tag report stored after all')).to.equal(true);
  });

  it('NOT_ACKNOWLEDGED: sent again until the reader\'s start is recorded', async () => {
    const r = rig();
    let refusals = 2;
    r.answer = async () => assignment(refusals-- <= 0);
    r.outbox.openJob(JOB, 60_000);
    r.outbox.add(epcs('02', 2).map(read));
    r.outbox.closeJob();
    await sent(r);
    expect((await stored(r.reader)).map((e) => e.epcs)).to.deep.equal([epcs('02', 2)]);
  });

  it('refused for good (the reader in no job): dropped, logged with its count and counted', async () => {
    const r = rig();
    r.answer = async () => undefined;
    r.outbox.openJob(JOB, 60_000);
    r.outbox.add(epcs('03', 4).map(read));
    r.outbox.closeJob();
    await sent(r);
    expect(await stored(r.reader)).to.deep.equal([]);
    const line = r.lines.find((l) => l.msg === 'tag reads dropped');
    expect(line?.level).to.equal('warn');
    expect(line?.fields).to.deep.include({ reader: r.reader, reason: 'NOT_ASSIGNED', jobId: JOB, observations: 4, reads: 4 });
    expect(await dropped(r.reader, 'NOT_ASSIGNED')).to.equal(4);
  });

  it('refused for good after an attempt that was written but unanswered: counted as stored, not dropped', async () => {
    const r = rig();
    r.loseNextAnswer = true;
    r.answer = async () => (r.appended.length > 0 ? undefined : assignment(true));
    r.outbox.openJob(JOB, 60_000);
    r.outbox.add(epcs('04', 2).map(read));
    r.outbox.closeJob();
    await sent(r);
    expect((await stored(r.reader)).map((e) => e.epcs)).to.deep.equal([epcs('04', 2)]);
    expect(r.lines.some((l) => l.msg === 'tag reads dropped')).to.equal(false);
    expect(await dropped(r.reader, 'NOT_ASSIGNED')).to.equal(0);
  });

  it('past its cap it has no room until what it holds is stored; reads that came meanwhile fold into the next report', async () => {
    const r = rig(8);
    let away = true;
    r.answer = async () => (away ? Promise.reject(new Error('Redis is not reachable')) : assignment(true));
    r.outbox.openJob(JOB, 60_000);
    r.outbox.add(epcs('05', 6).map(read));
    r.outbox.closeJob();
    expect(r.outbox.hasRoom).to.equal(true);
    r.outbox.openJob(JOB, 60_000);
    // The same tags read again and again while the first report waits: what is held does not grow.
    for (let i = 0; i < 3; i++) r.outbox.add(epcs('05', 6).map(read));
    expect(r.outbox.size).to.equal(12);
    expect(r.outbox.hasRoom).to.equal(false);
    let roomy = false;
    const room = r.outbox.room().then(() => (roomy = true));
    await sleep(1000);
    expect(roomy, 'room while nothing could be stored').to.equal(false);
    away = false;
    await room;
    r.outbox.closeJob();
    await sent(r);
    const events = await readStream(es.client, tagReportsStream(r.reader), tagReportEvents);
    expect(events.events.map((e) => e.data.observations.map((o) => [o.epc, o.readCount]))).to.deep.equal([epcs('05', 6).map((e) => [e, 1]), epcs('05', 6).map((e) => [e, 3])]);
  });

  it('a burst of BURST_READS reads that pauses is stored without waiting for the interval; a trickle waits for it', async () => {
    const r = rig();
    r.outbox.openJob(JOB, 60_000);
    r.outbox.add(epcs('0A', 2).map(read));
    await sleep(BURST_PAUSE_MS * 6);
    expect(await stored(r.reader), 'a trickle sealed before its interval').to.deep.equal([]);
    // The same five tags read again and again: a burst counts reads, not the observations they fold into.
    for (let i = 0; i < BURST_READS / 100; i++) r.outbox.add(Array.from({ length: 100 }, (_, k) => read(epcs('0B', 5)[k % 5] as string)));
    const events = await waitFor('the burst stored', async () => {
      const e = await readStream(es.client, tagReportsStream(r.reader), tagReportEvents);
      return e.events.length > 0 ? e.events : undefined;
    });
    expect(events.map((e) => e.data.observations.map((o) => [o.epc, o.readCount]))).to.deep.equal([[...epcs('0A', 2).map((e) => [e, 1]), ...epcs('0B', 5).map((e) => [e, BURST_READS / 5])]]);
    // Fewer reads than a burst afterwards: held for the interval again.
    r.outbox.add(epcs('0C', 3).map(read));
    await sleep(BURST_PAUSE_MS * 6);
    expect(await stored(r.reader)).to.have.length(1);
    r.outbox.closeJob();
    await sent(r);
    expect((await stored(r.reader)).map((e) => e.epcs)).to.deep.equal([[...epcs('0A', 2), ...epcs('0B', 5)], epcs('0C', 3)]);
  });

  it('a report larger than one append: sent in halves, every read stored once', async () => {
    const r = rig();
    const many = epcs('06', 400);
    r.outbox.openJob(JOB, 60_000);
    r.outbox.add(many.map(read));
    r.outbox.closeJob();
    await sent(r);
    const events = await stored(r.reader);
    expect(events.length).to.be.greaterThan(1);
    expect(events.flatMap((e) => e.epcs).sort()).to.deep.equal([...many].sort());
  });

  it('a delivery stored with its own reportId: resolves once stored; the same delivery again is stored once', async () => {
    const r = rig();
    const reportId = crypto.randomUUID();
    await r.outbox.store(epcs('07', 2).map(read), JOB, reportId);
    await redis?.del(`${keys.base}v1:agents:recentReports:${r.reader}`);
    await r.outbox.store(epcs('07', 2).map(read), JOB, reportId);
    expect(await stored(r.reader)).to.deep.equal([{ id: reportId, epcs: epcs('07', 2) }]);
  });

  it('reads that came before the job was known become the job\'s; reads of a reader in no job are dropped', async () => {
    const r = rig();
    r.outbox.add(epcs('08', 2).map(read));
    r.outbox.openJob(JOB, 60_000);
    r.outbox.closeJob();
    await sent(r);
    expect((await stored(r.reader)).map((e) => e.epcs)).to.deep.equal([epcs('08', 2)]);
    r.outbox.add(epcs('09', 3).map(read));
    r.outbox.noJob();
    expect(r.outbox.size).to.equal(0);
    expect(await dropped(r.reader, 'NOT_ASSIGNED')).to.equal(3);
  });

  it('stopped while it cannot store: what is left is dropped (SHUTDOWN), a delivery waiting is not acknowledged', async () => {
    const r = rig();
    r.answer = async () => Promise.reject(new Error('the event store is not reachable'));
    const delivery = r.outbox.store(epcs('10', 1).map(read), JOB, crypto.randomUUID());
    r.outbox.openJob(JOB, 60_000);
    r.outbox.add(epcs('11', 2).map(read));
    await r.outbox.stop(200);
    outbox = undefined;
    const outcome = await delivery.then(() => 'acknowledged', (err: Error) => err.message);
    expect(outcome).to.match(/stopped before these reads were stored/);
    expect(await dropped(r.reader, 'SHUTDOWN')).to.equal(2);
  });
});
