// GET /live/v1/stream over HTTP: authentication, topics by role, item changes
// appended to the engine stream arrive as `items` events and door passages as
// `transitions` events (both filtered by facility), a job started through the REST interface arrives as `job`
// events, agent secrets never leave, and the service shuts down with a
// stream open.
import { expect } from 'chai';
import { EventStoreDBClient } from '@eventstore/db-client';
import { encodeEvent } from '../../src/core/events';
import { ENGINE_STREAM, itemEvents, type ItemChangeCodec } from '../../src/engine/events';
import type { ThresholdTransition } from '../../src/engine/threshold/transition';
import { startTestApp, ADMIN, type TestApp } from '../support/app';
import { createUser, expectStatus, RC, RECIPES } from '../readerconfigurations/e2e-support';
import type * as t from 'io-ts';
import { sleep, waitForValue } from '../support/wait';

type Change = t.TypeOf<typeof ItemChangeCodec>;
const T0 = Date.parse('2026-05-01T08:00:00.000Z');
const change = (over: Partial<Change> & Pick<Change, 'epc'>): Change => ({
  kind: 'FIRST_SEEN', tid: null, jobId: 'job-1', fromZone: 'ABSENT', toZone: 'Z1',
  fromFloor: null, toFloor: '1', fromFacility: null, toFacility: 'North', fromX: null, fromY: null, toX: 1.5, toY: 2.25,
  observationTime: T0, reportToDatabaseEnabled: true, reportToHistoryEnabled: true, reportToMessageQueueEnabled: true,
  ...over,
});

interface SseEvent {
  readonly event: string;
  readonly data: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** An open stream: its events as they come, read with fetch like the console does. */
class Stream {
  readonly events: SseEvent[] = [];
  private readonly controller = new AbortController();
  ended = false;
  status = 0;
  contentType = '';

  static async open(app: TestApp, auth: string, query = ''): Promise<Stream> {
    const s = new Stream();
    const res = await fetch(`${app.baseUrl}/live/v1/stream${query}`, { headers: { Authorization: auth }, signal: s.controller.signal });
    s.status = res.status;
    s.contentType = res.headers.get('content-type') ?? '';
    if (res.ok && res.body) void s.read(res.body);
    else await res.text();
    return s;
  }

  private async read(body: ReadableStream<Uint8Array>): Promise<void> {
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of body) {
        buffer += decoder.decode(chunk, { stream: true });
        let end;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const name = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (name && data) this.events.push({ event: name, data: JSON.parse(data) });
        }
      }
    } catch {
      // aborted by close()
    }
    this.ended = true;
  }

  async waitFor(test: (e: SseEvent) => boolean, what: string): Promise<SseEvent> {
    await waitForValue(what, () => this.events, (events) => events.some(test), { timeoutMs: 20_000 });
    return this.events.find(test)!;
  }

  close(): void {
    this.controller.abort();
  }
}

