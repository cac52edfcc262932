// Simulated readers -> agent API -> item engine -> relay -> a plain amqplib
// consumer: an item queue holds exactly the job's history records (the same
// ItemEvents the history query serves), and filtered queues exactly the
// records passing their filter.
import { expect } from 'chai';
import { silent } from '../support/logger';
import { parseOptions } from '../../src/simulator/options';
import { runSimulation } from '../../src/simulator/run';
import { startTestApp, waitForCaughtUp, type TestApp } from '../support/app';
import { consume, type Consumer } from './support';
import { sleep } from '../support/wait';

type Record_ = { epc: string; fromZone: string; toZone: string; observationTime: string };
const order = (a: Record_, b: Record_): number => `${a.epc}${a.observationTime}${a.toZone}`.localeCompare(`${b.epc}${b.observationTime}${b.toZone}`);

describe('simulated readers to an item queue', function () {
  this.timeout(120_000);
  let app: TestApp;
  const consumers: Consumer[] = [];
  before(async () => {
    app = await startTestApp();
  });
  after(async () => {
    for (const c of consumers) await c.close();
    await app?.stop();
  });

  it('the queue receives every history record of the job, filtered queues the matching ones', async () => {
    const queue = async (body: unknown): Promise<Consumer> => {
      const res = await app.request('PUT', '/data/v1/items/queues', { body });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const c = await consume(res.body.queue as string);
      consumers.push(c);
      return c;
    };
    const all = await queue({});
    const facility = await queue({ toFacility: 'DEFAULT' });
    const none = await queue({ toFacility: 'NOWHERE' });
    const options = parseOptions(['--url', app.baseUrl, '--demo', '--start-job', '--readers', '2', '--families', 'SPEEDWAY,XPORTAL', '--tags', '12', '--seed', '11', '--duration', '8', '--checkin-seconds', '1', '--progress', 'none']);
    const summary = await runSimulation(options, { log: silent });
    expect(summary.totals.reportsAccepted).to.be.greaterThan(0);

    // The history is complete once the engine has processed every report and the read models applied it; the queue then catches up with it.
    await waitForCaughtUp(app);
    const records = (await app.request('GET', '/data/v1/items/show/history?pageSize=1000')).body.history as Record_[];
    expect(records.length).to.be.greaterThan(0);
    await all.until(records.length);
    await sleep(500);
    expect(all.messages.map((m) => m.body as Record_).sort(order)).to.deep.equal([...records].sort(order));
    expect(all.ids().size, 'distinct messageIds').to.equal(all.messages.length);
    const inFacility = records.filter((r) => (r as unknown as { toFacility: string }).toFacility === 'DEFAULT');
    expect(inFacility.length).to.be.greaterThan(0);
    await facility.until(inFacility.length);
    expect(facility.messages.map((m) => m.body as Record_).sort(order)).to.deep.equal([...inFacility].sort(order));
    expect(none.messages).to.have.length(0);
  });
});
