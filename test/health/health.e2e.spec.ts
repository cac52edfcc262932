import { expect } from 'chai';
import { EventStoreDBClient } from '@eventstore/db-client';
import { encodeEvent } from '../../src/core/events';
import { healthEvents, healthStream, agentStream, type HealthStreamEvent } from '../../src/health/events';
import { startTestApp, type TestApp } from '../support/app';
import { errorPaths, userWithRole } from '../readerdefinitions/e2e-support';
import { agentAuthorization } from '../../src/agents/guard';
import { waitForValue } from '../support/wait';

const READERS = '/health/v1/readers';
const EVENTS = '/health/v1/events';
const T0 = Date.parse('2026-11-23T10:00:00.000Z');
const at = (sec: number): string => new Date(T0 + sec * 1000).toISOString();

const reported = (reader: string, sec: number, type: string, code: string, args: Record<string, unknown> = {}): HealthStreamEvent =>
  ({ type: 'HealthEventReported', data: { readerName: reader, eventTime: at(sec), type, code, args } }) as HealthStreamEvent;
const checkedIn = (reader: string, iso: string, state: 'IDLE' | 'RUNNING_JOB' = 'IDLE'): HealthStreamEvent => ({
  type: 'AgentCheckedIn',
  data: { reader, agentId: `agent-${reader}`, versions: { App: '1.4.2', Firmware: '7.6.1' }, state, at: iso },
});

const eventually = <T>(read: () => Promise<T>, ok: (v: T) => boolean): Promise<T> => waitForValue('the reader health to change', read, ok, { timeoutMs: 8000 });

