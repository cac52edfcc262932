// Zone maps and the current zone map through HTTP, against the whole service
// in-process (embedded event store, real Redis under a key prefix of its own).
import { expect } from 'chai';
import { EventStoreDBClient } from '@eventstore/db-client';
import { isLeft } from 'fp-ts/Either';
import { startTestApp, basic, type TestApp } from '../support/app';
import { logHead } from '../support/log-head';
import { runCommand } from '../../src/core/command';
import { hashPassword } from '../../src/auth/password';
import type { Role } from '../../src/auth/roles';
import { onUser } from '../../src/users/decide';
import { sleep } from '../support/wait';

const ZM = '/configuration/v1/zoneMaps';
const CURRENT = '/control/v1/currentZoneMap';
const FACILITIES = '/configuration/v1/facilities';

const rect = (name: string, x0: number, y0: number, x1: number, y1: number, extra: Record<string, unknown> = {}) => ({
  name,
  ...extra,
  points: [
    { x: x0, y: y0 },
    { x: x1, y: y1 },
  ],
});

/** The stored form of a rect() with z omitted and no floor. */
const storedRect = (name: string, x0: number, y0: number, x1: number, y1: number, floor: string | null = null) => ({
  name,
  floor,
  points: [
    { x: x0, y: y0, z: 0 },
    { x: x1, y: y1, z: 0 },
  ],
});

/** The app plus a client on its event store, for writing users (no user routes needed). */
async function startAppWithClient(): Promise<{ app: TestApp; client: EventStoreDBClient }> {
  const app = await startTestApp();
  return { app, client: EventStoreDBClient.connectionString(app.eventStoreConnectionString) };
}

/** Appends UserCreated for a new user and waits until it can log in. */
async function createUser(app: TestApp, client: EventStoreDBClient, name: string, roles: Role[]): Promise<string> {
  const password = `${name}-secret`;
  const command = { type: 'CreateUser' as const, name, roles, passwordHash: await hashPassword(password) };
  const result = await runCommand(client, onUser(name), command, { metadata: { user: 'test' } });
  if (isLeft(result)) throw new Error(`could not create user ${name}: ${JSON.stringify(result.left)}`);
  const auth = basic(name, password);
  for (const deadline = Date.now() + 5000; Date.now() < deadline; await sleep(20)) {
    // Any route the user may call answers something other than 401 once the auth read model has them.
    const res = await app.request('GET', `${CURRENT}/show/DEFAULT`, { auth });
    if (res.status !== 401) return auth;
  }
  throw new Error(`user ${name} never became visible to authentication`);
}

