import { expect } from 'chai';
import { EventStoreDBClient } from '@eventstore/db-client';
import { encodeEvent } from '../../src/core/events';
import type { SoftwareImage } from '../../src/software/codec';
import { softwareImageEvents, softwareImageStream } from '../../src/software/events';
import { startTestApp, type TestApp } from '../support/app';

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

async function eventually(check: () => Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('not projected in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

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
