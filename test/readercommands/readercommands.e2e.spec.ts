// Time sync and reader reboot (/support/v1) end to end: the request is
// accepted with a Location, simulated agents take the command at check-in
// and report, the status shows the result per reader; a rebooted reader
// reports the request's reason as a LIFECYCLE REBOOT health event. Bad
// requests are 400s naming the field and append nothing.
import { expect } from 'chai';
import { silent } from '../support/logger';
import { parseOptions } from '../../src/simulator/options';
import { runSimulation } from '../../src/simulator/run';
import { getUntil, startTestApp, type TestApp } from '../support/app';
import { logHead } from '../support/log-head';

const S = '/support/v1';
const READERS = ['sim-xarray-1', 'sim-xspan-2', 'sim-speedway-3'];

describe('support reader commands: time sync and reboot', function () {
  this.timeout(120_000);
  let app: TestApp;
  afterEach(async () => app?.stop());

  it('bad requests are 400 naming the field and append nothing; an unknown request is a 404', async () => {
    app = await startTestApp();
    expect((await app.request('POST', '/configuration/v1/readerDefinitions/create', { body: { name: 'r-1', type: 'XARRAY' } })).status).to.equal(200);
    const before = await logHead(app.eventStoreConnectionString);
    const cases: Array<[string, unknown, string]> = [
      ['timeSync', { readerNames: ['r-1', 'nope'] }, 'body.readerNames.1'],
      ['timeSync', { readerNames: ['r-1'], facility: 'DEFAULT' }, 'body.facility'],
      ['timeSync', { facility: 'NO-SUCH' }, 'body.facility'],
      ['timeSync', { readerNames: [] }, 'body.readerNames'],
      ['timeSync', { readerNames: 'r-1' }, 'body.readerNames'],
      ['readerReboot', {}, 'body.readerNames'],
      ['readerReboot', { readerNames: ['nope'] }, 'body.readerNames.0'],
      ['readerReboot', { readerNames: ['r-1'], reason: 5 }, 'body.reason'],
    ];
    for (const [op, body, path] of cases) {
      const res = await app.request('POST', `${S}/${op}`, { body });
      expect(res.status, `${op} ${JSON.stringify(body)}`).to.equal(400);
      expect(res.body.errors.map((e: { path: string }) => e.path), `${op} ${JSON.stringify(body)}`).to.include(path);
    }
    expect(await logHead(app.eventStoreConnectionString)).to.equal(before);
    expect((await app.request('GET', `${S}/readerCommands/show/no-such-request`)).status).to.equal(404);
  });

  it('time sync to every reader and a reboot of one go through the agents; results per reader; the reboot reason comes back as a LIFECYCLE REBOOT event', async () => {
    app = await startTestApp();
    const abort = new AbortController();
    const o = parseOptions(['--url', app.baseUrl, '--demo', '--readers', '3', '--families', 'XARRAY,XSPAN,SPEEDWAY', '--tags', '0', '--checkin-seconds', '0.5', '--progress', 'none']);
    const sim = runSimulation(o, { log: silent, signal: abort.signal });
    try {
      await getUntil(app, '/health/v1/readers', (b: Array<{ state: string }>) => b.filter((r) => r.state !== 'AWAITING_AGENT').length === 3);

      const sync = await app.request('POST', `${S}/timeSync`, { body: {} });
      expect(sync.status, JSON.stringify(sync.body)).to.equal(202);
      const location = sync.headers.get('location') ?? '';
      expect(location).to.match(new RegExp(`/itemsense${S}/readerCommands/show/${sync.body.requestId}$`));
      expect(sync.body).to.include({ type: 'TIME_SYNC', completed: false });
      expect(sync.body.readers.map((r: { readerName: string }) => r.readerName)).to.deep.equal([...READERS].sort());
      const synced = await getUntil(app, location.replace('/itemsense', ''), (b) => b.completed === true);
      for (const r of synced.readers) {
        expect(r.status, r.readerName).to.equal('DONE');
        expect(r.message).to.match(/clock synchronised/);
        expect(r.deliveredAt).to.be.a('string');
      }

      const reboot = await app.request('POST', `${S}/readerReboot`, { body: { readerNames: ['sim-xspan-2'], reason: 'field test 42' } });
      expect(reboot.status, JSON.stringify(reboot.body)).to.equal(202);
      expect(reboot.body).to.include({ type: 'REBOOT' });
      expect(reboot.body.args).to.deep.equal({ reason: 'field test 42' });
      const rebooted = await getUntil(app, `${S}/readerCommands/show/${reboot.body.requestId}`, (b) => b.completed === true);
      expect(rebooted.readers).to.have.length(1);
      expect(rebooted.readers[0]).to.include({ readerName: 'sim-xspan-2', status: 'DONE' });
      // Back after its reboot (5 s in the simulator), the reader reports why it rebooted.
      const health = await getUntil(app, '/health/v1/readers/sim-xspan-2', (b) => b.lastRebootReason === 'field test 42', 'the reboot reason in the reader\'s health', 20_000);
      expect(health.lastReboot).to.be.a('string');
      const events = await app.request('POST', '/health/v1/events', { body: { readerNames: ['sim-xspan-2'], codes: ['REBOOT'] } });
      expect(events.body.events.map((e: { type: string; args: unknown }) => [e.type, e.args])).to.deep.equal([['LIFECYCLE', { reason: 'field test 42' }]]);
    } finally {
      abort.abort();
      await sim.catch(() => undefined);
    }
  });
});
