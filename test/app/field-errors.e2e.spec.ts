// One answer names every problem of a configuration body: type errors (a
// field that does not decode) and rule errors (of the parts that did), rows
// by their index as sent, and a refused body changes nothing.
import { expect } from 'chai';
import { startTestApp, type TestApp, type TestResponse } from '../support/app';

const square = (x: number): Array<{ x: number; y: number }> => [{ x, y: 0 }, { x: x + 5, y: 0 }, { x: x + 5, y: 5 }, { x, y: 5 }];
const paths = (res: TestResponse): string[] => (res.body as { errors: Array<{ path: string }> }).errors.map((e) => e.path);
const reasonAt = (res: TestResponse, path: string): string | undefined =>
  (res.body as { errors: Array<{ path: string; reason: string }> }).errors.find((e) => e.path === path)?.reason;

describe('every field error of a configuration body in one answer', function () {
  this.timeout(90_000);
  let app: TestApp;

  before(async () => {
    app = await startTestApp();
    const ok = (res: TestResponse): void => {
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
    };
    ok(await app.request('POST', '/configuration/v1/zoneMaps/create', { body: { name: 'plan', facility: 'DEFAULT', zones: [{ name: 'Dock', points: square(0) }, { name: 'Aisle', points: square(10) }] } }));
    ok(await app.request('POST', '/control/v1/currentZoneMap/select/plan'));
    ok(await app.request('POST', '/configuration/v1/readerDefinitions/create', { body: { name: 'r1', type: 'XSPAN', readerZone: 'Dock' } }));
    ok(await app.request('POST', '/configuration/v1/readerConfigurations/create', { body: { name: 'inv', operation: 'INVENTORY', configuration: { readerMode: 'MAX_THROUGHPUT', session: 2, searchMode: 'DUAL_TARGET' } } }));
  });
  after(async () => app?.stop());

  it('reader definition: type errors and every rule error, the stored definition unchanged', async () => {
    const before = await app.request('GET', '/configuration/v1/readerDefinitions/show/r1');
    const res = await app.request('PUT', '/configuration/v1/readerDefinitions/createOrReplace', {
      body: { name: 'r1', type: 'XSPAN', groups: 'dock', address: 'not a host!!', placement: { yaw: 400, pitch: 'up' }, readerZone: 'dock', antennaZones: { '14': 'Dock', '2': 'Aisle 9' } },
    });
    expect(res.status).to.equal(400);
    expect(paths(res)).to.have.members(['body.groups', 'body.placement.pitch', 'body.placement.yaw', 'body.address', 'body.antennaZones.14', 'body.readerZone', 'body.antennaZones.2']);
    expect(reasonAt(res, 'body.placement.yaw')).to.match(/between -360 and 360/);
    expect(reasonAt(res, 'body.readerZone')).to.contain('is not in zone map plan');
    expect(res.body.message).to.match(/^Invalid request body: body\.groups .* \(and 6 more\)$/);
    expect((await app.request('GET', '/configuration/v1/readerDefinitions/show/r1')).body).to.deep.equal(before.body);
  });

  it('reader definition: zone names are not judged against a facility that did not decode', async () => {
    const res = await app.request('POST', '/configuration/v1/readerDefinitions/create', { body: { name: 'r2', facility: 7, readerZone: 'Nowhere', placement: { roll: -500 } } });
    expect(res.status).to.equal(400);
    expect(paths(res)).to.have.members(['body.facility', 'body.placement.roll']);
    expect((await app.request('GET', '/configuration/v1/readerDefinitions/show/r2')).status).to.equal(404);
  });

  it('zone map: a type error in one row, rule errors in two others and in the facility, rows named as sent', async () => {
    const res = await app.request('PUT', '/configuration/v1/zoneMaps/createOrReplace', {
      body: {
        name: 'plan',
        facility: 'Nowhere',
        zones: [{ name: 'Dock', points: [{ x: 'a', y: 0 }, ...square(0).slice(1)] }, { name: 'ABSENT', points: square(10) }, { name: 'Line', points: [{ x: 1, y: 1 }] }, { name: 'Aisle', points: square(20) }],
      },
    });
    expect(res.status).to.equal(400);
    expect(paths(res)).to.have.members(['body.zones.0.points.0.x', 'body.facility', 'body.zones.1.name', 'body.zones.2.points']);
    expect(reasonAt(res, 'body.zones.1.name')).to.contain('reserved zone name');
    const stored = await app.request('GET', '/configuration/v1/zoneMaps/show/plan');
    expect(stored.body.zones.map((z: { name: string }) => z.name)).to.deep.equal(['Dock', 'Aisle']);
  });

  it('reader configuration: a type error beside a rule error', async () => {
    const res = await app.request('POST', '/configuration/v1/readerConfigurations/create', {
      body: { name: 'inv2', operation: 'INVENTORY', configuration: { readerMode: 'MAX_THROUGHPUT', session: 'two', searchMode: 'DUAL_TARGET', transmitPowerInDbm: 40 } },
    });
    expect(res.status).to.equal(400);
    expect(paths(res)).to.have.members(['body.configuration.session', 'body.configuration.transmitPowerInDbm']);
    expect(res.body.message).to.match(/^Invalid reader configuration: /);
    expect((await app.request('GET', '/configuration/v1/readerConfigurations/show/inv2')).status).to.equal(404);
  });

  it('recipe: a type error beside rule errors of other fields', async () => {
    const res = await app.request('POST', '/configuration/v1/recipes/create', {
      body: { name: 'rec', type: 'INVENTORY', readerConfigurationName: 'inv', computeWindow: 'long', tagHeartbeatMinutes: 5, tagHeartbeatDuration: 'PT5M', readerConfigurations: { ghost: 'inv' } },
    });
    expect(res.status).to.equal(400);
    const got = paths(res);
    expect(got).to.include.members(['body.computeWindow', 'body.readerConfigurations.ghost']);
    expect(got.some((p) => p === 'body.tagHeartbeatMinutes' || p === 'body.tagHeartbeatDuration'), got.join()).to.equal(true);
    expect((await app.request('GET', '/configuration/v1/recipes/show/rec')).status).to.equal(404);
  });

  it('threshold: a type error in one reader row, an unknown reader in another, an unknown facility', async () => {
    const res = await app.request('POST', '/configuration/v1/thresholds/create', {
      body: { name: 'door', readerArrangement: 'OVERHEAD', facility: 'Nowhere', readers: { r1: { antennaConfigurationId: 'one' }, ghost: { antennaConfigurationId: 1 } } },
    });
    expect(res.status).to.equal(400);
    expect(paths(res)).to.have.members(['body.readers.r1.antennaConfigurationId', 'body.facility', 'body.readers.ghost']);
    expect((await app.request('GET', '/configuration/v1/thresholds/show')).body).to.deep.equal([]);
  });
});