describe('zone maps over HTTP', function () {
  this.timeout(60_000);
  let app: TestApp;
  let client: EventStoreDBClient;
  before(async () => {
    ({ app, client } = await startAppWithClient());
  });
  after(async () => {
    await client?.dispose();
    await app?.stop();
  });

  it('starts with no zone maps', async () => {
    const res = await app.request('GET', `${ZM}/show`);
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal([]);
  });

  it('create, show (read-your-writes), show all, refuse a duplicate, replace, delete', async () => {
    const body = { name: 'ground', zones: [rect('A', 0, 0, 10, 10), rect('B', 20, 0, 30, 10, { floor: '1' })] };
    const created = await app.request('POST', `${ZM}/create`, { body });
    expect(created.status).to.equal(200);
    const stored = { name: 'ground', facility: 'DEFAULT', zones: [storedRect('A', 0, 0, 10, 10), storedRect('B', 20, 0, 30, 10, '1')] };
    expect(created.body).to.deep.equal(stored);

    const shown = await app.request('GET', `${ZM}/show/ground`);
    expect(shown.status).to.equal(200);
    expect(shown.body).to.deep.equal(stored);
    const all = await app.request('GET', `${ZM}/show`);
    expect(all.body).to.deep.equal([stored]);

    const dup = await app.request('POST', `${ZM}/create`, { body });
    expect(dup.status).to.equal(409);
    expect(dup.body.message).to.match(/ground/);

    const replacement = { name: 'ground', facility: 'DEFAULT', zones: [{ name: 'A', points: [{ x: 0, y: 0, z: 0 }, { x: 5, y: 0 }, { x: 0, y: 5 }] }] };
    const replaced = await app.request('PUT', `${ZM}/createOrReplace`, { body: replacement });
    expect(replaced.status).to.equal(200);
    const storedReplacement = {
      name: 'ground',
      facility: 'DEFAULT',
      zones: [{ name: 'A', floor: null, points: [{ x: 0, y: 0, z: 0 }, { x: 5, y: 0, z: 0 }, { x: 0, y: 5, z: 0 }] }],
    };
    expect(replaced.body).to.deep.equal(storedReplacement);
    expect((await app.request('GET', `${ZM}/show/ground`)).body).to.deep.equal(storedReplacement);

    const upserted = await app.request('PUT', `${ZM}/createOrReplace`, { body: { name: 'other', zones: [] } });
    expect(upserted.status).to.equal(200);
    expect((await app.request('GET', `${ZM}/show`)).body.map((z: { name: string }) => z.name)).to.deep.equal(['ground', 'other']);

    for (const name of ['ground', 'other']) expect((await app.request('DELETE', `${ZM}/destroy/${name}`)).status).to.equal(204);
    expect((await app.request('GET', `${ZM}/show/ground`)).status).to.equal(404);
    expect((await app.request('DELETE', `${ZM}/destroy/ground`)).status).to.equal(404);
    expect((await app.request('GET', `${ZM}/show`)).body).to.deep.equal([]);
  });

  it('accepts z omitted but refuses z null with 400 naming body.zones.0.points.0.z, and writes nothing', async () => {
    const before = (await app.request('GET', `${ZM}/show`)).body;
    const head = await logHead(app.eventStoreConnectionString);
    const body = { name: 'nullz', zones: [{ name: 'A', points: [{ x: 0, y: 0, z: null }, { x: 1, y: 1 }] }] };
    for (const [method, path] of [['POST', `${ZM}/create`], ['PUT', `${ZM}/createOrReplace`]] as const) {
      const res = await app.request(method, path, { body });
      expect(res.status).to.equal(400);
      const paths = (res.body.errors as Array<{ path: string; message: string }>).map((e) => e.path);
      expect(paths).to.include('body.zones.0.points.0.z');
      expect(res.body.errors[0].message).to.be.a('string');
    }
    expect((await app.request('GET', `${ZM}/show`)).body).to.deep.equal(before);
    expect((await app.request('GET', `${ZM}/show/nullz`)).status).to.equal(404);
    expect(await logHead(app.eventStoreConnectionString), 'nothing appended').to.equal(head);
  });

  it('refuses overlapping zones with both names in the message, and writes nothing', async () => {
    const body = { name: 'overlap', zones: [rect('Shelf', 0, 0, 10, 10), rect('Door', 5, 5, 15, 15)] };
    const head = await logHead(app.eventStoreConnectionString);
    const res = await app.request('POST', `${ZM}/create`, { body });
    expect(res.status).to.equal(400);
    expect(await logHead(app.eventStoreConnectionString), 'nothing appended').to.equal(head);
    expect(res.body.message).to.include('"Shelf"').and.to.include('"Door"');
    expect(res.body.errors.map((e: { path: string }) => e.path)).to.deep.equal(['body.zones.0', 'body.zones.1']);
    expect((await app.request('GET', `${ZM}/show/overlap`)).status).to.equal(404);
    expect((await app.request('GET', `${ZM}/show`)).body).to.deep.equal([]);
  });

  it('accepts zones that only touch, and the same area on different floors', async () => {
    const body = { name: 'touching', zones: [rect('Left', 0, 0, 10, 10), rect('Right', 10, 0, 20, 10), rect('Up', 0, 0, 10, 10, { floor: '2' })] };
    const res = await app.request('POST', `${ZM}/create`, { body });
    expect(res.status).to.equal(200);
    expect(res.body.zones).to.have.length(3);
    expect((await app.request('DELETE', `${ZM}/destroy/touching`)).status).to.equal(204);
  });

  it('refuses other invalid bodies with 400 naming the field', async () => {
    const cases: Array<[unknown, string]> = [
      [{ zones: [] }, 'body.name'],
      [{ name: 'x' }, 'body.zones'],
      [{ name: 'x', zones: [{ name: 'A', points: [{ x: 0, y: 0 }] }] }, 'body.zones.0.points'],
      [{ name: 'x', zones: [rect('FACILITY', 0, 0, 1, 1)] }, 'body.zones.0.name'],
      [{ name: 'x', facility: 'NOPE', zones: [] }, 'body.facility'],
    ];
    for (const [body, path] of cases) {
      const res = await app.request('POST', `${ZM}/create`, { body });
      expect(res.status, JSON.stringify(body)).to.equal(400);
      expect(res.body.errors.map((e: { path: string }) => e.path), JSON.stringify(body)).to.include(path);
    }
    expect((await app.request('GET', `${ZM}/show`)).body).to.deep.equal([]);
  });

  describe('current zone map', () => {
    it('select, show, refuse to delete the current one, replace it in place, clear', async () => {
      expect((await app.request('POST', `${ZM}/create`, { body: { name: 'live', zones: [rect('A', 0, 0, 1, 1)] } })).status).to.equal(200);
      expect((await app.request('POST', `${ZM}/create`, { body: { name: 'live-v2', zones: [rect('B', 0, 0, 2, 2)] } })).status).to.equal(200);

      // None selected: 200 with a null name (clients skip such answers), not 404.
      const none = await app.request('GET', `${CURRENT}/show/DEFAULT`);
      expect(none.status).to.equal(200);
      expect(none.body).to.deep.equal({ name: null, facility: 'DEFAULT' });

      const selected = await app.request('POST', `${CURRENT}/select/live`);
      expect(selected.status).to.equal(200);
      expect(selected.body).to.deep.equal({ name: 'live', facility: 'DEFAULT', zones: [storedRect('A', 0, 0, 1, 1)] });
      const shown = await app.request('GET', `${CURRENT}/show/DEFAULT`);
      expect(shown.status).to.equal(200);
      expect(shown.body).to.deep.equal(selected.body);
      // Selecting it again is accepted and appends nothing.
      const head = await logHead(app.eventStoreConnectionString);
      expect((await app.request('POST', `${CURRENT}/select/live`)).status).to.equal(200);
      expect(await logHead(app.eventStoreConnectionString)).to.equal(head);

      const refused = await app.request('DELETE', `${ZM}/destroy/live`);
      expect(refused.status).to.equal(409);
      expect(refused.body.message).to.match(/current zone map of facility "DEFAULT"/);
      expect((await app.request('GET', `${ZM}/show/live`)).status).to.equal(200);

      // Editing the live map within its facility is allowed and shows through.
      const edited = await app.request('PUT', `${ZM}/createOrReplace`, { body: { name: 'live', zones: [rect('A', 0, 0, 3, 3)] } });
      expect(edited.status).to.equal(200);
      expect((await app.request('GET', `${CURRENT}/show/DEFAULT`)).body.zones).to.deep.equal([storedRect('A', 0, 0, 3, 3)]);

      // Selecting another map of the facility replaces the selection; the old one may go.
      expect((await app.request('POST', `${CURRENT}/select/live-v2`)).body.name).to.equal('live-v2');
      expect((await app.request('GET', `${CURRENT}/show/DEFAULT`)).body.name).to.equal('live-v2');
      expect((await app.request('DELETE', `${ZM}/destroy/live`)).status).to.equal(204);

      expect((await app.request('DELETE', `${CURRENT}/clear/DEFAULT`)).status).to.equal(204);
      expect((await app.request('GET', `${CURRENT}/show/DEFAULT`)).body).to.deep.equal({ name: null, facility: 'DEFAULT' });
      const cleared = await logHead(app.eventStoreConnectionString);
      expect((await app.request('DELETE', `${CURRENT}/clear/DEFAULT`)).status, 'clearing nothing').to.equal(204);
      expect(await logHead(app.eventStoreConnectionString), 'clearing nothing appends nothing').to.equal(cleared);
      expect((await app.request('DELETE', `${ZM}/destroy/live-v2`)).status).to.equal(204);
    });

    it('404 for an unknown zone map or facility', async () => {
      const select = await app.request('POST', `${CURRENT}/select/nope`);
      expect(select.status).to.equal(404);
      expect(select.body.message).to.match(/zone map "nope" not found/);
      const show = await app.request('GET', `${CURRENT}/show/NOPE`);
      expect(show.status).to.equal(404);
      expect(show.body.message).to.match(/facility "NOPE" not found/);
      expect((await app.request('DELETE', `${CURRENT}/clear/NOPE`)).status).to.equal(404);
    });
  });

  describe('roles', () => {
    let jobRunner: string;
    let dataReader: string;
    let configManager: string;
    before(async () => {
      jobRunner = await createUser(app, client, 'runner', ['JobRunner']);
      dataReader = await createUser(app, client, 'reader', ['DataReader']);
      configManager = await createUser(app, client, 'config', ['ConfigManager']);
      expect((await app.request('POST', `${ZM}/create`, { body: { name: 'roles', zones: [rect('A', 0, 0, 1, 1)] } })).status).to.equal(200);
      expect((await app.request('POST', `${CURRENT}/select/roles`)).status).to.equal(200);
    });
    after(async () => {
      await app.request('DELETE', `${CURRENT}/clear/DEFAULT`);
      await app.request('DELETE', `${ZM}/destroy/roles`);
    });

    it('a JobRunner shows zone maps and the current one, but gets 403 on every write', async () => {
      expect((await app.request('GET', `${ZM}/show/roles`, { auth: jobRunner })).status).to.equal(200);
      expect((await app.request('GET', `${ZM}/show`, { auth: jobRunner })).status).to.equal(200);
      expect((await app.request('GET', `${CURRENT}/show/DEFAULT`, { auth: jobRunner })).status).to.equal(200);
      const create = await app.request('POST', `${ZM}/create`, { auth: jobRunner, body: { name: 'nope', zones: [] } });
      expect(create.status).to.equal(403);
      expect(create.body.message).to.match(/runner/);
      expect((await app.request('PUT', `${ZM}/createOrReplace`, { auth: jobRunner, body: { name: 'roles', zones: [] } })).status).to.equal(403);
      expect((await app.request('DELETE', `${ZM}/destroy/roles`, { auth: jobRunner })).status).to.equal(403);
      expect((await app.request('POST', `${CURRENT}/select/roles`, { auth: jobRunner })).status).to.equal(403);
      expect((await app.request('DELETE', `${CURRENT}/clear/DEFAULT`, { auth: jobRunner })).status).to.equal(403);
      expect((await app.request('GET', `${ZM}/show/nope`)).status, 'nothing was written').to.equal(404);
      expect((await app.request('GET', `${ZM}/show/roles`)).body.zones).to.have.length(1);
    });

    it('a DataReader shows the current zone map only', async () => {
      expect((await app.request('GET', `${CURRENT}/show/DEFAULT`, { auth: dataReader })).status).to.equal(200);
      expect((await app.request('GET', `${ZM}/show`, { auth: dataReader })).status).to.equal(403);
      expect((await app.request('GET', `${ZM}/show/roles`, { auth: dataReader })).status).to.equal(403);
      expect((await app.request('POST', `${CURRENT}/select/roles`, { auth: dataReader })).status).to.equal(403);
    });

    it('a ConfigManager does everything', async () => {
      const body = { name: 'cm', zones: [rect('A', 0, 0, 1, 1)] };
      expect((await app.request('POST', `${ZM}/create`, { auth: configManager, body })).status).to.equal(200);
      expect((await app.request('PUT', `${ZM}/createOrReplace`, { auth: configManager, body })).status).to.equal(200);
      expect((await app.request('GET', `${ZM}/show/cm`, { auth: configManager })).status).to.equal(200);
      expect((await app.request('POST', `${CURRENT}/select/cm`, { auth: configManager })).status).to.equal(200);
      expect((await app.request('GET', `${CURRENT}/show/DEFAULT`, { auth: configManager })).body.name).to.equal('cm');
      expect((await app.request('POST', `${CURRENT}/select/roles`, { auth: configManager })).status).to.equal(200);
      expect((await app.request('DELETE', `${ZM}/destroy/cm`, { auth: configManager })).status).to.equal(204);
    });

    it('401 without credentials', async () => {
      expect((await app.request('GET', `${ZM}/show`, { auth: null })).status).to.equal(401);
      expect((await app.request('GET', `${CURRENT}/show/DEFAULT`, { auth: null })).status).to.equal(401);
    });
  });
});

