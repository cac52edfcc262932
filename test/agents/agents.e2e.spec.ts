// The agent gateway end to end: secrets and the agent guard, check-in,
// health events, feature changes, refused and malformed reports over HTTP;
// report storage (one event per reportId) through the gateway with a small
// in-test JobsForAgents.
import { expect } from 'chai';
import { createClient } from 'redis';
import { agentKeys, readerAgentEvents, readerAgentStream, readerHealthEvents, readerHealthStream, tagReportEvents, tagReportsStream } from '../../src/agents/events';
import { acceptReport } from '../../src/agents/gateway';
import { agentAuthorization } from '../../src/agents/guard';
import { loadConfigOrThrow } from '../../src/config';
import { readStream } from '../../src/core/eventstore';
import { ApiError } from '../../src/core/http/errors';
import { RedisKeys } from '../../src/core/redis/keys';
import type { AppDeps } from '../../src/slice';
import type { Assignment, JobsForAgents } from '../../src/agents/assignment';
import { startTestApp, type TestApp } from '../support/app';
import { agentSide, errorPaths, READERS, userWithRole, type AgentSide } from '../readerdefinitions/e2e-support';
import { expectStatus, RC, RECIPES, seedReaderDefinition } from '../readerconfigurations/e2e-support';
import { inventoryBody } from '../readerconfigurations/fixtures';
import { sleep, waitFor } from '../support/wait';

const A = '/agent/v1/readers';
const R1 = 'dock door 1'; // needs escaping in paths (a space; a slash is refused in names)
const R2 = 'dock-2';
const p = (reader: string): string => `${A}/${encodeURIComponent(reader)}`;
const checkinBody = { agentId: 'sim-1', versions: { App: '1.0.0', Firmware: '7.6.1' }, state: 'IDLE' };

const observation = {
  epc: 'E28011606000020ABC', tid: null, antennaId: 3, peakRssi: -52.5, readCount: 4,
  firstSeen: '2026-11-23T10:00:01.000Z', lastSeen: '2026-11-23T10:00:04.000Z', x: null, y: null,
};
const report = (over: Record<string, unknown> = {}) => ({
  reportId: crypto.randomUUID(), jobId: 'job-1', from: '2026-11-23T10:00:00.000Z', to: '2026-11-23T10:00:05.000Z', observations: [observation], ...over,
});