describe('reader health over HTTP', function () {
  this.timeout(60_000);
  let app: TestApp;
  let client: EventStoreDBClient;
  const append = async (stream: string, ...events: HealthStreamEvent[]) => {
    await client.appendToStream(stream, events.map((e) => encodeEvent(healthEvents, e, { user: 'test' })));
  };

  before(async () => {
    // Short check-in interval: NOT_RESPONDING after 3 x 0.3 s; the checker ticks every 0.3 s.
    app = await startTestApp({ HEALTH_CHECKIN_INTERVAL_SECONDS: '0.3' });
    client = EventStoreDBClient.connectionString(app.eventStoreConnectionString);
    for (const name of ['r1', 'r2', 'r3', 'r4']) {
      const res = await app.request('POST', '/configuration/v1/readerDefinitions/create', { body: { name } });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
    }
  });
  after(async () => {
    await client?.dispose();
    await app?.stop();
  });

  it('lists every defined reader as AWAITING_AGENT before any check-in; an unknown reader is 404', async () => {
    const list = await app.request('GET', READERS);
    expect(list.status).to.equal(200);
    expect(list.body.map((h: { readerName: string }) => h.readerName)).to.deep.equal(['r1', 'r2', 'r3', 'r4']);
    expect(list.body[0]).to.deep.equal({
      readerName: 'r1', state: 'AWAITING_AGENT', lastCheckin: null, lastReboot: null, lastRebootReason: null, version: null, temperature: null,
      connectionStatus: { status: 'HEALTHY', code: null },
      throughputStatus: { status: 'HEALTHY', code: null },
      clockSyncStatus: { status: 'HEALTHY', code: null },
      hardwareStatus: { status: 'HEALTHY', code: null, devices: [] },
      softwareStatus: { status: 'HEALTHY', code: null },
    });
    expect((await app.request('GET', `${READERS}/nope`)).status).to.equal(404);
  });

  it('derives state, statuses, version and lastReboot from the agent and health events', async () => {
    const now = Date.now();
    const recent = (sec: number) => new Date(now + sec * 1000).toISOString();
    await append(agentStream('r1'), checkedIn('r1', recent(0), 'RUNNING_JOB'));
    await append(healthStream('r1'),
      { type: 'HealthEventReported', data: { readerName: 'r1', eventTime: recent(-2), type: 'THROUGHPUT', code: 'DROPPED_READ', args: { message: 'x' } } },
      { type: 'HealthEventReported', data: { readerName: 'r1', eventTime: recent(-1), type: 'LIFECYCLE', code: 'REBOOT', args: { reason: 'power' } } });
    const h = await eventually(() => app.request('GET', `${READERS}/r1`), (r) => r.body.lastReboot !== null);
    expect(h.status).to.equal(200);
    expect(h.body).to.include({ readerName: 'r1', state: 'RUNNING_JOB', lastReboot: recent(-1), lastRebootReason: 'power' });
    expect(h.body.version).to.deep.equal({ App: '1.4.2', Firmware: '7.6.1' });
    expect(h.body.throughputStatus).to.deep.equal({ status: 'WARNING', code: 'DROPPED_READ' });

    await append(healthStream('r1'), { type: 'HealthEventReported', data: { readerName: 'r1', eventTime: recent(0), type: 'LIFECYCLE', code: 'HEALTH_RESET', args: {} } });
    await eventually(() => app.request('GET', `${READERS}/r1`), (r) => r.body.throughputStatus.status === 'HEALTHY');
  });

  it('NOT_RESPONDING after missed check-ins, recorded as events, and responding again at the next check-in', async () => {
    await append(agentStream('r2'), checkedIn('r2', new Date().toISOString()));
    await eventually(() => app.request('GET', `${READERS}/r2`), (r) => r.body.state === 'IDLE');
    await eventually(() => app.request('GET', `${READERS}/r2`), (r) => r.body.state === 'NOT_RESPONDING');
    const recorded = await eventually(
      () => app.request('POST', EVENTS, { body: { readerNames: ['r2'], codes: ['NOT_RESPONDING'] } }),
      (r) => r.body.events?.length === 1,
    );
    expect(recorded.body.events[0]).to.include({ readerName: 'r2', type: 'LIFECYCLE', code: 'NOT_RESPONDING' });

    // The gateway writes lastCheckin into Redis at every check-in; an event does too.
    await append(agentStream('r2'), checkedIn('r2', new Date().toISOString()));
    await eventually(
      () => app.request('POST', EVENTS, { body: { readerNames: ['r2'], codes: ['RESPONDING'] } }),
      (r) => r.body.events?.length === 1,
    );
  });

  it('through the agent gateway: check-in and reported health events show up, lastCheckin from the gateway', async () => {
    const secret = (await app.request('PUT', '/agent/v1/readers/r4/secret')).body.secret as string;
    const auth = agentAuthorization('r4', secret);
    const checkin = { agentId: 'sim-4', versions: { App: '2.0.0', Firmware: '7.6.1' }, state: 'RUNNING_JOB', temperatureCelsius: 47.5 };
    expect((await app.request('POST', '/agent/v1/readers/r4/checkin', { body: checkin, auth })).status).to.equal(200);
    const events = [{ eventTime: new Date().toISOString(), type: 'CLOCK_SYNC', code: 'NTP', args: { message: 'drift' } }];
    expect((await app.request('POST', '/agent/v1/readers/r4/health', { body: { events }, auth })).status).to.equal(204);
    const h = await eventually(() => app.request('GET', `${READERS}/r4`), (r) => r.body.clockSyncStatus?.status === 'WARNING');
    expect(h.body).to.include({ state: 'RUNNING_JOB' });
    expect(h.body.version).to.deep.equal({ App: '2.0.0', Firmware: '7.6.1' });
    expect(h.body.temperature?.celsius).to.equal(47.5);
    const bad = await app.request('POST', '/agent/v1/readers/r4/checkin', { body: { ...checkin, temperatureCelsius: 'hot' }, auth });
    expect(bad.status).to.equal(400);
    expect(JSON.stringify(bad.body)).to.contain('temperatureCelsius');
    expect(h.body.clockSyncStatus).to.deep.equal({ status: 'WARNING', code: 'NTP' });
    const found = await app.request('POST', EVENTS, { body: { readerNames: ['r4'], codes: ['NTP'] } });
    expect(found.body.events).to.deep.equal([{ readerName: 'r4', ...events[0] }]);
  });

  describe('POST /health/v1/events', () => {
    before(async () => {
      const evs: HealthStreamEvent[] = [];
      for (let i = 0; i < 10; i++) evs.push(reported('r3', i, i % 2 ? 'CONNECTION' : 'THROUGHPUT', i % 2 ? 'NETWORK' : 'REPORT_BUFFER', { i }));
      await append(healthStream('r3'), ...evs);
      await eventually(() => app.request('POST', EVENTS, { body: { readerNames: ['r3'] } }), (r) => r.body.events?.length === 10);
    });

    it('filters by reader, type, code and time, oldest first', async () => {
      const all = await app.request('POST', EVENTS, { body: { readerNames: ['r3'] } });
      expect(all.body.events.map((e: { args: { i: number } }) => e.args.i)).to.deep.equal([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
      expect(all.body.nextPageMarker).to.equal(null);
      expect(all.body.events[0]).to.deep.equal({ eventTime: at(0), readerName: 'r3', type: 'THROUGHPUT', code: 'REPORT_BUFFER', args: { i: 0 } });

      const byType = await app.request('POST', EVENTS, { body: { readerNames: ['r3', 'r1'], types: ['CONNECTION'] } });
      expect(byType.body.events.map((e: { args: { i: number } }) => e.args.i)).to.deep.equal([1, 3, 5, 7, 9]);
      const byCode = await app.request('POST', EVENTS, { body: { codes: ['REPORT_BUFFER'], fromTime: at(2), toTime: at(6) } });
      expect(byCode.body.events.map((e: { args: { i: number } }) => e.args.i)).to.deep.equal([2, 4, 6]);
      const none = await app.request('POST', EVENTS, { body: { readerNames: ['r3'], types: ['CLOCK_SYNC'] } });
      expect(none.body).to.deep.equal({ events: [], nextPageMarker: null });
    });

    it('pages with nextPageMarker until null; a marker with other filters is a 400', async () => {
      const seen: number[] = [];
      let marker: string | null | undefined;
      let pages = 0;
      do {
        const res = await app.request('POST', EVENTS, { body: { readerNames: ['r3'], pageSize: 3, ...(marker ? { nextPageMarker: marker } : {}) } });
        expect(res.status).to.equal(200);
        seen.push(...res.body.events.map((e: { args: { i: number } }) => e.args.i));
        marker = res.body.nextPageMarker;
        pages++;
        if (pages === 1) {
          const other = await app.request('POST', EVENTS, { body: { readerNames: ['r1'], nextPageMarker: marker } });
          expect(other.status).to.equal(400);
          expect(errorPaths(other.body)).to.deep.equal(['body.nextPageMarker']);
        }
      } while (marker);
      expect(seen).to.deep.equal([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
      expect(pages).to.equal(4);
    });

    it('answers 400 naming the field for bad filter values', async () => {
      for (const [body, path] of [
        [{ types: ['NOPE'] }, 'body.types.0'],
        [{ codes: ['NOPE'] }, 'body.codes.0'],
        [{ fromTime: 'soon' }, 'body.fromTime'],
        [{ pageSize: 5000 }, 'body.pageSize'],
        [{ readerNames: [1] }, 'body.readerNames.0'],
        [{ readerNames: ['r1', 'x'.repeat(100_000)] }, 'body.readerNames.1'],
        [{ readerNames: ['x'.repeat(257)] }, 'body.readerNames.0'],
        [{ readerNames: [''] }, 'body.readerNames.0'],
      ] as const) {
        const res = await app.request('POST', EVENTS, { body });
        expect(res.status, JSON.stringify(body)).to.equal(400);
        expect(errorPaths(res.body)).to.deep.equal([path]);
      }
    });

    it('is allowed to DataReader (roles.e2e checks every role of every route)', async () => {
      const reader = await userWithRole(app, 'dr', 'DataReader');
      expect((await app.request('POST', EVENTS, { body: {}, auth: reader })).status).to.equal(200);
      expect((await app.request('GET', READERS, { auth: reader })).status).to.equal(200);
    });
  });
});
