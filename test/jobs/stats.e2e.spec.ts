// GET /control/v1/jobs/stats/{jobId} over the jobs projection: TagsReported
// events (as the agent gateway appends them to `tagReports-<reader>`) count
// reports and observations exactly and distinct EPCs approximately (a Redis
// HyperLogLog, standard error 0.81%); reports of another job count there;
// the last report's `to` is the job's lastHeartbeatTime. Roles: JobRunner.
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { EventStoreDBClient } from '@eventstore/db-client';
import { encodeEvent } from '../../src/core/events';
import { tagReportEvents, tagReportsStream, type Observation } from '../../src/agents/events';
import { startTestApp, type TestApp } from '../support/app';
import { createUser, expectStatus, RC, RECIPES, seedReaderDefinition } from '../readerconfigurations/e2e-support';
import { inventoryBody } from '../readerconfigurations/fixtures';
import { waitForValue } from '../support/wait';

const JOBS = '/control/v1/jobs';
const T0 = Date.parse('2026-04-01T10:00:00.000Z');
const iso = (s: number): string => new Date(T0 + s * 1000).toISOString();
const epc = (n: number): string => `E2801160600002${n.toString(16).padStart(10, '0')}`;

const observation = (epcHex: string): Observation => ({
  epc: epcHex,
  tid: null,
  antennaId: 1,
  peakRssi: -55,
  readCount: 3,
  firstSeen: iso(0),
  lastSeen: iso(1),
  x: null,
  y: null,
});

describe('job stats over HTTP', function () {
  this.timeout(60_000);
  let app: TestApp;
  let client: EventStoreDBClient;

  before(async () => {
    app = await startTestApp();
    expectStatus(await app.request('POST', `${RC}/create`, { body: inventoryBody({}, 'inv') }), 200);
    await seedReaderDefinition(app, 's1');
    await seedReaderDefinition(app, 's2');
    expectStatus(await app.request('POST', `${RECIPES}/create`, { body: { name: 'rec', type: 'INVENTORY', readerConfigurationName: 'inv' } }), 200);
    client = EventStoreDBClient.connectionString(app.eventStoreConnectionString);
  });
  after(async () => {
    await client?.dispose();
    await app?.stop();
  });

  /** Appends one report the way the gateway does (event id = reportId). */
  const report = async (reader: string, jobId: string, to: number, epcs: string[]): Promise<void> => {
    const event = encodeEvent(
      tagReportEvents,
      { type: 'TagsReported', data: { reader, jobId, facility: 'DEFAULT', from: iso(to - 5), to: iso(to), observations: epcs.map(observation) } },
      { user: `reader:${reader}` },
      randomUUID(),
    );
    await client.appendToStream(tagReportsStream(reader), [event]);
  };
  const stats = async (id: string, auth?: string) => app.request('GET', `${JOBS}/stats/${id}`, auth === undefined ? {} : { auth });
  const until = async (id: string, reports: number) => {
    const read = async () => {
      const res = await stats(id);
      expectStatus(res, 200);
      return res.body as { jobId: string; reports: number; observations: number; itemsSeen: number; lastReportTime: string | null };
    };
    return waitForValue(`stats of ${id} to count ${reports} reports`, read, (body) => body.reports === reports, { timeoutMs: 10_000, intervalMs: 100 });
  };

  it('counts reports and observations exactly, distinct EPCs approximately, per job', async () => {
    const job = await app.request('POST', `${JOBS}/start`, { body: { name: 'counted', recipeName: 'rec' } }); // WAITING for PT3M
    expectStatus(job, 200);
    const id = job.body.id as string;
    expect(await until(id, 0)).to.deep.equal({ jobId: id, reports: 0, observations: 0, itemsSeen: 0, lastReportTime: null });

    // 2000 distinct EPCs over 10 reports of two readers; every EPC is seen
    // twice (once by each reader), half of the second sighting in lower case.
    const N = 2000;
    const all = Array.from({ length: N }, (_, i) => epc(i));
    for (let k = 0; k < 5; k++) {
      const part = all.slice(k * 400, (k + 1) * 400);
      await report('s1', id, 10 + k * 5, part);
      await report('s2', id, 12 + k * 5, part.map((e, i) => (i % 2 === 0 ? e.toLowerCase() : e)));
    }
    await report('s1', id, 40, []); // an empty interval is a report too
    await report('s2', 'another-job', 41, [epc(N + 1), epc(N + 2)]); // not this job's

    const s = await until(id, 11);
    expect(s.observations).to.equal(2 * N);
    expect(s.itemsSeen).to.be.within(N * 0.97, N * 1.03);
    expect(s.lastReportTime).to.equal(iso(40));
    expect((await app.request('GET', `${JOBS}/show/${id}`)).body.lastHeartbeatTime).to.equal(iso(40));

    const small = await app.request('POST', `${JOBS}/start`, { body: { name: 'small', recipeName: 'rec', readerGroups: ['none'] } });
    expectStatus(small, 200);
    const sid = small.body.id as string;
    await report('s1', sid, 50, [epc(1), epc(2), epc(2), epc(3)]);
    expect(await until(sid, 1)).to.deep.include({ observations: 4, itemsSeen: 3, lastReportTime: iso(50) });
    expect((await until(id, 11)).observations).to.equal(2 * N); // unchanged

    const runner = await createUser(app, 'stats-runner', ['JobRunner']);
    const reader = await createUser(app, 'stats-reader', ['DataReader']);
    expectStatus(await stats(id, runner), 200);
    expectStatus(await stats(id, reader), 403);
    expectStatus(await stats(randomUUID()), 404);
  });
});
