import { expect } from 'chai';
import { EventStoreDBClient } from '@eventstore/db-client';
import { encodeEvent } from '../../src/core/events';
import type { SoftwareImage } from '../../src/software/codec';
import { softwareImageEvents, softwareImageStream } from '../../src/software/events';
import { startTestApp, type TestApp } from '../support/app';
import { waitFor } from '../support/wait';

const BASE = '/configuration/v1/softwareVersions';

const image = (version: string, imageType: 'FIRMWARE_READER' | 'CAP_SERVICE'): SoftwareImage => ({
  versionInfo: { versionIdentifier: { version, imageType }, imageName: `img-${version}.upgx`, checksum: `sum-${version}` },
  description: `image ${version}`,
  created: '2024-01-01T00:00:00.000Z',
  updated: '2024-01-01T00:00:00.000Z',
  updateComment: null,
  recordVersionNumber: 0,
});

async function register(app: TestApp, images: SoftwareImage[]): Promise<void> {
  const client = EventStoreDBClient.connectionString(app.eventStoreConnectionString);
  try {
    for (const img of images) {
      const event = encodeEvent(softwareImageEvents, { type: 'SoftwareImageRegistered', data: img }, { user: 'test' });
      await client.appendToStream(softwareImageStream(img.versionInfo.versionIdentifier), event, { expectedRevision: 'no_stream' });
    }
  } finally {
    await client.dispose();
  }
}

const eventually = (check: () => Promise<boolean>): Promise<boolean> => waitFor('the version to be projected', check, { timeoutMs: 5000, intervalMs: 20 });

describe('software versions over HTTP', function () {
  this.timeout(60_000);
  let app: TestApp;
  before(async () => {
    app = await startTestApp();
  });
  after(async () => app?.stop());

  it('lists nothing before any image is registered; show is 404', async () => {
    for (const type of ['FIRMWARE_READER', 'CAP_SERVICE']) {
      const res = await app.request('GET', `${BASE}/list/${type}`);
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal([]);
    }
    const show = await app.request('GET', `${BASE}/show/FIRMWARE_READER/8.2.1`);
    expect(show.status).to.equal(404);
    expect(show.body.message).to.contain('8.2.1');
  });

  it('400 naming imageType for an unknown image type', async () => {
    const list = await app.request('GET', `${BASE}/list/OPERATING_SYSTEM`);
    expect(list.status).to.equal(400);
    expect(list.body.errors[0].path).to.equal('params.imageType');
    const show = await app.request('GET', `${BASE}/show/firmware/1.0`);
    expect(show.status).to.equal(400);
    expect(show.body.errors[0].path).to.equal('params.imageType');
  });

  it('registered images (SoftwareImageRegistered events) are listed newest first by type and shown by version', async () => {
    await register(app, [image('5.9.2', 'FIRMWARE_READER'), image('5.10.0', 'FIRMWARE_READER'), image('1.0', 'CAP_SERVICE')]);
    await eventually(async () => (await app.request('GET', `${BASE}/list/FIRMWARE_READER`)).body.length === 2);
    const firmware = await app.request('GET', `${BASE}/list/FIRMWARE_READER`);
    expect(firmware.body).to.deep.equal([image('5.10.0', 'FIRMWARE_READER'), image('5.9.2', 'FIRMWARE_READER')]);
    await eventually(async () => (await app.request('GET', `${BASE}/list/CAP_SERVICE`)).body.length === 1);
    const shown = await app.request('GET', `${BASE}/show/FIRMWARE_READER/5.9.2`);
    expect(shown.status).to.equal(200);
    expect(shown.body).to.deep.equal(image('5.9.2', 'FIRMWARE_READER'));
    expect((await app.request('GET', `${BASE}/show/CAP_SERVICE/5.9.2`)).status).to.equal(404);
    expect((await app.request('GET', `${BASE}/show/FIRMWARE_READER/5.9`)).status).to.equal(404);
  });
});

describe('registering software images (POST create, Admin)', function () {
  this.timeout(60_000);
  let app: TestApp;
  before(async () => {
    app = await startTestApp();
  });
  after(async () => app?.stop());

  const SUM = 'AB'.repeat(32);
  const body = (version: string, extra: Record<string, unknown> = {}) => ({
    versionInfo: { versionIdentifier: { version, imageType: 'FIRMWARE_READER' }, imageName: `octane-${version}.upgx`, checksum: SUM },
    description: `Octane ${version}`,
    ...extra,
  });

  it('registers an image (checksum stored lower-case, recordVersionNumber 0) that list and show serve at once; a second registration is a 409', async () => {
    const res = await app.request('POST', `${BASE}/create`, { body: body('8.2.1') });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.versionInfo).to.deep.equal({ versionIdentifier: { version: '8.2.1', imageType: 'FIRMWARE_READER' }, imageName: 'octane-8.2.1.upgx', checksum: SUM.toLowerCase() });
    expect(res.body).to.include({ description: 'Octane 8.2.1', updateComment: null, recordVersionNumber: 0 });
    expect(res.body.created).to.equal(res.body.updated);
    const shown = await app.request('GET', `${BASE}/show/FIRMWARE_READER/8.2.1`);
    expect(shown.body).to.deep.equal(res.body);
    expect((await app.request('GET', `${BASE}/list/FIRMWARE_READER`)).body).to.deep.equal([res.body]);
    const again = await app.request('POST', `${BASE}/create`, { body: body('8.2.1', { description: 'other' }) });
    expect(again.status).to.equal(409);
    expect(again.body.errors[0].path).to.equal('body.versionInfo.versionIdentifier.version');
    expect((await app.request('GET', `${BASE}/show/FIRMWARE_READER/8.2.1`)).body.description).to.equal('Octane 8.2.1');
  });

  it('400 naming the field for a bad checksum, version or image type, and nothing is registered', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ ...body('9.0'), versionInfo: { ...body('9.0').versionInfo, checksum: 'abc' } }, 'body.versionInfo.checksum'],
      [{ ...body('9.0'), versionInfo: { ...body('9.0').versionInfo, versionIdentifier: { version: '9.0/x', imageType: 'FIRMWARE_READER' } } }, 'body.versionInfo.versionIdentifier.version'],
      [{ ...body('9.0'), versionInfo: { ...body('9.0').versionInfo, versionIdentifier: { version: '9.0', imageType: 'OS' } } }, 'body.versionInfo.versionIdentifier.imageType'],
      [{ description: 'no versionInfo' }, 'body.versionInfo'],
    ];
    for (const [b, path] of cases) {
      const res = await app.request('POST', `${BASE}/create`, { body: b });
      expect(res.status, path).to.equal(400);
      expect(res.body.errors.map((e: { path: string }) => e.path), path).to.include(path);
    }
    expect((await app.request('GET', `${BASE}/show/FIRMWARE_READER/9.0`)).status).to.equal(404);
  });
});
