import { expect } from 'chai';
import { startTestApp, type TestApp } from '../support/app';
import { logHead } from '../support/log-head';
import { antennaConfig, seedReaderDefinition } from './support';

const BASE = '/configuration/v1/thresholds';

describe('thresholds over HTTP', function () {
  this.timeout(60_000);
  let app: TestApp;
  let configA: Record<string, unknown> & { id: number };
  let configB: Record<string, unknown> & { id: number };
  before(async () => {
    app = await startTestApp();
    await seedReaderDefinition(app, 'r1', 'DEFAULT');
    await seedReaderDefinition(app, 'r2', 'DEFAULT');
    configA = (await app.request('POST', `${BASE}/antennaConfiguration`, { body: antennaConfig('A') })).body;
    configB = (await app.request('POST', `${BASE}/antennaConfiguration`, { body: antennaConfig('B', { side: 'RIGHT' }) })).body;
  });
  after(async () => app?.stop());

  const body = (name: string, extra: Record<string, unknown> = {}) => ({
    name,
    readerArrangement: 'SIDE_BY_SIDE',
    readers: { r1: { antennaConfigurationId: configA.id }, r2: { antennaConfigurationId: configB.id } },
    ...extra,
  });

  it('starts empty', async () => {
    expect((await app.request('GET', `${BASE}/show`)).body).to.deep.equal([]);
  });

  it('create assigns an id and fills in the only facility; show, show/{id} and embed', async () => {
    const created = await app.request('POST', `${BASE}/create`, { body: { ...body('door 1'), id: 50 } });
    expect(created.status, JSON.stringify(created.body)).to.equal(200);
    const expected = {
      id: 1, name: 'door 1', facility: 'DEFAULT', readerArrangement: 'SIDE_BY_SIDE',
      readers: { r1: { antennaConfigurationId: configA.id }, r2: { antennaConfigurationId: configB.id } },
    };
    expect(created.body).to.deep.equal(expected);
    expect((await app.request('GET', `${BASE}/show/1`)).body).to.deep.equal(expected);
    expect((await app.request('GET', `${BASE}/show`)).body).to.deep.equal([expected]);
    const embedded = await app.request('GET', `${BASE}/show/1?embed=antennaConfiguration`);
    expect(embedded.status).to.equal(200);
    expect(embedded.body.readers).to.deep.equal({
      r1: { antennaConfigurationId: configA.id, antennaConfiguration: configA },
      r2: { antennaConfigurationId: configB.id, antennaConfiguration: configB },
    });
    const all = await app.request('GET', `${BASE}/show?embed=antennaConfiguration`);
    expect(all.body[0].readers.r1.antennaConfiguration).to.deep.equal(configA);
    const bad = await app.request('GET', `${BASE}/show?embed=readers`);
    expect(bad.status).to.equal(400);
    expect(bad.body.errors[0].path).to.equal('query.embed');
  });

  it('ids increase and are never reused after a delete', async () => {
    const a = (await app.request('POST', `${BASE}/create`, { body: body('a') })).body;
    expect((await app.request('DELETE', `${BASE}/destroy/${a.id}`)).status).to.equal(204);
    expect((await app.request('GET', `${BASE}/show/${a.id}`)).status).to.equal(404);
    expect((await app.request('DELETE', `${BASE}/destroy/${a.id}`)).status).to.equal(404);
    const b = (await app.request('POST', `${BASE}/create`, { body: body('b') })).body;
    expect(b.id).to.equal(a.id + 1);
    const noId = await app.request('PUT', `${BASE}/createOrReplace`, { body: body('c') });
    expect(noId.status).to.equal(200);
    expect(noId.body.id).to.equal(b.id + 1);
  });

  it('createOrReplace with an id replaces it, or creates it under that id (later ids skip it)', async () => {
    const replaced = await app.request('PUT', `${BASE}/createOrReplace`, { body: body('door 1 renamed', { id: 1, readers: {} }) });
    expect(replaced.status).to.equal(200);
    expect(replaced.body).to.deep.equal({ id: 1, name: 'door 1 renamed', facility: 'DEFAULT', readerArrangement: 'SIDE_BY_SIDE', readers: {} });
    expect((await app.request('GET', `${BASE}/show/1`)).body).to.deep.equal(replaced.body);
    const chosen = await app.request('PUT', `${BASE}/createOrReplace`, { body: body('chosen', { id: 40 }) });
    expect(chosen.status).to.equal(200);
    expect(chosen.body.id).to.equal(40);
    const next = await app.request('POST', `${BASE}/create`, { body: body('next') });
    expect(next.body.id).to.equal(41);
    const list = (await app.request('GET', `${BASE}/show`)).body as Array<{ id: number }>;
    expect(list.map((t) => t.id)).to.deep.equal([...list.map((t) => t.id)].sort((x, y) => x - y));
  });

  it('unknown references: 422 naming readers and antenna configurations, 400 for a facility; nothing written', async () => {
    const head = await logHead(app.eventStoreConnectionString);
    const refs = await app.request('POST', `${BASE}/create`, {
      body: body('bad', { readers: { nobody: { antennaConfigurationId: configA.id }, r1: { antennaConfigurationId: 9999 } } }),
    });
    expect(refs.status).to.equal(422);
    expect(refs.body.errors.map((e: { path: string }) => e.path)).to.deep.equal(['body.readers.nobody', 'body.readers.r1.antennaConfigurationId']);
    const facility = await app.request('PUT', `${BASE}/createOrReplace`, { body: body('bad', { facility: 'nowhere' }) });
    expect(facility.status).to.equal(400);
    expect(facility.body.errors[0].path).to.equal('body.facility');
    const shape = await app.request('POST', `${BASE}/create`, { body: { name: '', readerArrangement: 'DIAGONAL' } });
    expect(shape.status).to.equal(400);
    expect(shape.body.errors.map((e: { path: string }) => e.path)).to.have.members(['body.name', 'body.readerArrangement']);
    const zero = await app.request('PUT', `${BASE}/createOrReplace`, { body: body('zero', { id: 0 }) });
    expect(zero.status).to.equal(400);
    expect(zero.body.errors[0].path).to.equal('body.id');
    expect((await app.request('GET', `${BASE}/show/x`)).status).to.equal(400);
    expect((await app.request('DELETE', `${BASE}/destroy/x`)).status).to.equal(400);
    expect(await logHead(app.eventStoreConnectionString)).to.equal(head);
  });

  it('a reader of another facility is refused (422), and with several facilities the facility is required', async () => {
    expect((await app.request('POST', '/configuration/v1/facilities/create', { body: { name: 'F2' } })).status).to.equal(200);
    await seedReaderDefinition(app, 'far', 'F2');
    const head = await logHead(app.eventStoreConnectionString);
    const required = await app.request('POST', `${BASE}/create`, { body: body('x') });
    expect(required.status).to.equal(400);
    expect(required.body.errors[0].path).to.equal('body.facility');
    const elsewhere = await app.request('POST', `${BASE}/create`, {
      body: body('x', { facility: 'DEFAULT', readers: { far: { antennaConfigurationId: configA.id } } }),
    });
    expect(elsewhere.status).to.equal(422);
    expect(elsewhere.body.errors[0].path).to.equal('body.readers.far');
    expect(await logHead(app.eventStoreConnectionString)).to.equal(head);
    const ok = await app.request('POST', `${BASE}/create`, {
      body: body('f2 door', { facility: 'F2', readers: { far: { antennaConfigurationId: configA.id } } }),
    });
    expect(ok.status).to.equal(200);
    expect(ok.body.facility).to.equal('F2');
  });
});
