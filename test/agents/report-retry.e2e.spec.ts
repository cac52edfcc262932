// A tag report sent again with the same reportId is stored once, also when
// the gateway's list of the reader's recent reportIds is gone (Redis lost its
// data between two attempts) and when the copies arrive at once (several
// attempts in flight together, none of them in that list yet): the event
// store answers an append of the same event id at the stream's tail, or still
// being written, as already written. The same holds for an Impinj IoT
// reader's webhook delivery sent again: its reportId comes from the delivery.
import { expect } from 'chai';
import { loadConfigOrThrow } from '../../src/config';
import { agentAuthorization } from '../../src/agents/guard';
import { agentKeys } from '../../src/agents/events';
import { RedisKeys } from '../../src/core/redis/keys';
import { basic, startTestApp, type TestApp } from '../support/app';
import { loseRedisKeys } from '../support/redis-prefix';
import { startLiveJob } from '../engine/live-job';
import { expectStatus } from '../readerconfigurations/e2e-support';
import { storedReports } from '../readers/support';

const READER = 'dock-retry';

describe('agent gateway: a report sent again with the same reportId', function () {
  this.timeout(120_000);
  let app: TestApp;
  let jobId = '';
  let secret = '';

  before(async () => {
    app = await startTestApp();
    jobId = (await startLiveJob(app, { type: 'INVENTORY', readers: [{ name: READER }] })).jobId;
    const issued = await app.request('PUT', `/agent/v1/readers/${READER}/secret`);
    expectStatus(issued, 200);
    secret = issued.body.secret as string;
  });
  after(async () => {
    await app?.stop();
  });

  /** What Redis losing its data does to the gateway's memory of the reader's reports. */
  const forgetRecentReports = (): Promise<string[]> => loseRedisKeys(agentKeys(new RedisKeys(app.keyPrefix)).recentReports(READER), loadConfigOrThrow({}).redisUrl);
  const report = (epc: string): { reportId: string; body: unknown } => {
    const at = new Date().toISOString();
    const reportId = crypto.randomUUID();
    return { reportId, body: { reportId, jobId, from: at, to: at, observations: [{ epc, tid: null, antennaId: 1, peakRssi: -55, readCount: 1, firstSeen: at, lastSeen: at, x: null, y: null }] } };
  };
  const send = (body: unknown) => app.request('POST', `/agent/v1/readers/${READER}/reports`, { auth: agentAuthorization(READER, secret), body });
  const storedWith = async (epc: string): Promise<string[]> => (await storedReports(app, READER)).filter((e) => e.observations.some((o) => o.epc === epc)).map((e) => e.id);

  it('after Redis lost the recent reportIds: answered 200, stored once', async () => {
    const r = report('E28011606000020000000A01');
    const first = await send(r.body);
    expectStatus(first, 200);
    expect(first.body).to.deep.equal({ reportId: r.reportId, duplicate: false });
    expect(await forgetRecentReports()).to.have.length(1);
    expectStatus(await send(r.body), 200);
    expect(await storedWith('E28011606000020000000A01')).to.deep.equal([r.reportId]);
  });

  it('eight copies sent at once: each answered 200, stored once', async () => {
    const r = report('E28011606000020000000A02');
    const answers = await Promise.all(Array.from({ length: 8 }, () => send(r.body)));
    expect(answers.map((a) => a.status)).to.deep.equal(Array(8).fill(200));
    expect(await storedWith('E28011606000020000000A02')).to.deep.equal([r.reportId]);
  });

  it('an IoT webhook delivery sent again, after Redis lost the recent reportIds: answered 204, stored once', async () => {
    const at = new Date().toISOString();
    const events = [{ timestamp: at, hostname: READER, eventType: 'tagInventory', tagInventoryEvent: { epcHex: 'E28011606000020000000A03', antennaPort: 2, peakRssiCdbm: -5500, lastSeenTime: at } }];
    const deliver = () => app.request('POST', `/agent/v1/readers/${READER}/iot/events`, { auth: basic(READER, secret), body: events });
    expectStatus(await deliver(), 204);
    await forgetRecentReports();
    expectStatus(await deliver(), 204);
    expect(await storedWith('E28011606000020000000A03')).to.have.length(1);
  });
});