describe('zone maps with several facilities over HTTP', function () {
  this.timeout(60_000);
  let app: TestApp;
  before(async () => {
    app = await startTestApp();
  });
  after(async () => app?.stop());

  it('facility may be omitted with one facility, and is required (400 naming body.facility) once a second exists', async () => {
    const alone = await app.request('POST', `${ZM}/create`, { body: { name: 'implied', zones: [] } });
    expect(alone.status).to.equal(200);
    expect(alone.body.facility).to.equal('DEFAULT');

    expect((await app.request('POST', `${FACILITIES}/create`, { body: { name: 'store-2' } })).status).to.equal(200);
    for (const facility of [undefined, null]) {
      const res = await app.request('POST', `${ZM}/create`, { body: { name: 'which', zones: [], ...(facility === null ? { facility } : {}) } });
      expect(res.status).to.equal(400);
      expect(res.body.errors.map((e: { path: string }) => e.path)).to.include('body.facility');
      expect(res.body.message).to.match(/facility/);
    }
    const replace = await app.request('PUT', `${ZM}/createOrReplace`, { body: { name: 'implied', zones: [] } });
    expect(replace.status).to.equal(400);
    expect(replace.body.errors[0].path).to.equal('body.facility');
    expect((await app.request('GET', `${ZM}/show`)).body.map((z: { name: string }) => z.name)).to.deep.equal(['implied']);

    const named = await app.request('POST', `${ZM}/create`, { body: { name: 'store-map', facility: 'store-2', zones: [rect('A', 0, 0, 1, 1)] } });
    expect(named.status).to.equal(200);
    expect(named.body.facility).to.equal('store-2');
  });

  it('refuses (409) to delete a facility that has zone maps, naming them', async () => {
    const res = await app.request('DELETE', `${FACILITIES}/destroy/store-2`);
    expect(res.status).to.equal(409);
    expect(res.body.message).to.match(/zone maps "store-map"/);
    expect((await app.request('GET', `${FACILITIES}/show/store-2`)).status).to.equal(200);
  });

  it('selects per facility, and refuses (409) to move a current zone map to another facility', async () => {
    expect((await app.request('POST', `${CURRENT}/select/store-map`)).body.facility).to.equal('store-2');
    expect((await app.request('GET', `${CURRENT}/show/store-2`)).body.name).to.equal('store-map');
    expect((await app.request('GET', `${CURRENT}/show/DEFAULT`)).body.name).to.equal(null);
    expect((await app.request('POST', `${CURRENT}/select/implied`)).status).to.equal(200);
    expect((await app.request('GET', `${CURRENT}/show/DEFAULT`)).body.name).to.equal('implied');
    expect((await app.request('GET', `${CURRENT}/show/store-2`)).body.name, 'other facility untouched').to.equal('store-map');

    const move = await app.request('PUT', `${ZM}/createOrReplace`, { body: { name: 'store-map', facility: 'DEFAULT', zones: [] } });
    expect(move.status).to.equal(409);
    expect(move.body.message).to.match(/current zone map of facility "store-2"/);
    expect((await app.request('GET', `${ZM}/show/store-map`)).body.facility).to.equal('store-2');
  });

  it('after clearing and deleting its zone maps, the facility can be deleted', async () => {
    expect((await app.request('DELETE', `${CURRENT}/clear/store-2`)).status).to.equal(204);
    expect((await app.request('GET', `${CURRENT}/show/DEFAULT`)).body.name, 'other facility untouched').to.equal('implied');
    expect((await app.request('DELETE', `${ZM}/destroy/store-map`)).status).to.equal(204);
    expect((await app.request('DELETE', `${FACILITIES}/destroy/store-2`)).status).to.equal(204);
    // Back to one facility: omitting it is fine again.
    expect((await app.request('PUT', `${ZM}/createOrReplace`, { body: { name: 'implied', zones: [] } })).status).to.equal(200);
  });
});
