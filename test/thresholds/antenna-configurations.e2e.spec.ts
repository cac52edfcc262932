import { expect } from 'chai';
import { startTestApp, basic, type TestApp } from '../support/app';
import { logHead } from '../support/log-head';
import { antennaConfig, seedReaderDefinition } from './support';
import { DEFAULT_ANTENNA_CONFIGURATIONS } from '../../src/defaults/catalog';

const BASE = '/configuration/v1/thresholds';

describe('threshold antenna configurations over HTTP', function () {
  this.timeout(60_000);
  let app: TestApp;
  before(async () => {
    app = await startTestApp();
  });
  after(async () => app?.stop());

  const create = async (name: string, extra: Record<string, unknown> = {}) => {
    const res = await app.request('POST', `${BASE}/antennaConfiguration`, { body: antennaConfig(name, extra) });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body as { id: number };
  };

  const FIRST_FREE_ID = DEFAULT_ANTENNA_CONFIGURATIONS.length + 1;

  it('starts with the factory defaults only, ids 1..n in id order', async () => {
    const res = await app.request('GET', `${BASE}/antennaConfigurations`);
    expect(res.status).to.equal(200);
    expect(res.body.map((c: { id: number; name: string }) => [c.id, c.name])).to.deep.equal(DEFAULT_ANTENNA_CONFIGURATIONS.map((c) => [c.id, c.name]));
  });

  it('create assigns the first id after the defaults (a body id is ignored), show and list return it with defaults filled in', async () => {
    const defaults = (await app.request('GET', `${BASE}/antennaConfigurations`)).body as unknown[];
    const created = await app.request('POST', `${BASE}/antennaConfiguration`, { body: { ...antennaConfig('door'), id: 77, out: null } });
    expect(created.status).to.equal(200);
    expect(created.body).to.deep.equal({
      id: FIRST_FREE_ID, name: 'door', side: 'LEFT', readerType: 'XARRAY', readerArrangement: 'OVERHEAD',
      in: [{ antennaId: 1 }], out: [], ignored: [],
    });
    const shown = await app.request('GET', `${BASE}/antennaConfiguration/${FIRST_FREE_ID}`);
    expect(shown.status).to.equal(200);
    expect(shown.body).to.deep.equal(created.body);
    const list = await app.request('GET', `${BASE}/antennaConfigurations`);
    expect(list.body).to.deep.equal([...defaults, created.body]);
  });

  it('ids increase and are never reused after a delete; lists come in id order', async () => {
    const a = await create('a');
    const b = await create('b');
    expect(b.id).to.equal(a.id + 1);
    expect((await app.request('DELETE', `${BASE}/antennaConfiguration/${b.id}`)).status).to.equal(204);
    const c = await create('c');
    expect(c.id).to.equal(b.id + 1);
    const many = await Promise.all(Array.from({ length: 8 }, (_, i) => create(`p${i}`)));
    const ids = many.map((m) => m.id);
    expect(new Set(ids).size, 'concurrent creates get distinct ids').to.equal(8);
    for (const id of ids) expect(id).to.be.greaterThan(c.id);
    const list = (await app.request('GET', `${BASE}/antennaConfigurations`)).body as Array<{ id: number }>;
    const listed = list.map((x) => x.id);
    expect(listed).to.deep.equal([...listed].sort((x, y) => x - y));
    expect(listed).to.include.members([a.id, c.id, ...ids]);
    expect(listed).to.not.include(b.id);
  });

  it('replace: stores the new document; 404 for an unknown id; 400 for a body id other than the path id', async () => {
    const { id } = await create('before');
    const replaced = await app.request('PUT', `${BASE}/antennaConfiguration/${id}`, {
      body: { ...antennaConfig('after'), id, side: 'RIGHT', ignored: [{ antennaId: 3 }] },
    });
    expect(replaced.status).to.equal(200);
    expect(replaced.body).to.include({ id, name: 'after', side: 'RIGHT' });
    expect(replaced.body.ignored).to.deep.equal([{ antennaId: 3 }]);
    expect((await app.request('GET', `${BASE}/antennaConfiguration/${id}`)).body).to.deep.equal(replaced.body);

    const head = await logHead(app.eventStoreConnectionString);
    const unknown = await app.request('PUT', `${BASE}/antennaConfiguration/9999`, { body: antennaConfig('x') });
    expect(unknown.status).to.equal(404);
    const mismatch = await app.request('PUT', `${BASE}/antennaConfiguration/${id}`, { body: { ...antennaConfig('x'), id: id + 1 } });
    expect(mismatch.status).to.equal(400);
    expect(mismatch.body.errors[0].path).to.equal('body.id');
    expect(await logHead(app.eventStoreConnectionString)).to.equal(head);
  });

  it('answers 400 naming the field for bad bodies and ids, and writes nothing', async () => {
    const head = await logHead(app.eventStoreConnectionString);
    const side = await app.request('POST', `${BASE}/antennaConfiguration`, { body: antennaConfig('x', { side: 'UP' }) });
    expect(side.status).to.equal(400);
    expect(side.body.errors.map((e: { path: string }) => e.path)).to.deep.equal(['body.side']);
    const twice = await app.request('POST', `${BASE}/antennaConfiguration`, { body: antennaConfig('x', { ignored: [{ antennaId: 1 }] }) });
    expect(twice.status).to.equal(400);
    expect(twice.body.errors[0].path).to.equal('body.ignored.0.antennaId');
    const antenna = await app.request('POST', `${BASE}/antennaConfiguration`, { body: antennaConfig('x', { in: [{ antennaId: 99 }] }) });
    expect(antenna.status).to.equal(400);
    expect(antenna.body.errors[0].path).to.equal('body.in.0.antennaId');
    const missing = await app.request('POST', `${BASE}/antennaConfiguration`, { body: { name: 'x' } });
    expect(missing.status).to.equal(400);
    expect(missing.body.errors.map((e: { path: string }) => e.path)).to.have.members(['body.side', 'body.readerType', 'body.readerArrangement']);
    const badId = await app.request('GET', `${BASE}/antennaConfiguration/abc`);
    expect(badId.status).to.equal(400);
    expect(badId.body.errors[0].path).to.equal('params.antennaConfigurationID');
    expect((await app.request('GET', `${BASE}/antennaConfiguration/9999`)).status).to.equal(404);
    expect((await app.request('DELETE', `${BASE}/antennaConfiguration/9999`)).status).to.equal(404);
    expect(await logHead(app.eventStoreConnectionString)).to.equal(head);
  });

  it('delete: 409 naming the thresholds that use it; with replacementId the thresholds are rewritten', async () => {
    await seedReaderDefinition(app, 'xa-1', 'DEFAULT');
    await seedReaderDefinition(app, 'xa-2', 'DEFAULT');
    const used = await create('used');
    const other = await create('other');
    const replacement = await create('replacement');
    const th = await app.request('POST', `${BASE}/create`, {
      body: {
        name: 'dock door', readerArrangement: 'OVERHEAD',
        readers: { 'xa-1': { antennaConfigurationId: used.id }, 'xa-2': { antennaConfigurationId: other.id } },
      },
    });
    expect(th.status, JSON.stringify(th.body)).to.equal(200);

    const head = await logHead(app.eventStoreConnectionString);
    const refused = await app.request('DELETE', `${BASE}/antennaConfiguration/${used.id}`);
    expect(refused.status).to.equal(409);
    expect(refused.body.message).to.contain(`${th.body.id} ("dock door")`);
    const self = await app.request('DELETE', `${BASE}/antennaConfiguration/${used.id}?replacementId=${used.id}`);
    expect(self.status).to.equal(400);
    expect(self.body.errors[0].path).to.equal('query.replacementId');
    const unknown = await app.request('DELETE', `${BASE}/antennaConfiguration/${used.id}?replacementId=9999`);
    expect(unknown.status).to.equal(422);
    const notInt = await app.request('DELETE', `${BASE}/antennaConfiguration/${used.id}?replacementId=x`);
    expect(notInt.status).to.equal(400);
    expect(notInt.body.errors[0].path).to.equal('query.replacementId');
    expect(await logHead(app.eventStoreConnectionString)).to.equal(head);
    expect((await app.request('GET', `${BASE}/antennaConfiguration/${used.id}`)).status).to.equal(200);

    const deleted = await app.request('DELETE', `${BASE}/antennaConfiguration/${used.id}?replacementId=${replacement.id}`);
    expect(deleted.status).to.equal(204);
    expect((await app.request('GET', `${BASE}/antennaConfiguration/${used.id}`)).status).to.equal(404);
    const rewritten = await app.request('GET', `${BASE}/show/${th.body.id}`);
    expect(rewritten.body.readers).to.deep.equal({
      'xa-1': { antennaConfigurationId: replacement.id },
      'xa-2': { antennaConfigurationId: other.id },
    });
  });

  it('an unused configuration is deleted without replacementId', async () => {
    const { id } = await create('unused');
    expect((await app.request('DELETE', `${BASE}/antennaConfiguration/${id}`)).status).to.equal(204);
    expect((await app.request('GET', `${BASE}/antennaConfiguration/${id}`)).status).to.equal(404);
  });

  it('is for ConfigManager and Admin only', async () => {
    expect((await app.request('POST', '/configuration/v1/users/create', { body: { name: 'cm', password: 'cm-password-1', roles: ['ConfigManager'] } })).status).to.equal(200);
    expect((await app.request('POST', '/configuration/v1/users/create', { body: { name: 'jr', password: 'jr-password-1', roles: ['JobRunner'] } })).status).to.equal(200);
    expect((await app.request('GET', `${BASE}/antennaConfigurations`, { auth: basic('cm', 'cm-password-1') })).status).to.equal(200);
    expect((await app.request('GET', `${BASE}/antennaConfigurations`, { auth: basic('jr', 'jr-password-1') })).status).to.equal(403);
    expect((await app.request('GET', `${BASE}/antennaConfigurations`, { auth: null })).status).to.equal(401);
  });
});
