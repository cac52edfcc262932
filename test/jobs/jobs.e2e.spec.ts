// Jobs through HTTP against the whole service in-process (api, projections
// and jobs roles): start with defaults, reader conflicts (JobId=), stop
// reasons, the time-driven transitions with short delays, acknowledgement
// through jobsForAgents, list filters, stats and the recipe deletion guard.
import { expect } from 'chai';
import { EventStoreDBClient } from '@eventstore/db-client';
import { createClient } from 'redis';
import { startTestApp, type TestApp } from '../support/app';
import { expectStatus, RC, RECIPES, seedReaderDefinition } from '../readerconfigurations/e2e-support';
import { inventoryBody } from '../readerconfigurations/fixtures';
import { jobsForAgents } from '../../src/jobs/agents';
import { RedisKeys } from '../../src/core/redis/keys';
import { ConfigReadModel } from '../../src/core/resource/readmodel';
import { createLogger } from '../../src/core/logger';
import type { AppDeps } from '../../src/slice';
import { waitForValue } from '../support/wait';

const JOBS = '/control/v1/jobs';

describe('jobs over HTTP', function () {
  this.timeout(60_000);
  let app: TestApp;
  let deps: AppDeps;
  let client: EventStoreDBClient;
  let redis: ReturnType<typeof createClient>;
  before(async () => {
    app = await startTestApp({ JOB_ACK_TIMEOUT_SECONDS: '2', JOB_STOP_TIMEOUT_SECONDS: '1' });
    expectStatus(await app.request('POST', `${RC}/create`, { body: inventoryBody({}, 'inv') }), 200);
    expectStatus(await app.request('POST', `${RC}/create`, { body: { name: 'off', operation: 'DO_NOTHING' } }), 200);
    await seedReaderDefinition(app, 'r1');
    await seedReaderDefinition(app, 'r2');
    expectStatus(await app.request('POST', `${RECIPES}/create`, { body: { name: 'rec', type: 'INVENTORY', readerConfigurationName: 'inv' } }), 200);
    expectStatus(await app.request('POST', `${RECIPES}/create`, { body: { name: 'idle', type: 'INVENTORY', readerConfigurationName: 'off' } }), 200);
    client = EventStoreDBClient.connectionString(app.eventStoreConnectionString);
    redis = createClient({ url: process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379' });
    await redis.connect();
    const keys = new RedisKeys(app.keyPrefix);
    const logger = createLogger('jobs-e2e');
    deps = { client, redis, keys, logger, readModel: new ConfigReadModel(redis, keys) } as unknown as AppDeps;
  });
  after(async () => {
    await redis?.quit();
    await client?.dispose();
    await app?.stop();
  });

  const start = async (body: Record<string, unknown>) => {
    const res = await app.request('POST', `${JOBS}/start`, { body });
    expectStatus(res, 200);
    return res.body as { id: string; status: string };
  };
  const show = async (id: string) => (await app.request('GET', `${JOBS}/show/${id}`)).body;
  const until = (id: string, status: string, ms = 10_000) =>
    waitForValue(`job ${id} to be ${status}`, () => show(id), (job) => job.status === status, { timeoutMs: ms, intervalMs: 100 });
  const stop = async (id: string, graceful: boolean) =>
    expectStatus(await app.request('POST', `${JOBS}/stop/${id}?graceful=${graceful}`), 204);

  it('start: WAITING with the defaults stored, the only facility, prospective readers; show and stats', async () => {
    const job = await start({ name: 'first', recipeName: 'rec' });
    expect(job).to.deep.include({ status: 'WAITING', readerNames: ['r1', 'r2'], failedReaderNames: [], stopReason: null, startAttempts: 0 });
    expect(job).to.have.property('facilities').that.deep.equals([{ name: 'DEFAULT' }]);
    expect((job as unknown as { job: unknown }).job).to.deep.include({ startDelay: 'PT3M', facility: 'DEFAULT', durationSeconds: null, useOtherJobData: true, reportToDatabaseEnabled: true });
    expect(await show(job.id)).to.deep.include({ id: job.id, status: 'WAITING' });
    const stats = await app.request('GET', `${JOBS}/stats/${job.id}`);
    expect(stats.body).to.deep.include({ jobId: job.id, reports: 0, observations: 0, itemsSeen: 0 });
    expectStatus(await app.request('GET', `${JOBS}/stats/nope`), 404);
    expectStatus(await app.request('GET', `${JOBS}/show/nope`), 404);

    const conflict = await app.request('POST', `${JOBS}/start`, { body: { recipeName: 'rec' } });
    expectStatus(conflict, 409);
    expect(conflict.body.message).to.contain(`JobId=${job.id}`);

    const del = await app.request('DELETE', `${RECIPES}/destroy/rec`);
    expectStatus(del, 409);
    expect(del.body.message).to.contain(`JobId=${job.id}`);

    await stop(job.id, false);
    expect(await show(job.id)).to.deep.include({ status: 'STOPPED', stopReason: 'USER_REQUESTED_ABRUPT' });
    const again = await start({ name: 'second', recipeName: 'rec' });
    await stop(again.id, true);
    expect(await show(again.id)).to.deep.include({ status: 'STOPPED', stopReason: 'USER_REQUESTED_GRACEFUL' });
    expectStatus(await app.request('POST', `${JOBS}/stop/nope`), 404);
  });

  it('no readers (DO_NOTHING configuration) -> STOPPED JOB_FAILED after the start delay', async () => {
    const job = await start({ name: 'idle', recipeName: 'idle', startDelay: 'PT0S' });
    expect(job.status).to.equal('WAITING');
    const done = await until(job.id, 'STOPPED');
    expect(done).to.deep.include({ stopReason: 'JOB_FAILED', errorOccurred: true, startAttempts: 1 });
    expect(done.errors[0]).to.have.keys(['time', 'message']);
  });

  it('nobody acknowledging -> failedReaderNames and JOB_FAILED after the ack time-out', async () => {
    const job = await start({ recipeName: 'rec', startDelay: 'PT0S' });
    await until(job.id, 'STARTING');
    const done = await until(job.id, 'STOPPED');
    expect(done).to.deep.include({ stopReason: 'JOB_FAILED', failedReaderNames: ['r1', 'r2'] });
  });

  it('assignment + acknowledge via jobsForAgents -> RUNNING; durationSeconds -> JOB_COMPLETED', async () => {
    const job = await start({ name: 'timed', recipeName: 'rec', startDelay: 'PT0S', durationSeconds: 2 });
    await until(job.id, 'STARTING');
    const a = await jobsForAgents.assignmentFor(deps, 'r1');
    expect(a).to.deep.include({ jobId: job.id, facility: 'DEFAULT', status: 'STARTING', acknowledged: false });
    expect(a?.recipe).to.include({ name: 'rec' });
    expect(a?.readerConfiguration).to.include({ name: 'inv' });
    expect(a?.readerDefinition).to.include({ name: 'r1' });
    await jobsForAgents.acknowledgeAssignment(deps, job.id, 'r1', new Date());
    await jobsForAgents.acknowledgeAssignment(deps, job.id, 'r1', new Date()); // idempotent
    expect((await jobsForAgents.assignmentFor(deps, 'r1'))?.acknowledged).to.equal(true);
    await jobsForAgents.acknowledgeAssignment(deps, job.id, 'r2', new Date());
    await until(job.id, 'RUNNING');
    const done = await until(job.id, 'STOPPED');
    expect(done.stopReason).to.equal('JOB_COMPLETED');
    expect(done.activeDuration).to.be.at.least(1);
    expect(await jobsForAgents.assignmentFor(deps, 'r1')).to.equal(undefined);
  });

  it('graceful stop of a RUNNING job: STOPPING, then STOPPED USER_REQUESTED_GRACEFUL', async () => {
    const job = await start({ name: 'graceful', recipeName: 'rec', startDelay: 'PT0S' });
    await until(job.id, 'STARTING');
    await jobsForAgents.acknowledgeAssignment(deps, job.id, 'r1', new Date());
    await until(job.id, 'RUNNING', 5000); // r2 fails at the ack time-out, r1 runs
    expect((await show(job.id)).failedReaderNames).to.deep.equal(['r2']);
    await stop(job.id, true);
    expect((await show(job.id)).status).to.equal('STOPPING');
    expect(await until(job.id, 'STOPPED')).to.deep.include({ stopReason: 'USER_REQUESTED_GRACEFUL' });
  });

  it('list: latest defaults to 1, sortBy/sortOrder, status filter, time filters, bad query 400', async () => {
    const all = (await app.request('GET', `${JOBS}/show?latest=100&sortBy=creationTime&sortOrder=asc`)).body as Array<{ id: string; creationTime: string; job: { name: string | null } }>;
    expect(all.length).to.equal(6);
    expect(all.map((j) => j.creationTime)).to.deep.equal([...all.map((j) => j.creationTime)].sort());
    const latest = (await app.request('GET', `${JOBS}/show`)).body as unknown[];
    expect(latest).to.have.length(1);
    const byName = (await app.request('GET', `${JOBS}/show?latest=100&sortBy=name&sortOrder=asc&status=STOPPED`)).body as typeof all;
    expect(byName.map((j) => j.job.name)).to.deep.equal([null, 'first', 'graceful', 'idle', 'second', 'timed']);
    const none = (await app.request('GET', `${JOBS}/show?latest=100&status=RUNNING&status=WAITING`)).body as unknown[];
    expect(none).to.deep.equal([]);
    const mid = all[2]!.creationTime;
    const after = (await app.request('GET', `${JOBS}/show?latest=100&startedAfter=${mid}`)).body as unknown[];
    expect(after).to.have.length(3);
    const before = (await app.request('GET', `${JOBS}/show?latest=100&lastActivityBefore=2000-01-01T00:00:00Z`)).body as unknown[];
    expect(before).to.deep.equal([]);
    expectStatus(await app.request('GET', `${JOBS}/show?sortBy=size`), 400);
    expectStatus(await app.request('GET', `${JOBS}/show?latest=0`), 400);
  });
});
