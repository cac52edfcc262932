// Reader definitions through HTTP, against the whole service in-process
// (embedded event store, real Redis under a key prefix of its own). The
// tests of one describe share an app and run in order: the facility rules
// need a second facility, created halfway.
import { expect } from 'chai';
import { startTestApp, type TestApp } from '../support/app';
import { logHead } from '../support/log-head';
import { errorPaths, FACILITIES, READERS, userWithRole } from './e2e-support';

const dockBody = {
  name: 'dock',
  address: 'dock.local',
  groups: ['inbound', 'dock'],
  type: 'XARRAY',
  placement: { x: 1, y: 2, z: 3, yaw: 90, floor: 1 },
  readerZone: 'Dock',
  antennaZones: { '1': 'DockLeft', '2': 'DockRight' },
};

const dockStored = {
  name: 'dock',
  agentIdentifier: 'dock',
  address: 'dock.local',
  groups: ['inbound', 'dock'],
  type: 'XARRAY',
  // The floor comes back with the type it was sent with.
  placement: { x: 1, y: 2, z: 3, yaw: 90, pitch: 0, roll: 0, floor: 1 },
  facility: 'DEFAULT',
  features: {},
  labels: null,
  readerZone: 'Dock',
  antennaZones: { '1': 'DockLeft', '2': 'DockRight' },
  connection: null,
};