describe('live event stream', function () {
  this.timeout(90_000);
  let app: TestApp;
  let client: EventStoreDBClient;
  let reader: string;
  const streams: Stream[] = [];
  const open = async (auth: string, query = ''): Promise<Stream> => {
    const s = await Stream.open(app, auth, query);
    streams.push(s);
    return s;
  };
  const appendChanges = async (changes: Change[]): Promise<void> => {
    await client.appendToStream(ENGINE_STREAM, [encodeEvent(itemEvents, { type: 'ItemsChanged', data: { inputPosition: '0', at: T0, changes } })]);
  };

  before(async () => {
    app = await startTestApp();
    client = EventStoreDBClient.connectionString(app.eventStoreConnectionString);
    reader = await createUser(app, 'watcher', ['DataReader']);
  });
  after(async () => {
    for (const s of streams) s.close();
    await client?.dispose();
    await app?.stop();
  });

  it('needs credentials, refuses unknown topics and topics the roles do not allow', async () => {
    expect((await open('')).status).to.equal(401);
    const unknown = await open(ADMIN, '?topics=items,weather');
    expect(unknown.status).to.equal(400);
    const res = await app.request('GET', '/live/v1/stream?topics=items,weather');
    expect(res.body.errors[0].path).to.equal('query.topics');
    expect((await open(reader, '?topics=jobs')).status).to.equal(403);
    expect((await app.request('GET', '/live/v1/stream?facility=', {})).status).to.equal(400);
  });

  it('says hello with the topics the roles allow', async () => {
    const admin = await open(ADMIN);
    expect(admin.status).to.equal(200);
    expect(admin.contentType).to.match(/^text\/event-stream/);
    expect((await admin.waitFor((e) => e.event === 'hello', 'hello')).data.topics).to.deep.equal(['health', 'items', 'jobs', 'transitions']);
    const dataReader = await open(reader);
    expect((await dataReader.waitFor((e) => e.event === 'hello', 'hello')).data.topics).to.deep.equal(['health', 'items', 'transitions']);
  });

  it('sends item changes as the engine appends them, only those of the facility asked for', async () => {
    const all = await open(reader);
    const south = await open(reader, '?facility=South');
    await all.waitFor((e) => e.event === 'hello', 'hello');
    await south.waitFor((e) => e.event === 'hello', 'hello');
    await appendChanges([
      change({ epc: 'E280000000000000000000A1' }),
      change({ epc: 'E280000000000000000000A2', toFacility: 'South', toZone: 'S1' }),
      change({ epc: 'E280000000000000000000A3', reportToDatabaseEnabled: false }),
    ]);
    const items = await all.waitFor((e) => e.event === 'items', 'items event');
    expect(items.data.changes).to.deep.equal([
      { epc: 'E280000000000000000000A1', kind: 'FIRST_SEEN', jobId: 'job-1', zone: 'Z1', fromZone: 'ABSENT', floor: '1', facility: 'North', fromFacility: null, x: 1.5, y: 2.25, time: new Date(T0).toISOString() },
      { epc: 'E280000000000000000000A2', kind: 'FIRST_SEEN', jobId: 'job-1', zone: 'S1', fromZone: 'ABSENT', floor: '1', facility: 'South', fromFacility: null, x: 1.5, y: 2.25, time: new Date(T0).toISOString() },
    ]);
    const southItems = await south.waitFor((e) => e.event === 'items', 'items event');
    expect(southItems.data.changes.map((c: { epc: string }) => c.epc)).to.deep.equal(['E280000000000000000000A2']);
  });

  it('sends door passages as the engine appends them, as the transitions query shows them, only those of the facility asked for', async () => {
    const all = await open(reader, '?topics=transitions');
    const south = await open(reader, '?facility=South&topics=transitions');
    await all.waitFor((e) => e.event === 'hello', 'hello');
    await south.waitFor((e) => e.event === 'hello', 'hello');
    const passage = (epc: string, facility: string, over: Partial<ThresholdTransition> = {}): ThresholdTransition => ({
      transitionId: `t-${epc}`, jobId: 'door-job', thresholdId: 7, thresholdName: `${facility} door`, facility, epc, tid: null,
      destination: 'IN', confidence: 0.875, observationTime: T0 + 500, reportToDatabaseEnabled: true, reportToMessageQueueEnabled: true, ...over,
    });
    await client.appendToStream(ENGINE_STREAM, [encodeEvent(itemEvents, { type: 'ItemsChanged', data: { inputPosition: '0', at: T0, changes: [], transitions: [
      passage('E280000000000000000000C1', 'North'),
      passage('E280000000000000000000C2', 'South', { destination: 'OUT' }),
      passage('E280000000000000000000C3', 'North', { reportToDatabaseEnabled: false }),
    ] } })]);
    const got = await all.waitFor((e) => e.event === 'transitions', 'transitions event');
    expect(got.data.transitions).to.deep.equal([
      { thresholdId: 7, thresholdName: 'North door', epc: 'E280000000000000000000C1', jobId: 'door-job', transitionId: 't-E280000000000000000000C1', destination: 'IN', confidence: 0.875, creationTime: new Date(T0 + 500).toISOString(), facility: 'North' },
      { thresholdId: 7, thresholdName: 'South door', epc: 'E280000000000000000000C2', jobId: 'door-job', transitionId: 't-E280000000000000000000C2', destination: 'OUT', confidence: 0.875, creationTime: new Date(T0 + 500).toISOString(), facility: 'South' },
    ]);
    const southGot = await south.waitFor((e) => e.event === 'transitions', 'transitions event');
    expect(southGot.data.transitions.map((t: { epc: string }) => t.epc)).to.deep.equal(['E280000000000000000000C2']);
    expect(all.events.filter((e) => e.event === 'items'), 'a stream asking for transitions only gets no item changes').to.deep.equal([]);
  });

  it('sends job state changes to job runners only, and never an agent secret', async () => {
    const admin = await open(ADMIN);
    const dataReader = await open(reader);
    await admin.waitFor((e) => e.event === 'hello', 'hello');
    await dataReader.waitFor((e) => e.event === 'hello', 'hello');
    expectStatus(await app.request('POST', '/configuration/v1/readerDefinitions/create', { body: { name: 'dock-1', type: 'XARRAY' } }), 200);
    // Issuing an agent secret appends AgentSecretIssued to a watched stream: it must not be forwarded.
    const secret = await app.request('PUT', '/agent/v1/readers/dock-1/secret');
    expectStatus(secret, 200);
    expectStatus(await app.request('POST', `${RC}/create`, { body: { name: 'inv', operation: 'INVENTORY', configuration: { readerMode: 'MAX_THROUGHPUT', session: 2, searchMode: 'DUAL_TARGET' } } }), 200);
    expectStatus(await app.request('POST', `${RECIPES}/create`, { body: { name: 'inv', type: 'INVENTORY', readerConfigurationName: 'inv' } }), 200);
    const job = await app.request('POST', '/control/v1/jobs/start', { body: { recipeName: 'inv', startDelay: 'PT1H' } });
    expectStatus(job, 200);
    const started = await admin.waitFor((e) => e.event === 'job' && e.data.jobId === job.body.id, 'job event');
    expect(started.data).to.include({ type: 'JobStarted', status: 'WAITING' });
    expectStatus(await app.request('POST', `/control/v1/jobs/stop/${job.body.id}`), 204);
    await admin.waitFor((e) => e.event === 'job' && e.data.type === 'JobStopped', 'JobStopped');
    await appendChanges([change({ epc: 'E280000000000000000000B1' })]);
    await dataReader.waitFor((e) => e.event === 'items' && e.data.changes[0].epc === 'E280000000000000000000B1', 'later items event');
    expect(dataReader.events.filter((e) => e.event === 'job'), 'DataReader gets no job events').to.deep.equal([]);
    const everything = JSON.stringify([...admin.events, ...dataReader.events]);
    expect(everything).not.to.contain(secret.body.secret);
    expect(everything).not.to.contain('secretSha256');
  });

  it('ends open streams when the service stops', async () => {
    const s = await open(ADMIN);
    await s.waitFor((e) => e.event === 'hello', 'hello');
    await app.stop();
    const deadline = Date.now() + 5_000;
    while (!s.ended && Date.now() < deadline) await sleep(20);
    expect(s.ended).to.equal(true);
    app = undefined as unknown as TestApp;
  });
});
