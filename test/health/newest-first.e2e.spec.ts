// Health event search newest first: pages walk back in time, each event once,
// and a marker of one order is refused in the other.
import { expect } from 'chai';
import { EventStoreDBClient } from '@eventstore/db-client';
import { startTestApp, type TestApp } from '../support/app';
import { encodeEvent } from '../../src/core/events';
import { healthEvents, healthStream } from '../../src/health/events';
import { waitForValue } from '../support/wait';

describe('health events newest first over HTTP', function () {
  this.timeout(60_000);
  let app: TestApp;
  const reader = 'newest-first-reader';
  const t0 = Date.now() - 60_000;
  before(async () => {
    app = await startTestApp();
    const client = EventStoreDBClient.connectionString(app.eventStoreConnectionString);
    try {
      await client.appendToStream(healthStream(reader), Array.from({ length: 5 }, (_, n) => encodeEvent(healthEvents, {
        type: 'HealthEventReported',
        data: { readerName: reader, eventTime: new Date(t0 + n * 1000).toISOString(), type: 'THROUGHPUT', code: 'DROPPED_READ', args: { n } },
      })));
    } finally {
      await client.dispose();
    }
    await waitForValue('events projected', async () => (await app.request('POST', '/health/v1/events', { body: { readerNames: [reader] } })).body?.events?.length, (n) => n === 5, { timeoutMs: 30_000, intervalMs: 200 });
  });
  after(async () => app?.stop());

  const pages = async (body: Record<string, unknown>): Promise<number[][]> => {
    const out: number[][] = [];
    let marker: string | undefined;
    do {
      const res = await app.request('POST', '/health/v1/events', { body: { ...body, ...(marker ? { nextPageMarker: marker } : {}) } });
      expect(res.status).to.equal(200);
      out.push(res.body.events.map((e: { args: { n: number } }) => e.args.n));
      marker = res.body.nextPageMarker ?? undefined;
    } while (marker !== undefined);
    return out;
  };

  it('pages newest first, each event once; oldest first stays the default', async () => {
    expect(await pages({ readerNames: [reader], pageSize: 2, newestFirst: true })).to.deep.equal([[4, 3], [2, 1], [0]]);
    expect(await pages({ readerNames: [reader], pageSize: 2 })).to.deep.equal([[0, 1], [2, 3], [4]]);
    // Across every reader's set too, with a time window.
    const from = new Date(t0 + 1500).toISOString();
    expect(await pages({ fromTime: from, pageSize: 3, newestFirst: true })).to.deep.equal([[4, 3, 2]]);
  });

  it('refuses a marker of the other order, naming body.nextPageMarker', async () => {
    const first = await app.request('POST', '/health/v1/events', { body: { readerNames: [reader], pageSize: 2, newestFirst: true } });
    const res = await app.request('POST', '/health/v1/events', { body: { readerNames: [reader], pageSize: 2, nextPageMarker: first.body.nextPageMarker } });
    expect(res.status).to.equal(400);
    expect(res.body.errors.map((e: { path: string }) => e.path)).to.deep.equal(['body.nextPageMarker']);
  });
});