describe('reader definitions over HTTP', function () {
  this.timeout(60_000);
  let app: TestApp;
  before(async () => {
    app = await startTestApp();
  });
  after(async () => app?.stop());

  describe('with the one facility DEFAULT', () => {
    it('create, show (read-your-writes), list, replace, delete', async () => {
      const created = await app.request('POST', `${READERS}/create`, { body: dockBody });
      expect(created.status, JSON.stringify(created.body)).to.equal(200);
      expect(created.body).to.deep.equal(dockStored);

      const shown = await app.request('GET', `${READERS}/show/dock`);
      expect(shown.status).to.equal(200);
      expect(shown.body).to.deep.equal(dockStored);

      const minimal = await app.request('POST', `${READERS}/create`, { body: { name: 'bare' } });
      expect(minimal.status).to.equal(200);
      expect(minimal.body).to.deep.equal({
        name: 'bare', agentIdentifier: 'bare', address: null, groups: [], type: null, placement: null,
        facility: 'DEFAULT', features: {}, labels: null, readerZone: null, antennaZones: null, connection: null,
      });

      const list = await app.request('GET', `${READERS}/show`);
      expect(list.status).to.equal(200);
      expect(list.body.map((r: { name: string }) => r.name)).to.deep.equal(['bare', 'dock']);
      expect(list.body[1]).to.deep.equal(dockStored);

      const replaced = await app.request('PUT', `${READERS}/createOrReplace`, {
        body: { ...dockBody, address: '10.0.0.7', labels: ['north'], facility: 'DEFAULT' },
      });
      expect(replaced.status, JSON.stringify(replaced.body)).to.equal(200);
      expect(replaced.body).to.deep.equal({ ...dockStored, address: '10.0.0.7', labels: ['north'] });
      expect((await app.request('GET', `${READERS}/show/dock`)).body.address).to.equal('10.0.0.7');

      expect((await app.request('DELETE', `${READERS}/destroy/bare`)).status).to.equal(204);
      expect((await app.request('GET', `${READERS}/show/bare`)).status).to.equal(404);
      expect((await app.request('DELETE', `${READERS}/destroy/bare`)).status).to.equal(404);
      expect((await app.request('GET', `${READERS}/show`)).body.map((r: { name: string }) => r.name)).to.deep.equal(['dock']);
    });

    it('createOrReplace creates a reader that does not exist', async () => {
      const res = await app.request('PUT', `${READERS}/createOrReplace`, { body: { name: 'gate', groups: ['dock'] } });
      expect(res.status).to.equal(200);
      expect(res.body).to.include({ name: 'gate', agentIdentifier: 'gate', facility: 'DEFAULT' });
    });

    it('refuses to create a name that exists (409), and leaves it as it was', async () => {
      const head = await logHead(app.eventStoreConnectionString);
      const dup = await app.request('POST', `${READERS}/create`, { body: { ...dockBody, address: 'other' } });
      expect(dup.status).to.equal(409);
      expect(dup.body.message).to.match(/dock/);
      expect(await logHead(app.eventStoreConnectionString)).to.equal(head);
      expect((await app.request('GET', `${READERS}/show/dock`)).body.address).to.equal('10.0.0.7');
    });

    it('answers 400 naming the field for a bad body, and writes nothing', async () => {
      const head = await logHead(app.eventStoreConnectionString);
      const cases: Array<[unknown, string]> = [
        [{ name: '' }, 'body.name'],
        [{ name: 'x', type: 'TOASTER' }, 'body.type'],
        [{ name: 'x', placement: { floor: true } }, 'body.placement.floor'],
        [{ name: 'x', antennaZones: { '53': 'Z' } }, 'body.antennaZones.53'],
        [{ name: 'x', facility: 'Nowhere' }, 'body.facility'],
      ];
      for (const [body, path] of cases) {
        const res = await app.request('POST', `${READERS}/create`, { body });
        expect(res.status, JSON.stringify(body)).to.equal(400);
        expect(errorPaths(res.body), JSON.stringify(body)).to.include(path);
      }
      expect(await logHead(app.eventStoreConnectionString)).to.equal(head);
    });

    it('refuses to remove a floor once set (400), and keeps the stored document', async () => {
      const before = (await app.request('GET', `${READERS}/show/dock`)).body;
      const head = await logHead(app.eventStoreConnectionString);
      const noFloor = await app.request('PUT', `${READERS}/createOrReplace`, { body: { ...dockBody, placement: { x: 1, y: 2, floor: null } } });
      expect(noFloor.status).to.equal(400);
      expect(errorPaths(noFloor.body)).to.deep.equal(['body.placement.floor']);
      const noPlacement = await app.request('PUT', `${READERS}/createOrReplace`, { body: { ...dockBody, placement: null } });
      expect(noPlacement.status).to.equal(400);
      expect(errorPaths(noPlacement.body)).to.deep.equal(['body.placement']);
      expect(await logHead(app.eventStoreConnectionString)).to.equal(head);
      expect((await app.request('GET', `${READERS}/show/dock`)).body).to.deep.equal(before);
    });

    it('changing the floor needs renamed zones: 400 naming each unrenamed one, 200 once renamed', async () => {
      const head = await logHead(app.eventStoreConnectionString);
      const same = await app.request('PUT', `${READERS}/createOrReplace`, {
        body: { ...dockBody, placement: { ...dockBody.placement, floor: '2' }, antennaZones: { '1': 'Upper1', '2': 'DockRight' } },
      });
      expect(same.status).to.equal(400);
      expect(errorPaths(same.body)).to.deep.equal(['body.readerZone', 'body.antennaZones.2']);
      expect(await logHead(app.eventStoreConnectionString)).to.equal(head);

      const renamed = await app.request('PUT', `${READERS}/createOrReplace`, {
        body: { ...dockBody, placement: { ...dockBody.placement, floor: '2' }, readerZone: 'Upper', antennaZones: { '1': 'Upper1', '2': 'Upper2' } },
      });
      expect(renamed.status, JSON.stringify(renamed.body)).to.equal(200);
      const shown = (await app.request('GET', `${READERS}/show/dock`)).body;
      expect(shown.placement.floor).to.equal('2');
      expect(shown).to.include({ readerZone: 'Upper', agentIdentifier: 'dock' });
    });

    it('groups: every group name once, sorted', async () => {
      await app.request('PUT', `${READERS}/createOrReplace`, { body: { name: 'west', groups: ['outbound', 'dock', 'outbound'] } });
      const res = await app.request('GET', `${READERS}/groups`);
      expect(res.status).to.equal(200);
      // dock: inbound, dock; gate: dock; west: outbound, dock, outbound
      expect(res.body).to.deep.equal(['dock', 'inbound', 'outbound']);
    });
  });

  describe('with several facilities', () => {
    before(async () => {
      const res = await app.request('POST', `${FACILITIES}/create`, { body: { name: 'Store2' } });
      expect(res.status).to.equal(200);
    });

    it('requires the facility (400 naming body.facility) on create and createOrReplace', async () => {
      const head = await logHead(app.eventStoreConnectionString);
      for (const [method, path] of [['POST', 'create'], ['PUT', 'createOrReplace']] as const) {
        const res = await app.request(method, `${READERS}/${path}`, { body: { name: 'north' } });
        expect(res.status, path).to.equal(400);
        expect(res.body.errors).to.deep.equal([
          { path: 'body.facility', reason: 'required when more than one facility exists', message: 'required when more than one facility exists' },
        ]);
      }
      expect(await logHead(app.eventStoreConnectionString)).to.equal(head);
      const ok = await app.request('POST', `${READERS}/create`, { body: { name: 'north', facility: 'Store2' } });
      expect(ok.status).to.equal(200);
      expect(ok.body.facility).to.equal('Store2');
    });

    it('moving a reader to another facility without renaming its zones is 400 naming them; nothing is written', async () => {
      const before = (await app.request('GET', `${READERS}/show/dock`)).body;
      const head = await logHead(app.eventStoreConnectionString);
      const body = { ...dockBody, facility: 'Store2', placement: { ...dockBody.placement, floor: '2' }, readerZone: 'Upper', antennaZones: { '1': 'Upper1', '2': 'Upper2' } };
      const res = await app.request('PUT', `${READERS}/createOrReplace`, { body });
      expect(res.status).to.equal(400);
      expect(errorPaths(res.body)).to.deep.equal(['body.readerZone', 'body.antennaZones.1', 'body.antennaZones.2']);
      expect(res.body.errors[0].reason).to.match(/facility DEFAULT -> Store2/);
      expect(await logHead(app.eventStoreConnectionString)).to.equal(head);
      expect((await app.request('GET', `${READERS}/show/dock`)).body).to.deep.equal(before);

      const moved = await app.request('PUT', `${READERS}/createOrReplace`, {
        body: { ...body, readerZone: 'S2Dock', antennaZones: { '1': 'S2Left', '2': 'S2Right' } },
      });
      expect(moved.status, JSON.stringify(moved.body)).to.equal(200);
      expect((await app.request('GET', `${READERS}/show/dock`)).body).to.include({ facility: 'Store2', readerZone: 'S2Dock' });
    });

    it('a facility used by a reader cannot be deleted (409 naming the readers); it can once they are gone', async () => {
      const refused = await app.request('DELETE', `${FACILITIES}/destroy/Store2`);
      expect(refused.status).to.equal(409);
      expect(refused.body.message).to.equal('facility "Store2" is used by reader definitions "dock", "north"');
      expect((await app.request('GET', `${FACILITIES}/show/Store2`)).status).to.equal(200);

      expect((await app.request('DELETE', `${READERS}/destroy/dock`)).status).to.equal(204);
      expect((await app.request('DELETE', `${READERS}/destroy/north`)).status).to.equal(204);
      expect((await app.request('DELETE', `${FACILITIES}/destroy/Store2`)).status).to.equal(204);
    });
  });

  describe('roles and unknown names', () => {
    it('JobRunner may show but not write nor list groups; ConfigManager may do all', async () => {
      const runner = await userWithRole(app, 'rd-runner', 'JobRunner');
      const manager = await userWithRole(app, 'rd-manager', 'ConfigManager');
      expect((await app.request('GET', `${READERS}/show`, { auth: runner })).status).to.equal(200);
      expect((await app.request('GET', `${READERS}/show/gate`, { auth: runner })).status).to.equal(200);
      expect((await app.request('GET', `${READERS}/groups`, { auth: runner })).status).to.equal(403);
      expect((await app.request('POST', `${READERS}/create`, { auth: runner, body: { name: 'r9' } })).status).to.equal(403);
      expect((await app.request('DELETE', `${READERS}/destroy/gate`, { auth: runner })).status).to.equal(403);
      expect((await app.request('POST', `${READERS}/create`, { auth: manager, body: { name: 'r9' } })).status).to.equal(200);
      expect((await app.request('GET', `${READERS}/groups`, { auth: manager })).status).to.equal(200);
      expect((await app.request('DELETE', `${READERS}/destroy/r9`, { auth: manager })).status).to.equal(204);
    });

    it('404 for an unknown name on show and destroy', async () => {
      expect((await app.request('GET', `${READERS}/show/nope`)).status).to.equal(404);
      const res = await app.request('DELETE', `${READERS}/destroy/nope`);
      expect(res.status).to.equal(404);
      expect(res.body.message).to.match(/nope/);
    });
  });
  describe('connection (how tagtrail reaches the reader)', () => {
    it('LLRP gets its default port; an IOT password is never returned and is kept by a replace that leaves it out', async () => {
      const llrp = await app.request('POST', `${READERS}/create`, { body: { name: 'llrp-1', address: '10.1.2.3', connection: { protocol: 'LLRP' } } });
      expect(llrp.status, JSON.stringify(llrp.body)).to.equal(200);
      expect(llrp.body.connection).to.deep.equal({ protocol: 'LLRP', port: 5084 });

      const iot = await app.request('POST', `${READERS}/create`, { body: { name: 'r700', address: 'r700.local', connection: { protocol: 'IOT', password: 'not-for-eyes', delivery: 'MQTT' } } });
      expect(iot.status, JSON.stringify(iot.body)).to.equal(200);
      const shown = await app.request('GET', `${READERS}/show/r700`);
      expect(shown.body.connection).to.deep.equal({ protocol: 'IOT', scheme: 'https', port: null, username: 'root', passwordSet: true, delivery: 'MQTT' });
      const list = await app.request('GET', `${READERS}/show`);
      expect(JSON.stringify([iot.body, shown.body, list.body])).not.to.contain('not-for-eyes');

      const replaced = await app.request('PUT', `${READERS}/createOrReplace`, { body: { name: 'r700', address: 'r700.local', connection: { protocol: 'IOT', delivery: 'WEBHOOK' } } });
      expect(replaced.status).to.equal(200);
      expect(replaced.body.connection).to.include({ passwordSet: true, delivery: 'WEBHOOK' });
    });

    it('refuses an LLRP reader without an address, or a bad connection, with 400 naming the field and nothing stored', async () => {
      const noAddress = await app.request('POST', `${READERS}/create`, { body: { name: 'lost', connection: { protocol: 'LLRP' } } });
      expect(noAddress.status).to.equal(400);
      expect(errorPaths(noAddress.body)).to.deep.equal(['body.address']);
      const badPort = await app.request('POST', `${READERS}/create`, { body: { name: 'lost', address: 'a', connection: { protocol: 'LLRP', port: 0 } } });
      expect(errorPaths(badPort.body)).to.deep.equal(['body.connection.port']);
      expect((await app.request('GET', `${READERS}/show/lost`)).status).to.equal(404);
    });
  });
});
