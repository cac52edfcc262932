// What a client PUTs is what it GETs: for every configuration resource, a
// document with every field set (numbers as numbers, strings as strings) is
// written with the replace call and read back; the answer, without the
// fields the service owns, is the same JSON text (keys sorted).
import { expect } from 'chai';
import { startTestApp, type TestApp } from '../support/app';

/** JSON text with object keys sorted at every level. */
const canonical = (v: unknown): string => JSON.stringify(v, (_k, x: unknown) =>
  x !== null && typeof x === 'object' && !Array.isArray(x) ? Object.fromEntries(Object.entries(x as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b))) : x);

const without = (doc: Record<string, unknown>, fields: readonly string[]): Record<string, unknown> =>
  Object.fromEntries(Object.entries(doc).filter(([k]) => !fields.includes(k)));

describe('configuration round trip: what you PUT is what you GET', function () {
  this.timeout(60_000);
  let app: TestApp;
  before(async () => {
    app = await startTestApp();
  });
  after(async () => app?.stop());

  const roundTrip = async (what: string, put: { path: string; body: Record<string, unknown> }, get: string, serverFields: readonly string[] = []) => {
    const written = await app.request('PUT', put.path, { body: put.body });
    expect(written.status, `${what}: ${JSON.stringify(written.body)}`).to.equal(200);
    expect(canonical(without(written.body, serverFields)), `${what}: the PUT answer`).to.equal(canonical(put.body));
    const read = await app.request('GET', get);
    expect(read.status, what).to.equal(200);
    expect(canonical(without(read.body, serverFields)), `${what}: the GET answer`).to.equal(canonical(put.body));
  };

  it('facility, zone map, reader definition (floor as a number and as a string)', async () => {
    await roundTrip('facility', { path: '/configuration/v1/facilities/createOrReplace', body: { name: 'North' } }, '/configuration/v1/facilities/show/North');
    await roundTrip('EPCIS location identifiers', {
      path: '/configuration/v1/epcisLocations/createOrReplace',
      body: { facility: 'North', bizLocation: 'urn:epc:id:sgln:0614141.00777.0', timeZone: 'Europe/Berlin', zones: { Dock: 'urn:epc:id:sgln:0614141.00777.1' }, thresholds: { 'Door 1': 'https://ids.example.com/doors/1' } },
    }, '/configuration/v1/epcisLocations/show/North');
    const zoneMap = {
      name: 'hall', facility: 'North',
      zones: [{ name: 'Dock', floor: '1', points: [{ x: 0, y: 0, z: 0 }, { x: 10.5, y: 0, z: 0 }, { x: 10.5, y: 4.25, z: 0 }] }],
    };
    await roundTrip('zone map', { path: '/configuration/v1/zoneMaps/createOrReplace', body: zoneMap }, '/configuration/v1/zoneMaps/show/hall');
    for (const floor of [1, '1', 'B2']) {
      const reader = {
        name: `xa-${String(floor)}`, address: 'xa.local', groups: ['dock', 'north'], type: 'XARRAY', facility: 'North',
        placement: { x: 1.5, y: 2, z: 3, yaw: 90, pitch: 0, roll: 0, floor },
        readerZone: 'Dock', antennaZones: { '1': 'DockLeft', '2': 'DockRight' }, labels: ['ceiling'],
      };
      await roundTrip(`reader definition, floor ${JSON.stringify(floor)}`, { path: '/configuration/v1/readerDefinitions/createOrReplace', body: reader },
        `/configuration/v1/readerDefinitions/show/${reader.name}`, ['agentIdentifier', 'features', 'connection']);
    }
  });

  it('reader configurations of each operation and recipes of each type', async () => {
    const inventory = {
      name: 'inv-all', operation: 'INVENTORY',
      configuration: {
        readerMode: 'MAX_THROUGHPUT', session: 2, searchMode: 'DUAL_TARGET', filter: { tagMask: 'E280', memoryBank: 1, pointer: 32 },
        tagPopulationEstimate: 50, transmitPowerInDbm: 30.5, polarization: true, antennas: [1, 2, 1003],
        channelConfig: { channelIndex: 2, txFrequenciesInMhz: [902.75, 903.25] },
      },
    };
    const location = { name: 'loc-all', operation: 'LOCATION', configuration: { readerMode: 'MAX_MILLER', session: 3, filter: null, transmitPowerInDbm: 20, disabledAntennas: [4] } };
    const threshold = { name: 'thr-all', operation: 'THRESHOLD', configuration: { readerMode: 'MAX_THROUGHPUT', session: 1, searchMode: 'DUAL_TARGET_WITH_BTOASELECT', filter: null, tagPopulationEstimate: null, transmitPowerInDbm: null, polarization: false, channelConfig: null } };
    // Every optional field unset: null comes back (searchMode null included).
    const bare = { name: 'thr-bare', operation: 'THRESHOLD', configuration: { readerMode: 'MAX_THROUGHPUT', session: 2, searchMode: null, filter: null, tagPopulationEstimate: null, transmitPowerInDbm: null, polarization: null, channelConfig: null } };
    for (const rc of [inventory, location, threshold, bare]) {
      await roundTrip(`reader configuration ${rc.operation}`, { path: '/configuration/v1/readerConfigurations/createOrReplace', body: rc }, `/configuration/v1/readerConfigurations/show/${rc.name}`);
    }
    const recipes = [
      { name: 'r-inv', type: 'INVENTORY', readerConfigurationName: 'inv-all', readerConfigurations: { 'xa-1': 'inv-all' }, tagHeartbeatDuration: 'PT10M', tagExpiryDuration: 'PT1M', computeWindow: 30, reportingInterval: 10, locationAggregationModel: 'BY_TIME' },
      { name: 'r-loc', type: 'LOCATION', readerConfigurationName: 'loc-all', readerConfigurations: {}, tagHeartbeatDuration: 'PT5M', tagExpiryDuration: null, minimumMovementInMeters: 1.5, computeWindow: 10, reportingInterval: 5 },
      { name: 'r-thr', type: 'THRESHOLD', readerConfigurationName: 'thr-all', readerConfigurations: {}, thresholdIds: [], profile: 'door', iterationDataLogEnabled: true,
        transitionParameters: { passageWindowSeconds: 12, quietSeconds: 2, settleSeconds: 3.5, minConfidence: 0.6, minBalanceShift: 0.25 } },
    ];
    for (const r of recipes) {
      await roundTrip(`recipe ${r.type}`, { path: '/configuration/v1/recipes/createOrReplace', body: r }, `/configuration/v1/recipes/show/${r.name}`);
    }
  });

  it('antenna configuration and threshold at their REST paths', async () => {
    const configs = '/configuration/v1/thresholds/antennaConfigurations';
    const created = await app.request('POST', configs, { body: { name: 'door', side: 'LEFT', readerType: 'XARRAY', readerArrangement: 'OVERHEAD' } });
    const id = created.body.id as number;
    const config = { id, name: 'door', side: 'RIGHT', readerType: 'XARRAY', readerArrangement: 'OVERHEAD', in: [{ antennaId: 13 }], out: [{ antennaId: 17 }], ignored: [{ antennaId: 1 }] };
    await roundTrip('antenna configuration', { path: `${configs}/${id}`, body: config }, `${configs}/${id}`);
    const threshold = { id: 7, name: 'dock door', facility: 'North', readerArrangement: 'OVERHEAD', readers: { 'xa-1': { antennaConfigurationId: id } } };
    await roundTrip('threshold', { path: '/configuration/v1/thresholds/7', body: threshold }, '/configuration/v1/thresholds/7');
  });
});
