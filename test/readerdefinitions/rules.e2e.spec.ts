// The field rules of reader definitions through HTTP: the facility's current
// zone map comes from the read model, and one answer names every bad field.
import { expect } from 'chai';
import { startTestApp, type TestApp } from '../support/app';
import { errorPaths } from './e2e-support';

const READERS = '/configuration/v1/readerDefinitions';

describe('reader definition rules over HTTP', function () {
  this.timeout(60_000);
  let app: TestApp;
  before(async () => {
    app = await startTestApp();
    const square = (x: number) => [{ x, y: 0 }, { x: x + 5, y: 0 }, { x: x + 5, y: 5 }, { x, y: 5 }];
    const map = await app.request('POST', '/configuration/v1/zoneMaps/create', { body: { name: 'plan', facility: 'DEFAULT', zones: [{ name: 'Dock', points: square(0) }, { name: 'Aisle 1', points: square(10) }] } });
    expect(map.status).to.equal(200);
    expect((await app.request('POST', '/control/v1/currentZoneMap/select/plan')).status).to.equal(200);
  });
  after(async () => app?.stop());

  it('refuses nonsense in one answer naming every field, and stores nothing', async () => {
    const res = await app.request('POST', `${READERS}/create`, {
      body: { name: 'r1', address: 'not a host!!', type: 'XSPAN', placement: { yaw: 400 }, readerZone: 'dock', antennaZones: { '14': 'Dock', '2': 'Aisle 9' } },
    });
    expect(res.status).to.equal(400);
    expect(errorPaths(res.body)).to.deep.equal(['body.placement.yaw', 'body.address', 'body.antennaZones.14', 'body.readerZone', 'body.antennaZones.2']);
    expect(res.body.errors[3].reason).to.contain('is not in zone map plan');
    expect((await app.request('GET', `${READERS}/show/r1`)).status).to.equal(404);
  });

  it('accepts a reader whose zones are those of the current zone map', async () => {
    const res = await app.request('POST', `${READERS}/create`, { body: { name: 'r2', address: '10.0.0.7', type: 'XSPAN', placement: { yaw: -90 }, readerZone: 'Dock', antennaZones: { '13': 'Aisle 1' } } });
    expect(res.status).to.equal(200);
    expect(res.body.readerZone).to.equal('Dock');
  });

  it('refuses a facility name that not every proxy passes in a URL path', async () => {
    const res = await app.request('POST', '/configuration/v1/facilities/create', { body: { name: 'Ware house/2!' } });
    expect(res.status).to.equal(400);
    expect(errorPaths(res.body)).to.deep.equal(['body.name']);
  });
});