describe('agent gateway over HTTP', function () {
  this.timeout(60_000);
  let app: TestApp;
  let side: AgentSide;
  let redis: ReturnType<typeof createClient>;
  let keys: RedisKeys;
  const secrets: Record<string, string> = {};
  const as = (reader: string, secret = secrets[reader] ?? '') => agentAuthorization(reader, secret);

  before(async () => {
    app = await startTestApp();
    side = await agentSide(app);
    redis = createClient({ url: loadConfigOrThrow({}).redisUrl });
    await redis.connect();
    keys = new RedisKeys(app.keyPrefix);
    for (const name of [R1, R2]) expect((await app.request('POST', `${READERS}/create`, { body: { name } })).status).to.equal(200);
    for (const name of [R1, R2]) {
      const res = await app.request('PUT', `${p(name)}/secret`);
      expect(res.status).to.equal(200);
      expect(res.body.readerName).to.equal(name);
      expect(res.body.secret).to.match(/^[A-Za-z0-9_-]{43}$/);
      secrets[name] = res.body.secret;
    }
  });
  after(async () => {
    await redis?.quit();
    await side?.close();
    await app?.stop();
  });

  const events = async <C extends Parameters<typeof readStream>[2]>(stream: string, codecs: C) => (await readStream(side.deps.client, stream, codecs)).events;

  describe('secrets and the agent guard', () => {
    it('issuing: 404 for an unknown reader, ConfigManager may, DataReader may not; only the digest is stored', async () => {
      expect((await app.request('PUT', `${p('ghost')}/secret`)).status).to.equal(404);
      const reader = await userWithRole(app, 'dr', 'DataReader');
      expect((await app.request('PUT', `${p(R2)}/secret`, { auth: reader })).status).to.equal(403);
      const stored = await events(readerAgentStream(R1), readerAgentEvents);
      const issued = stored.filter((e) => e.type === 'AgentSecretIssued');
      expect(issued).to.have.length(1);
      expect(JSON.stringify(issued[0]?.data)).not.to.contain(secrets[R1]);
    });

    it('401 without credentials, with user credentials or a bad secret; 403 for another reader', async () => {
      const url = `${p(R1)}/checkin`;
      expect((await app.request('POST', url, { body: checkinBody, auth: null })).status).to.equal(401);
      expect((await app.request('POST', url, { body: checkinBody })).status, 'admin Basic').to.equal(401);
      const bad = await app.request('POST', url, { body: checkinBody, auth: as(R1, 'wrong') });
      expect(bad.status).to.equal(401);
      expect(bad.headers.get('www-authenticate')).to.contain('Agent');
      expect((await app.request('POST', url, { body: checkinBody, auth: as(R2) })).status).to.equal(403);
    });

    it('issuing again replaces the secret', async () => {
      const cm = await userWithRole(app, 'cm', 'ConfigManager');
      const res = await app.request('PUT', `${p(R2)}/secret`, { auth: cm });
      expect(res.status).to.equal(200);
      expect((await app.request('POST', `${p(R2)}/checkin`, { body: checkinBody, auth: as(R2) })).status, 'old secret').to.equal(401);
      secrets[R2] = res.body.secret;
      expect((await app.request('POST', `${p(R2)}/checkin`, { body: checkinBody, auth: as(R2) })).status, 'new secret').to.equal(200);
    });
  });

  describe('check-in', () => {
    it('answers the interval, no assignment, no changes; lastCheckin every time, AgentCheckedIn only on change', async () => {
      const checkedIn = async () => (await events(readerAgentStream(R1), readerAgentEvents)).filter((e) => e.type === 'AgentCheckedIn');
      const first = await app.request('POST', `${p(R1)}/checkin`, { body: checkinBody, auth: as(R1) });
      expect(first.status).to.equal(200);
      expect(first.body).to.deep.equal({ checkinIntervalSeconds: 10, assignment: null, featureChanges: [], commands: [] });
      const t1 = await redis.hGet(agentKeys(keys).lastCheckin, R1);
      expect(t1).to.match(/^\d{4}-\d{2}-\d{2}T/);
      await sleep(5);
      expect((await app.request('POST', `${p(R1)}/checkin`, { body: checkinBody, auth: as(R1) })).status).to.equal(200);
      const t2 = await redis.hGet(agentKeys(keys).lastCheckin, R1);
      expect(t2 && t1 && t2 > t1, 'lastCheckin moved').to.equal(true);
      expect(await checkedIn()).to.have.length(1);
      expect((await app.request('POST', `${p(R1)}/checkin`, { body: { ...checkinBody, state: 'ERROR' }, auth: as(R1) })).status).to.equal(200);
      const after = await checkedIn();
      expect(after).to.have.length(2);
      expect(after[1]?.data).to.include({ reader: R1, agentId: 'sim-1', state: 'ERROR' });
      expect(after[1]?.data.versions).to.deep.equal(checkinBody.versions);
    });

    it('400 naming the field for a bad body', async () => {
      const res = await app.request('POST', `${p(R1)}/checkin`, { body: { ...checkinBody, state: 'NAPPING' }, auth: as(R1) });
      expect(res.status).to.equal(400);
      expect(errorPaths(res.body)).to.deep.equal(['body.state']);
    });

    it('optional and extra fields are decoded, not stored unchecked: a wrong type is a 400 naming it; unknown features are dropped', async () => {
      const checkedIn = async () => (await events(readerAgentStream(R2), readerAgentEvents)).filter((e) => e.type === 'AgentCheckedIn');
      const before = (await checkedIn()).length;
      for (const [body, path] of [
        [{ ...checkinBody, temperatureCelsius: 'hot' }, 'body.temperatureCelsius'],
        [{ ...checkinBody, features: { ANTENNA_HUB: true } }, 'body.features.ANTENNA_HUB'],
        [{ ...checkinBody, features: 'all' }, 'body.features'],
        [{ ...checkinBody, versions: { ...checkinBody.versions, Radio: 3 } }, 'body.versions.Radio'],
      ] as const) {
        const res = await app.request('POST', `${p(R2)}/checkin`, { body, auth: as(R2) });
        expect(res.status, JSON.stringify(body)).to.equal(400);
        expect(errorPaths(res.body), JSON.stringify(body)).to.deep.equal([path]);
      }
      expect(await checkedIn()).to.have.length(before);
      const extra = { ...checkinBody, agentId: 'sim-extra', versions: { ...checkinBody.versions, Radio: '2.1' }, features: { ANTENNA_HUB: 'DISABLED', TURBO: { on: 1 } } };
      expect((await app.request('POST', `${p(R2)}/checkin`, { body: extra, auth: as(R2) })).status).to.equal(200);
      const stored = (await checkedIn()).at(-1)?.data;
      expect(stored?.versions).to.deep.equal({ App: '1.0.0', Firmware: '7.6.1', Radio: '2.1' });
      expect(stored?.features).to.deep.equal({ ANTENNA_HUB: 'DISABLED' });
    });
  });

  describe('health events', () => {
    it('stores each event as HealthEventReported on readerHealth-<reader>', async () => {
      const res = await app.request('POST', `${p(R1)}/health`, {
        auth: as(R1),
        body: { events: [
          { eventTime: '2026-11-23T10:00:00.000Z', type: 'THROUGHPUT', code: 'DROPPED_READ', args: { message: 'buffer' } },
          { eventTime: '2026-11-23T10:00:01.000Z', type: 'LIFECYCLE', code: 'REBOOT', args: { reason: 'power' } },
        ] },
      });
      expect(res.status).to.equal(204);
      const stored = await events(readerHealthStream(R1), readerHealthEvents);
      expect(stored.map((e) => e.data)).to.deep.equal([
        { readerName: R1, eventTime: '2026-11-23T10:00:00.000Z', type: 'THROUGHPUT', code: 'DROPPED_READ', args: { message: 'buffer' } },
        { readerName: R1, eventTime: '2026-11-23T10:00:01.000Z', type: 'LIFECYCLE', code: 'REBOOT', args: { reason: 'power' } },
      ]);
    });
    it('400 for a code outside its type, nothing appended', async () => {
      const res = await app.request('POST', `${p(R2)}/health`, { auth: as(R2), body: { events: [{ eventTime: '2026-11-23T10:00:00Z', type: 'CONNECTION', code: 'NTP' }] } });
      expect(res.status).to.equal(400);
      expect(errorPaths(res.body)).to.deep.equal(['body.events.0.code']);
      expect(await events(readerHealthStream(R2), readerHealthEvents)).to.deep.equal([]);
    });
  });

  describe('feature changes', () => {
    const status = async () => (await app.request('GET', `${READERS}/${encodeURIComponent(R1)}/featureChanges/ANTENNA_HUB`)).body;
    it('requested via REST, offered at check-in, taken and completed by the agent: ENABLED', async () => {
      expect((await app.request('POST', `${READERS}/${encodeURIComponent(R1)}/featureChanges`, { body: { feature: 'ANTENNA_HUB', action: 'ENABLE' } })).status).to.equal(202);
      const offered = await app.request('POST', `${p(R1)}/checkin`, { body: checkinBody, auth: as(R1) });
      expect(offered.body.featureChanges).to.deep.equal([{ feature: 'ANTENNA_HUB', target: 'ENABLED' }]);
      expect((await app.request('POST', `${p(R1)}/features/ANTENNA_HUB`, { body: { progress: 'TAKEN' }, auth: as(R1) })).status).to.equal(204);
      expect((await status()).requestStatus).to.equal('CONFIGURING');
      expect((await app.request('POST', `${p(R1)}/checkin`, { body: checkinBody, auth: as(R1) })).body.featureChanges).to.deep.equal([]);
      expect((await app.request('POST', `${p(R1)}/features/ANTENNA_HUB`, { body: { progress: 'COMPLETED', status: 'ENABLED' }, auth: as(R1) })).status).to.equal(204);
      expect(await status()).to.include({ status: 'ENABLED', requestStatus: 'IDLE', requestTargetStatus: null });
    });
    it('a failure ends in ERROR with the message; progress with nothing pending is a 409; unknown feature 400', async () => {
      expect((await app.request('POST', `${READERS}/${encodeURIComponent(R1)}/featureChanges`, { body: { feature: 'ANTENNA_HUB', action: 'DISABLE' } })).status).to.equal(202);
      expect((await app.request('POST', `${p(R1)}/features/ANTENNA_HUB`, { body: { progress: 'FAILED', message: 'hub not found' }, auth: as(R1) })).status).to.equal(204);
      expect(await status()).to.include({ requestStatus: 'ERROR', message: 'hub not found' });
      expect((await app.request('POST', `${p(R1)}/features/ANTENNA_HUB`, { body: { progress: 'TAKEN' }, auth: as(R1) })).status).to.equal(409);
      const unknown = await app.request('POST', `${p(R1)}/features/TURBO`, { body: { progress: 'TAKEN' }, auth: as(R1) });
      expect(unknown.status).to.equal(400);
      expect(errorPaths(unknown.body)).to.deep.equal(['params.feature']);
    });
    it('a wrong-typed field is a 400 naming it, whichever progress it comes with, and changes nothing', async () => {
      expect((await app.request('POST', `${READERS}/${encodeURIComponent(R1)}/featureChanges`, { body: { feature: 'ANTENNA_HUB', action: 'ENABLE' } })).status).to.equal(202);
      const before = await status();
      expect(before.requestStatus).to.equal('INITIALIZING');
      for (const [body, path] of [
        [{ progress: 'TAKEN', message: 42 }, 'body.message'],
        [{ progress: 'TAKEN', status: 'ON' }, 'body.status'],
        [{ progress: 'COMPLETED', message: { text: 'done' } }, 'body.message'],
        [{ progress: 'COMPLETED', status: null }, 'body.status'],
        [{ progress: 'FAILED', status: 7 }, 'body.status'],
        [{ progress: 'FAILED', message: ['hub', 'gone'] }, 'body.message'],
        [{ progress: 'DONE' }, 'body.progress'],
        [{ progress: 5 }, 'body.progress'],
      ] as const) {
        const res = await app.request('POST', `${p(R1)}/features/ANTENNA_HUB`, { body, auth: as(R1) });
        expect(res.status, JSON.stringify(body)).to.equal(400);
        expect(errorPaths(res.body), JSON.stringify(body)).to.deep.equal([path]);
      }
      expect(await status()).to.deep.equal(before);
      expect((await app.request('POST', `${p(R1)}/features/ANTENNA_HUB`, { body: { progress: 'TAKEN' }, auth: as(R1) })).status).to.equal(204);
    });
  });

  describe('tag reports', () => {
    it('refused with 409 when the reader is in no job, counted per reader and reason in the stats', async () => {
      const res = await app.request('POST', `${p(R2)}/reports`, { auth: as(R2), body: report() });
      expect(res.status).to.equal(409);
      expect(res.body.message).to.contain('JobId=job-1');
      expect((await app.request('POST', `${p(R2)}/reports`, { auth: as(R2), body: report() })).status).to.equal(409);
      expect(await events(tagReportsStream(R2), tagReportEvents)).to.deep.equal([]);
      const stats = await app.request('GET', '/agent/v1/stats');
      expect(stats.status).to.equal(200);
      expect(stats.body.readers).to.deep.include({ readerName: R2, acceptedReports: 0, refusedReports: { NOT_ASSIGNED: 2 } });
      const dr = await userWithRole(app, 'dr2', 'DataReader');
      expect((await app.request('GET', '/agent/v1/stats', { auth: dr })).status).to.equal(403);
    });

    it('a malformed report is a 400 naming the field, nothing appended', async () => {
      const res = await app.request('POST', `${p(R2)}/reports`, { auth: as(R2), body: report({ observations: [{ ...observation, antennaId: 99 }] }) });
      expect(res.status).to.equal(400);
      expect(errorPaths(res.body)).to.deep.equal(['body.observations.0.antennaId']);
      const order = await app.request('POST', `${p(R2)}/reports`, { auth: as(R2), body: report({ observations: [{ ...observation, lastSeen: '2026-11-23T10:00:00.000Z' }] }) });
      expect(order.status).to.equal(400);
      expect(errorPaths(order.body)).to.deep.equal(['body.observations.0.lastSeen']);
      expect(await events(tagReportsStream(R2), tagReportEvents)).to.deep.equal([]);
    });

    it('a report is stored once per reportId: a retry (immediate or late) appends nothing', async () => {
      const assignment: Assignment = {
        jobId: 'job-1', facility: 'DEFAULT', status: 'RUNNING', acknowledged: true, recipe: {}, readerConfiguration: {}, readerDefinition: {},
      };
      const jobs: JobsForAgents = { assignmentFor: async () => assignment, reportTargetFor: async () => assignment, acknowledgeAssignment: async () => undefined };
      const deps = { ...side.deps, redis, keys } as unknown as AppDeps;
      const r = report();
      const stored = { ...r, observations: [observation] };
      expect(await acceptReport(deps, jobs, R1, stored)).to.deep.equal({ reportId: r.reportId, duplicate: false });
      expect(await acceptReport(deps, jobs, R1, stored)).to.deep.equal({ reportId: r.reportId, duplicate: true });
      // Forget the recent ids: the store itself drops the retry at the stream tail.
      await redis.del(agentKeys(keys).recentReports(R1));
      await acceptReport(deps, jobs, R1, stored);
      const all = await events(tagReportsStream(R1), tagReportEvents);
      expect(all).to.have.length(1);
      expect(all[0]?.id).to.equal(r.reportId);
      expect(all[0]?.data).to.deep.equal({ reader: R1, jobId: 'job-1', facility: 'DEFAULT', from: r.from, to: r.to, observations: [observation] });
      // A late retry after other reports: answered from the recent ids.
      await acceptReport(deps, jobs, R1, { ...stored, reportId: crypto.randomUUID() });
      expect((await acceptReport(deps, jobs, R1, stored)).duplicate).to.equal(true);
      expect(await events(tagReportsStream(R1), tagReportEvents)).to.have.length(2);
      const refused = await acceptReport(deps, { ...jobs, reportTargetFor: async () => ({ ...assignment, acknowledged: false }) }, R1, { ...stored, reportId: crypto.randomUUID() }).catch((e: unknown) => e);
      expect(refused).to.be.instanceOf(ApiError);
      expect((refused as ApiError).status).to.equal(409);
    });
  });
});

