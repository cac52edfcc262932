// Redis losing its data under a running service, with a reader reporting and
// clients querying all along, on a Redis server of the test's own:
// - its keys deleted (what a restart without persistence or a flush does);
// - the server killed (client requests fail fast with 503, the reader's reports are still taken), then started again empty.
// Each time, within a bounded time and with nobody running a rebuild, every
// query answers what it answered before, no acknowledged report is lost, and
// meanwhile nothing answered 401 or 500, nor a 200 with less than the truth.
import { expect } from 'chai';
import { agentAuthorization } from '../../src/agents/guard';
import { epc, eventually, JOBS, startLiveJob } from '../engine/live-job';
import { expectStatus } from '../readerconfigurations/e2e-support';
import { startTestApp, type TestApp, type TestResponse } from '../support/app';
import { startOwnRedis, type OwnRedis } from '../support/redis-server';
import { loseRedisKeys } from '../support/redis-prefix';
import { sleep, waitFor } from '../support/wait';

const READER = 'dock-1';
const READS = {
  readers: '/configuration/v1/readerDefinitions/show',
  users: '/configuration/v1/users/show',
  items: '/data/v1/items/show?pageSize=1000',
} as const;

interface Report {
  readonly reportId: string;
  readonly epc: string;
  readonly body: unknown;
}

interface Odd {
  readonly what: string;
  readonly status: number;
  readonly body: unknown;
}

