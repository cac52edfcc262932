// The REST-style paths of thresholds and antenna configurations (collection
// GET/POST, GET/PUT/DELETE by id) used by public clients, beside the
// verb-style ones: the same handlers, so what one style writes the other reads.
import { expect } from 'chai';
import { startTestApp, type TestApp } from '../support/app';
import { logHead } from '../support/log-head';
import { antennaConfig, seedReaderDefinition } from './support';

const BASE = '/configuration/v1/thresholds';
const CONFIGS = `${BASE}/antennaConfigurations`;

describe('thresholds at the REST-style paths', function () {
  this.timeout(60_000);
  let app: TestApp;
  before(async () => {
    app = await startTestApp();
    await seedReaderDefinition(app, 'r1', 'DEFAULT');
  });
  after(async () => app?.stop());

  it('antenna configurations: POST the collection, GET/PUT/DELETE by id, seen by the verb-style paths', async () => {
    const before = (await app.request('GET', CONFIGS)).body as Array<{ id: number }>;
    const created = await app.request('POST', CONFIGS, { body: antennaConfig('rest door') });
    expect(created.status, JSON.stringify(created.body)).to.equal(200);
    const id = created.body.id as number;
    expect(before.map((c) => c.id)).to.not.include(id);
    expect(created.body).to.deep.equal({ ...antennaConfig('rest door'), id, ignored: [] });
    expect((await app.request('GET', `${CONFIGS}/${id}`)).body).to.deep.equal(created.body);
    expect((await app.request('GET', `${BASE}/antennaConfiguration/${id}`)).body, 'verb style reads it').to.deep.equal(created.body);
    expect((await app.request('GET', CONFIGS)).body).to.deep.equal([...before, created.body]);

    const replaced = await app.request('PUT', `${CONFIGS}/${id}`, { body: antennaConfig('rest door', { side: 'RIGHT', ignored: [{ antennaId: 3 }] }) });
    expect(replaced.status).to.equal(200);
    expect(replaced.body.side).to.equal('RIGHT');
    expect((await app.request('GET', `${BASE}/antennaConfiguration/${id}`)).body).to.deep.equal(replaced.body);

    const head = await logHead(app.eventStoreConnectionString);
    const mismatch = await app.request('PUT', `${CONFIGS}/${id}`, { body: antennaConfig('x', { id: id + 1000 }) });
    expect(mismatch.status).to.equal(400);
    expect(mismatch.body.errors[0].path).to.equal('body.id');
    expect((await app.request('PUT', `${CONFIGS}/99999`, { body: antennaConfig('x') })).status).to.equal(404);
    expect((await app.request('GET', `${CONFIGS}/abc`)).status).to.equal(400);
    expect(await logHead(app.eventStoreConnectionString), 'refusals write nothing').to.equal(head);

    expect((await app.request('DELETE', `${CONFIGS}/${id}`)).status).to.equal(204);
    expect((await app.request('GET', `${CONFIGS}/${id}`)).status).to.equal(404);
    expect((await app.request('DELETE', `${CONFIGS}/${id}`)).status).to.equal(404);
  });

  it('thresholds: POST/GET the collection, GET/PUT/DELETE by id with embed, the verb-style paths see the same', async () => {
    const config = (await app.request('POST', CONFIGS, { body: antennaConfig('door A') })).body as { id: number };
    const body = { name: 'dock', readerArrangement: 'OVERHEAD', readers: { r1: { antennaConfigurationId: config.id } } };
    const created = await app.request('POST', BASE, { body });
    expect(created.status, JSON.stringify(created.body)).to.equal(200);
    const id = created.body.id as number;
    expect(created.body).to.deep.equal({ id, facility: 'DEFAULT', ...body });

    expect((await app.request('GET', `${BASE}/${id}`)).body).to.deep.equal(created.body);
    expect((await app.request('GET', `${BASE}/show/${id}`)).body, 'verb style reads it').to.deep.equal(created.body);
    const listed = (await app.request('GET', BASE)).body as Array<{ id: number }>;
    expect(listed.find((t) => t.id === id)).to.deep.equal(created.body);
    expect(listed).to.deep.equal((await app.request('GET', `${BASE}/show`)).body);

    const embedded = await app.request('GET', `${BASE}/${id}?embed=antennaConfiguration`);
    expect(embedded.body.readers.r1.antennaConfiguration).to.deep.equal((await app.request('GET', `${CONFIGS}/${config.id}`)).body);
    const embeddedList = (await app.request('GET', `${BASE}?embed=antennaConfiguration`)).body as Array<{ id: number }>;
    expect(embeddedList.find((t) => t.id === id)).to.deep.equal(embedded.body);
    expect((await app.request('GET', `${BASE}?embed=readers`)).status).to.equal(400);

    const renamed = await app.request('PUT', `${BASE}/${id}`, { body: { ...body, name: 'dock 2' } });
    expect(renamed.status).to.equal(200);
    expect(renamed.body).to.deep.equal({ ...created.body, name: 'dock 2' });
    expect((await app.request('GET', `${BASE}/show/${id}`)).body.name).to.equal('dock 2');

    const head = await logHead(app.eventStoreConnectionString);
    const mismatch = await app.request('PUT', `${BASE}/${id}`, { body: { ...body, id: id + 1 } });
    expect(mismatch.status).to.equal(400);
    expect(mismatch.body.errors[0].path).to.equal('body.id');
    const unknownReader = await app.request('PUT', `${BASE}/${id}`, { body: { ...body, readers: { nobody: { antennaConfigurationId: config.id } } } });
    expect(unknownReader.status).to.equal(422);
    expect((await app.request('GET', `${BASE}/nope`)).status).to.equal(400);
    expect(await logHead(app.eventStoreConnectionString), 'refusals write nothing').to.equal(head);

    // PUT of an id that does not exist creates it under that id, as createOrReplace does.
    const chosen = await app.request('PUT', `${BASE}/500`, { body: { ...body, name: 'chosen' } });
    expect(chosen.status).to.equal(200);
    expect(chosen.body.id).to.equal(500);
    expect((await app.request('POST', BASE, { body: { ...body, name: 'next' } })).body.id, 'later ids skip it').to.equal(501);

    expect((await app.request('DELETE', `${BASE}/${id}`)).status).to.equal(204);
    expect((await app.request('GET', `${BASE}/${id}`)).status).to.equal(404);
    expect((await app.request('DELETE', `${BASE}/${id}`)).status).to.equal(404);
    expect((await app.request('GET', `${BASE}/show/${id}`)).status).to.equal(404);
  });

  it('the verb-style routes still win over /{id}: show, createOrReplace, antennaConfigurations', async () => {
    expect((await app.request('GET', `${BASE}/show`)).status).to.equal(200);
    expect(Array.isArray((await app.request('GET', CONFIGS)).body)).to.equal(true);
    const config = (await app.request('POST', CONFIGS, { body: antennaConfig('door B') })).body as { id: number };
    const put = await app.request('PUT', `${BASE}/createOrReplace`, { body: { name: 'verb', readerArrangement: 'CUSTOM', readers: { r1: { antennaConfigurationId: config.id } } } });
    expect(put.status).to.equal(200);
    expect(put.body.name).to.equal('verb');
  });
});