// The whole path with the job runner: skipped while the jobs slice is not
// part of the process (POST /control/v1/jobs/start answers 404).
describe('agent gateway with the job runner', function () {
  this.timeout(60_000);
  let app: TestApp;
  let side: AgentSide;
  let auth = '';
  const READER = 'agent-r1';
  const JOBS = '/control/v1/jobs';

  before(async () => {
    app = await startTestApp();
    side = await agentSide(app);
    expectStatus(await app.request('POST', `${RC}/create`, { body: inventoryBody({}, 'inv') }), 200);
    await seedReaderDefinition(app, READER);
    expectStatus(await app.request('POST', `${RECIPES}/create`, { body: { name: 'rec', type: 'INVENTORY', readerConfigurationName: 'inv' } }), 200);
    const issued = await app.request('PUT', `${p(READER)}/secret`);
    expectStatus(issued, 200);
    auth = agentAuthorization(READER, String(issued.body.secret));
  });
  after(async () => {
    await side?.close();
    await app?.stop();
  });

  const checkin = async () => {
    const res = await app.request('POST', `${p(READER)}/checkin`, { body: checkinBody, auth });
    expectStatus(res, 200);
    return res.body as { assignment: null | { jobId: string; status: string; acknowledged: boolean; facility: string; recipe: { name: string }; readerConfiguration: { name: string }; readerDefinition: { name: string } } };
  };
  const eventually = <T>(what: string, probe: () => Promise<T | undefined>): Promise<T> => waitFor(what, probe, { intervalMs: 100 });

  it('start a job, check in, acknowledge, report: accepted once; refused for another job; nothing after the stop', async function () {
    const started = await app.request('POST', `${JOBS}/start`, { body: { name: 'agent-path', recipeName: 'rec', startDelay: 'PT0S' } });
    if (started.status === 404) this.skip();
    expectStatus(started, 200);
    const jobId = String(started.body.id);

    const assigned = await eventually('an assignment', async () => (await checkin()).assignment ?? undefined);
    expect(assigned).to.deep.include({ jobId, status: 'STARTING', acknowledged: false, facility: 'DEFAULT' });
    expect(assigned.recipe.name).to.equal('rec');
    expect(assigned.readerConfiguration.name).to.equal('inv');
    expect(assigned.readerDefinition.name).to.equal(READER);

    const early = await app.request('POST', `${p(READER)}/reports`, { auth, body: report({ jobId }) });
    expectStatus(early, 409);
    expect(early.body.errors[0].reason).to.equal('NOT_ACKNOWLEDGED');

    expectStatus(await app.request('POST', `${p(READER)}/assignments/${jobId}/ack`, { auth }), 204);
    expectStatus(await app.request('POST', `${p(READER)}/assignments/${jobId}/ack`, { auth }), 204);
    await eventually('RUNNING', async () => ((await checkin()).assignment?.status === 'RUNNING' ? true : undefined));
    expect((await checkin()).assignment?.acknowledged).to.equal(true);

    const r = report({ jobId });
    const accepted = await app.request('POST', `${p(READER)}/reports`, { auth, body: r });
    expectStatus(accepted, 200);
    expect(accepted.body).to.deep.equal({ reportId: r.reportId, duplicate: false });
    const retried = await app.request('POST', `${p(READER)}/reports`, { auth, body: r });
    expect(retried.body).to.deep.equal({ reportId: r.reportId, duplicate: true });
    const stored = (await readStream(side.deps.client, tagReportsStream(READER), tagReportEvents)).events;
    expect(stored.map((e) => e.id)).to.deep.equal([r.reportId]);
    expect(stored[0]?.data).to.deep.include({ reader: READER, jobId, facility: 'DEFAULT' });

    const other = await app.request('POST', `${p(READER)}/reports`, { auth, body: report({ jobId: 'another-job' }) });
    expectStatus(other, 409);
    expect(other.body.errors[0].reason).to.equal('OTHER_JOB');
    const stats = await app.request('GET', '/agent/v1/stats');
    expect(stats.body.readers).to.deep.equal([{ readerName: READER, acceptedReports: 1, refusedReports: { NOT_ACKNOWLEDGED: 1, OTHER_JOB: 1 } }]);

    expectStatus(await app.request('POST', `${JOBS}/stop/${jobId}?graceful=false`), 204);
    await eventually('no assignment', async () => ((await checkin()).assignment === null ? true : undefined));
    const late = await app.request('POST', `${p(READER)}/reports`, { auth, body: report({ jobId }) });
    expectStatus(late, 409);
    expect(late.body.errors[0].reason).to.equal('NOT_ASSIGNED');
  });
});