describe('Redis losing its data under a running service', function () {
  this.timeout(240_000);
  let redis: OwnRedis;
  let app: TestApp;
  let jobId = '';
  let agentAuth = '';
  let adminToken = '';
  let was: { readers: unknown; users: unknown; job: unknown };
  const acked: Report[] = [];
  const unsent: Report[] = [];
  const odd: Odd[] = [];
  const unavailable: TestResponse[] = [];
  let running = false;
  let loops: Promise<void>[] = [];
  let n = 0;
  /** The last answer to a report that was not taken, shown when the reader stays refused too long. */
  let lastRefusal: { status: number; body: unknown } | undefined;
  /** EPCs the items query showed once all was well: never missing from a later answer. */
  let shownItems = new Set<string>();

  const jobView = (body: { id?: string; status?: string; job?: unknown }) => ({ id: body.id, status: body.status, job: body.job });
  const itemEpcs = (body: { items?: Array<{ epc: string }> }) => new Set((body.items ?? []).map((i) => i.epc));

  /** A 503 must say when to retry and what is wrong; anything but 200/503 is a failure of the test. */
  const judge = (what: string, res: TestResponse, ok: (body: any) => boolean): boolean => { // eslint-disable-line @typescript-eslint/no-explicit-any
    if (res.status === 503) {
      unavailable.push(res);
      if (!res.headers.get('retry-after') || typeof res.body?.message !== 'string' || res.body.message === '') odd.push({ what: `${what} (503 without Retry-After or message)`, status: 503, body: res.body });
      return false;
    }
    if (res.status !== 200 && res.status !== 204) odd.push({ what, status: res.status, body: res.body });
    else if (!ok(res.body)) odd.push({ what: `${what} (a 200 that is not the truth)`, status: res.status, body: res.body });
    return res.status === 200 || res.status === 204;
  };

  /** The reader: one report at a time, each with a new EPC; a report not taken is kept and sent again. */
  const reader = async (): Promise<void> => {
    while (running) {
      if (unsent.length === 0) {
        const at = new Date().toISOString();
        const tag = epc(5000 + n++);
        const reportId = crypto.randomUUID();
        const obs = [{ epc: tag, tid: null, antennaId: 1, peakRssi: -55, readCount: 1, firstSeen: at, lastSeen: at, x: null, y: null }];
        unsent.push({ reportId, epc: tag, body: { reportId, jobId, from: at, to: at, observations: obs } });
      }
      await sendOldest();
      await sleep(100);
    }
  };
  const sendOldest = async (): Promise<boolean> => {
    const r = unsent[0]!;
    const res = await app.request('POST', `/agent/v1/readers/${READER}/reports`, { auth: agentAuth, body: r.body }).catch(() => undefined);
    if (res === undefined) return false; // no answer: keep it
    if (judge('report', res, () => true)) {
      acked.push(r);
      unsent.shift();
      return true;
    }
    lastRefusal = { status: res.status, body: res.body };
    return false;
  };

  /** Clients: Basic and Token callers reading configuration, the job and the items. */
  const clients = async (): Promise<void> => {
    while (running) {
      const [readers, users, job, items] = await Promise.all([
        app.request('GET', READS.readers, { auth: `Token {"token":"${adminToken}"}` }),
        app.request('GET', READS.users),
        app.request('GET', `${JOBS}/show/${jobId}`),
        app.request('GET', READS.items),
      ]);
      judge('readers (token)', readers, (b) => JSON.stringify(b) === JSON.stringify(was.readers));
      judge('users (basic)', users, (b) => JSON.stringify(b) === JSON.stringify(was.users));
      judge('job', job, (b) => JSON.stringify(jobView(b)) === JSON.stringify(was.job));
      // Items of recent reports may still be on their way through the item engine; those the
      // service showed before the loss must be there whenever items answer.
      judge('items', items, (b) => [...shownItems].every((e) => itemEpcs(b).has(e)));
      await sleep(50);
    }
  };

  const startTraffic = (): void => {
    running = true;
    loops = [reader(), clients()];
  };
  const stopTraffic = async (): Promise<void> => {
    running = false;
    await Promise.all(loops);
  };

  /** Every query answers what it answered before, and the items of every acknowledged report are there. */
  /** What the service says of itself, for a time-out's message: why it does not heal. */
  const diagnosis = async (): Promise<unknown> => ({
    lastRefusal,
    healthz: await fetch(new URL('/healthz', app.baseUrl), { signal: AbortSignal.timeout(5000) }).then(
      async (r) => {
        const h = (await r.json()) as { redis?: { status?: string }; readModels?: Record<string, { status?: string; reason?: string }> };
        return { redis: h.redis?.status, readModels: Object.entries(h.readModels ?? {}).map(([name, m]) => `${name}:${m.status ?? '?'}`) };
      },
      (e: unknown) => String(e),
    ),
  });
  /** Waits for `count() >= atLeast`; a time-out says what the service answered meanwhile. */
  const acknowledgedAtLeast = async (what: string, atLeast: number, ms = 15_000): Promise<void> => {
    await eventually(what, async () => (acked.length >= atLeast ? { acked: acked.length } : { acked: acked.length, ...(await diagnosis() as object) }), (v) => v.acked >= atLeast, ms);
  };

  const healed = async (what: string): Promise<void> => {
    await eventually(`${what}: answers as before`, async () => {
      const [readers, users, job, items] = await Promise.all([
        app.request('GET', READS.readers), app.request('GET', READS.users), app.request('GET', `${JOBS}/show/${jobId}`), app.request('GET', READS.items),
      ]);
      if ([readers, users, job, items].some((r) => r.status !== 200)) return false;
      const epcs = itemEpcs(items.body);
      if (acked.every((r) => epcs.has(r.epc))) shownItems = epcs;
      return JSON.stringify(readers.body) === JSON.stringify(was.readers)
        && JSON.stringify(users.body) === JSON.stringify(was.users)
        && JSON.stringify(jobView(job.body)) === JSON.stringify(was.job)
        && acked.every((r) => epcs.has(r.epc));
    }, (ok) => ok, 90_000);
  };

  /** Sends what is still kept, then checks the job counted exactly the acknowledged reports. */
  const nothingLost = async (): Promise<void> => {
    await eventually('kept reports sent', async () => unsent.length === 0 || (await sendOldest() && unsent.length === 0), (done) => done, 60_000);
    await healed('after the last report');
    await eventually('job stats count every acknowledged report', async () => (await app.request('GET', `${JOBS}/stats/${jobId}`)).body, (s) => s?.reports === acked.length, 30_000);
    expect(odd, JSON.stringify(odd.slice(0, 5))).to.deep.equal([]);
  };

  /** What a Redis restart without persistence does to this namespace (the server is the test's own): every key at once, in one UNLINK. */
  const loseEverything = async (): Promise<void> => {
    expect(await loseRedisKeys(app.keyPrefix, redis.url)).to.include(`${app.keyPrefix}v1:generation`);
  };

  before(async () => {
    redis = await startOwnRedis();
    app = await startTestApp({ REDIS_URL: redis.url, HEALTH_CHECKIN_INTERVAL_SECONDS: '3600', JOB_ACK_TIMEOUT_SECONDS: '60' });
    expectStatus(await app.request('POST', '/configuration/v1/users/create', { body: { name: 'cm', password: 'cm-passphrase', roles: ['ConfigManager'] } }), 200);
    const token = await app.request('GET', '/authentication/v1/token');
    expectStatus(token, 200);
    adminToken = token.body.token as string;
    jobId = (await startLiveJob(app, { type: 'INVENTORY', readers: [{ name: READER }] })).jobId;
    const issued = await app.request('PUT', `/agent/v1/readers/${READER}/secret`);
    expectStatus(issued, 200);
    agentAuth = agentAuthorization(READER, issued.body.secret as string);
    const job = await app.request('GET', `${JOBS}/show/${jobId}`);
    was = { readers: (await app.request('GET', READS.readers)).body, users: (await app.request('GET', READS.users)).body, job: jobView(job.body) };
    expect(was.job).to.deep.include({ id: jobId, status: 'RUNNING' });
  });
  after(async () => {
    running = false;
    await Promise.all(loops);
    if (redis && !redis.running) await redis.start(); // a failed test may have left it down: the app cleans its keys there
    await app?.stop();
    await redis?.close();
  });

  it('rebuilds every read model by itself when its keys are deleted, answering 503 meanwhile, never 401/500 or less than the truth', async () => {
    startTraffic();
    await acknowledgedAtLeast('ten reports acknowledged', 10);
    await healed('before the loss');
    await loseEverything();
    const ackedAtLoss = acked.length;
    await acknowledgedAtLeast('reports acknowledged after the loss', ackedAtLoss + 10, 90_000);
    await healed('after the loss');
    await stopTraffic();
    await nothingLost();
    const health = await fetch(new URL('/healthz', app.baseUrl)).then((r) => r.json() as Promise<{ readModels: Record<string, { status: string }> }>);
    expect(Object.keys(health.readModels)).to.include.members(['config', 'health', 'jobs', 'items']);
    expect(Object.values(health.readModels).map((m) => m.status)).to.deep.equal(Object.keys(health.readModels).map(() => 'ready'));
  });

  it('answers 503 with Retry-After at once while Redis is down, yet takes the reader\'s reports, and heals when it comes back empty', async () => {
    startTraffic();
    const ackedAtStart = acked.length;
    await acknowledgedAtLeast('reports acknowledged', ackedAtStart + 5);
    await redis.kill();
    // Fast: a request must not wait for Redis to come back (the abort would turn it into a failure).
    const res = await fetch(`${app.baseUrl}${READS.items}`, { headers: { Authorization: `Token {"token":"${adminToken}"}` }, signal: AbortSignal.timeout(3000) });
    expect(res.status).to.equal(503);
    expect(res.headers.get('retry-after')).to.match(/^\d+$/);
    expect(((await res.json()) as { message: string }).message).to.match(/Redis/);
    const health = await fetch(new URL('/healthz', app.baseUrl), { signal: AbortSignal.timeout(5000) });
    expect(health.status).to.equal(503);
    expect(((await health.json()) as { redis: { status: string } }).redis.status).to.equal('down');
    // Clients are refused meanwhile; the reader is not: the gateway authenticates and assigns from what it last read.
    const refusedBefore = unavailable.length;
    await waitFor('clients refused five more times while Redis is down', () => unavailable.length >= refusedBefore + 5);
    const ackedAtKill = acked.length;
    await acknowledgedAtLeast('reports acknowledged while Redis is down', ackedAtKill + 5);
    expect(redis.running, 'Redis still down while the reports were taken').to.equal(false);
    const ackedWhileDown = acked.length;
    await redis.start(); // empty: it kept nothing
    await acknowledgedAtLeast('reports acknowledged again', ackedWhileDown + 10, 90_000);
    await healed('after Redis came back empty');
    await stopTraffic();
    expect(unavailable.length, 'requests refused while Redis was down').to.be.greaterThan(0);
    await nothingLost();
  });

  it('after a factory reset, rebuilds from the reset on: what the reset deleted does not come back', async () => {
    expectStatus(await app.request('POST', `${JOBS}/stop/${jobId}?graceful=false`), 204);
    await eventually('job stopped', async () => (await app.request('GET', `${JOBS}/show/${jobId}`)).body?.status, (s) => s === 'STOPPED');
    expectStatus(await app.request('POST', '/support/v1/factoryReset', { body: { confirm: 'FACTORY_RESET' } }), 200);
    const reset = { users: (await app.request('GET', READS.users)).body, readers: (await app.request('GET', READS.readers)).body };
    expect(reset.users.map((u: { name: string }) => u.name)).to.deep.equal(['admin']);
    expect(reset.readers).to.deep.equal([]);
    await loseEverything();
    await eventually('read models rebuilt after the loss', async () => {
      const [users, readers, jobs] = await Promise.all([app.request('GET', READS.users), app.request('GET', READS.readers), app.request('GET', `${JOBS}/show`)]);
      return { users: users.status === 200 ? users.body : users.status, readers: readers.status === 200 ? readers.body : readers.status, jobs: jobs.status === 200 ? jobs.body : jobs.status };
    }, (v) => JSON.stringify(v) === JSON.stringify({ ...reset, jobs: [] }), 60_000);
  });
});
