// A burst of new tags larger than one append may hold (the event store takes
// at most 1 MiB per append): the engine writes its output in several
// ItemsChanged events instead of failing and retrying the same input forever.
import { expect } from 'chai';
import { EventStoreDBClient } from '@eventstore/db-client';
import { agentAuthorization } from '../../src/agents/guard';
import { readStream } from '../../src/core/eventstore';
import { ENGINE_STREAM, itemEvents } from '../../src/engine/events';
import { startTestApp, type TestApp } from '../support/app';
import { expectStatus, RC, RECIPES } from '../readerconfigurations/e2e-support';
import { inventoryBody } from '../readerconfigurations/fixtures';
import { sleep } from '../support/wait';

const READER = 'burst-1';
const AGENT = `/agent/v1/readers/${READER}`;
const TAGS = 3000;
const epc = (n: number): string => `E2801160600003${n.toString(16).toUpperCase().padStart(10, '0')}`;

describe('item engine output larger than one append', function () {
  this.timeout(120_000);
  let app: TestApp;
  before(async () => {
    app = await startTestApp();
  });
  after(async () => app?.stop());

  it(`${TAGS} new tags in one report become ${TAGS} FIRST_SEEN, split over events of at most 1000 changes`, async () => {
    expectStatus(await app.request('POST', `${RC}/create`, { body: inventoryBody({}, 'inv') }), 200);
    expectStatus(await app.request('POST', '/configuration/v1/readerDefinitions/create', { body: { name: READER, antennaZones: { '1': 'DOCK' } } }), 200);
    expectStatus(await app.request('POST', `${RECIPES}/create`, { body: { name: 'rec', type: 'INVENTORY', readerConfigurationName: 'inv', reportingInterval: 1, computeWindow: 1 } }), 200);
    const job = await app.request('POST', '/control/v1/jobs/start', { body: { name: 'burst', recipeName: 'rec', startDelay: 'PT0S' } });
    expectStatus(job, 200);
    const jobId = job.body.id as string;
    const issued = await app.request('PUT', `${AGENT}/secret`);
    expectStatus(issued, 200);
    const auth = agentAuthorization(READER, issued.body.secret as string);
    for (let i = 0; ; i++) {
      const res = await app.request('POST', `${AGENT}/checkin`, { auth, body: { agentId: 'a', versions: { App: '1', Firmware: '1' }, state: 'IDLE' } });
      expectStatus(res, 200);
      if (res.body.assignment?.jobId === jobId) break;
      if (i > 100) throw new Error('no assignment');
      await sleep(100);
    }
    await app.request('POST', `${AGENT}/assignments/${jobId}/ack`, { auth });
    const at = new Date().toISOString();
    const observations = Array.from({ length: TAGS }, (_, i) => ({ epc: epc(i), tid: null, antennaId: 1, peakRssi: -50, readCount: 1, firstSeen: at, lastSeen: at, x: null, y: null }));
    const posted = await app.request('POST', `${AGENT}/reports`, { auth, body: { reportId: crypto.randomUUID(), jobId, from: at, to: at, observations } });
    expect(posted.status, JSON.stringify(posted.body)).to.be.oneOf([200, 202, 204]);

    const client = EventStoreDBClient.connectionString(app.eventStoreConnectionString);
    try {
      const deadline = Date.now() + 30_000;
      for (;;) {
        const events = (await readStream(client, ENGINE_STREAM, itemEvents)).events;
        const first = events.flatMap((e) => e.data.changes).filter((c) => c.kind === 'FIRST_SEEN');
        if (first.length >= TAGS) {
          expect(new Set(first.map((c) => c.epc)).size).to.equal(TAGS);
          expect(first.length).to.equal(TAGS);
          for (const e of events) expect(e.data.changes.length).to.be.at.most(1000);
          expect(events.length).to.be.at.least(3);
          return;
        }
        if (Date.now() > deadline) throw new Error(`only ${first.length} FIRST_SEEN after 30 s`);
        await sleep(200);
      }
    } finally {
      await client.dispose();
    }
  });
});
