// Upgrades of readers driven over the Impinj IoT interface, end to end: the
// upgrade runner's UPGRADE command carries the image's URL under
// UPGRADE_IMAGE_BASE_URL (a server of this test), the readers role fetches
// the image, checks it against the registered checksum, uploads it to the
// simulated R700 and follows its installation; the rollout completes, the
// reader's health shows the new firmware and the VERSION_UPDATE event.
import { createHash } from 'node:crypto';
import http from 'node:http';
import { expect } from 'chai';
import { generateLayout } from '../../src/simulator/layout';
import { SimIotReader } from '../../src/simulator/iot-reader';
import { World } from '../../src/simulator/world';
import { startTestApp, type TestApp } from '../support/app';
import { silent } from '../support/logger';
import { finished, waitForStatus } from '../upgrades/support';
import { until } from './support';

describe('upgrades of IoT-interface readers', function () {
  this.timeout(120_000);
  const image = Buffer.from(`R700 firmware 8.4.0 ${'x'.repeat(4000)}`);
  const images = http.createServer((req, res) => {
    if (req.url !== '/img-8.4.0.upgx') return void res.writeHead(404).end();
    res.writeHead(200, { 'Content-Type': 'application/octet-stream' }).end(image);
  });
  let app: TestApp | undefined;
  let sim: SimIotReader | undefined;

  before(async () => {
    await new Promise<void>((r) => images.listen(0, '127.0.0.1', () => r()));
    const port = (images.address() as { port: number }).port;
    app = await startTestApp({ READERS_KEEPALIVE_SECONDS: '1', HEALTH_CHECKIN_INTERVAL_SECONDS: '1', UPGRADE_IMAGE_BASE_URL: `http://127.0.0.1:${port}/` });
  });
  after(async () => {
    await app?.stop();
    await sim?.close();
    await new Promise<void>((r) => images.close(() => r()));
  });

  it('a rollout to an IoT reader uploads the image, follows the installation and completes; health shows the new firmware', async () => {
    const a = app as TestApp;
    const must = async (method: string, path: string, body: unknown): Promise<any> => { // eslint-disable-line @typescript-eslint/no-explicit-any
      const res = await a.request(method, path, { body });
      expect(res.status, `${path}: ${JSON.stringify(res.body)}`).to.equal(200);
      return res.body;
    };
    const layout = generateLayout({ facility: 'DEFAULT', readers: 1, families: ['SPEEDWAY'], tags: 5, seed: 2, prefix: 'up-' });
    const password = `pw-${crypto.randomUUID()}`;
    sim = new SimIotReader({ reader: layout.readers[0]!, world: World.random(layout, 2), seed: 2, t0: Date.now(), timeScale: 1, port: 0, username: 'root', password, log: silent });
    await sim.listen();
    const name = sim.name;
    await must('PUT', '/configuration/v1/readerDefinitions/createOrReplace', { name, address: '127.0.0.1', type: 'SPEEDWAY', facility: 'DEFAULT', connection: { protocol: 'IOT', scheme: 'http', port: sim.port, password, delivery: 'STREAM' } });
    const checksum = createHash('sha256').update(image).digest('hex');
    await must('POST', '/configuration/v1/softwareVersions/create', { versionInfo: { versionIdentifier: { version: '8.4.0', imageType: 'FIRMWARE_READER' }, imageName: 'img-8.4.0.upgx', checksum }, description: 'R700 8.4.0' });
    await until('reader reachable', async () => ((await a.request('GET', `/health/v1/readers/${name}`)).body?.version?.Firmware === '8.2.1-sim' ? true : undefined));

    const { upgradeInstanceId } = await must('POST', '/control/v1/upgrades/start', { target: { type: 'DEVICE', values: [name] }, versionIdentifier: { version: '8.4.0', imageType: 'FIRMWARE_READER' } });
    const status = await waitForStatus(a, upgradeInstanceId as string, finished);
    expect(status.status, JSON.stringify(status)).to.equal('COMPLETED');
    expect(status.details.readers.map((r: { name: string; status: string }) => [r.name, r.status])).to.deep.equal([[name, 'COMPLETED']]);
    expect(sim.upgrades).to.deep.equal([{ name: 'img-8.4.0.upgx', bytes: image.length }]);

    const updates = await a.request('POST', '/health/v1/events', { body: { readerNames: [name], codes: ['VERSION_UPDATE'] } });
    expect(updates.body.events.map((e: { args: unknown }) => e.args)).to.deep.equal([{ newVersion: { Firmware: '8.4.0' } }]);
    await until('health shows the new firmware', async () => ((await a.request('GET', `/health/v1/readers/${name}`)).body?.version?.Firmware === '8.4.0' ? true : undefined));
  });
});
