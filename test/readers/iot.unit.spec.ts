import { expect } from 'chai';
import * as E from 'fp-ts/Either';
import { maxPowerOf, planPreset, tagReadOf } from '../../src/readers/iot';

const reader = { maxPowerCdbm: 3150 };

describe('readers/iot: preset and events', () => {
  it('given a reader configuration, when planned, then one antenna config per port with power in cdBm, rfMode, session, search mode and population', () => {
    const p = planPreset('INVENTORY', { readerMode: 'MODE_1002', session: 1, searchMode: 'TAG_FOCUS', transmitPowerInDbm: 28.5, tagPopulationEstimate: 40, antennas: [1, 2], filter: { tagMask: '3008', memoryBank: 1, pointer: 32 } }, reader);
    if (E.isLeft(p)) expect.fail(p.left);
    expect(p.right.antennaConfigs).to.deep.equal([1, 2].map((antennaPort) => ({
      antennaPort, transmitPowerCdbm: 2850, rfMode: 1002, inventorySession: 1, inventorySearchMode: 'single-target-with-suppression', estimatedTagPopulation: 40,
      filtering: { filters: [{ action: 'include', tagMemoryBank: 'epc', bitOffset: 32, mask: '3008', maskLength: 16 }] },
    })));
    expect(E.isLeft(planPreset('LOCATION', { readerMode: 'MAX_THROUGHPUT', session: 2 }, reader))).to.equal(true);
    expect(E.isLeft(planPreset('INVENTORY', { readerMode: 'MAX_THROUGHPUT', session: 2, searchMode: 'SINGLE_TARGET_BTOA' }, reader))).to.equal(true);
    expect(planPreset('INVENTORY', { readerMode: 'MAX_THROUGHPUT', session: 2, filter: { tagMask: '00', memoryBank: 0, pointer: 0 } }, reader)).to.deep.equal(E.left('filter.memoryBank 0 cannot be filtered on over the IoT interface (epc 1, tid 2 or user 3)'));
  });

  it('given no power, search mode nor population, when planned, then the reader\'s maximum power, dual-target and the default population on ports 1-4', () => {
    const p = planPreset('INVENTORY', { readerMode: 'MAX_THROUGHPUT', session: 2 }, reader);
    if (E.isLeft(p)) expect.fail(p.left);
    expect(p.right.antennaConfigs.map((a) => [a.antennaPort, a.transmitPowerCdbm, a.inventorySearchMode, a.estimatedTagPopulation])).to.deep.equal([1, 2, 3, 4].map((port) => [port, 3150, 'dual-target', 16]));
  });

  it('given tidIncluded, when planned, then tidHex reported and fastId on every antenna (the reader reads the TID with the EPC only then); without: neither', () => {
    const withTid = planPreset('NORMAL', { readerMode: 'MAX_THROUGHPUT', session: 2, reportConfig: { tidIncluded: true } }, reader);
    if (E.isLeft(withTid)) expect.fail(withTid.left);
    expect(withTid.right.antennaConfigs.every((a) => a.fastId === 'enabled')).to.equal(true);
    expect((withTid.right.eventConfig['tagInventory'] as Record<string, unknown>)['tidHex']).to.equal('enabled');
    const without = planPreset('NORMAL', { readerMode: 'MAX_THROUGHPUT', session: 2 }, reader);
    if (E.isLeft(without)) expect.fail(without.left);
    expect(without.right.antennaConfigs.some((a) => 'fastId' in a)).to.equal(false);
    expect((without.right.eventConfig['tagInventory'] as Record<string, unknown>)['tidHex']).to.equal('disabled');
  });

  it('given a THRESHOLD configuration, when planned with the door antennas, then exactly those ports; without them, refused', () => {
    const door = planPreset('THRESHOLD', { readerMode: 'MAX_THROUGHPUT', session: 2, searchMode: 'DUAL_TARGET_WITH_BTOASELECT' }, { ...reader, doorAntennas: [1, 3] });
    if (E.isLeft(door)) expect.fail(door.left);
    expect(door.right.antennaConfigs.map((a) => [a.antennaPort, a.inventorySearchMode])).to.deep.equal([[1, 'dual-target'], [3, 'dual-target']]);
    expect(E.isLeft(planPreset('THRESHOLD', { readerMode: 'MAX_THROUGHPUT', session: 2 }, reader))).to.equal(true);
  });

  it('given a reader\'s preset schema, when read, then its highest transmitPowerCdbm maximum; none stated: null', () => {
    expect(maxPowerOf({ properties: { antennaConfigs: { items: { properties: { transmitPowerCdbm: { type: 'integer', minimum: 1000, maximum: 3000 } } } } }, other: { transmitPowerCdbm: { maximum: 3300 } } })).to.equal(3300);
    expect(maxPowerOf({ properties: { transmitPowerCdbm: { type: 'integer' } } })).to.equal(null);
    expect(maxPowerOf('not a schema')).to.equal(null);
  });

  it('given a tagInventory event as the reader sends it, when read, then EPC, antenna, RSSI in dBm and the reader time; other events are null', () => {
    const event = { timestamp: '2021-05-14T19:49:00.785Z', hostname: 'impinj-13-5c-2d', eventType: 'tagInventory', tagInventoryEvent: { epc: 'MAgzst3ZAUAAAAAB', epcHex: '300833b2ddd9014000000001', antennaPort: 1, antennaName: 'Antenna 1', peakRssiCdbm: -5800, frequency: 920750, transmitPowerCdbm: 3000, lastSeenTime: '2021-05-14T19:49:00.700Z' } };
    expect(tagReadOf(event)).to.deep.equal({ epc: '300833B2DDD9014000000001', antennaId: 1, peakRssi: -58, firstSeenUs: Date.parse('2021-05-14T19:49:00.700Z') * 1000, lastSeenUs: Date.parse('2021-05-14T19:49:00.700Z') * 1000, seenCount: 1, channelIndex: null, phaseAngle: null, tid: null });
    const withTidAndPhase = { ...event, tagInventoryEvent: { ...event.tagInventoryEvent, tidHex: 'e280116020005a1b', phaseAngle: 271.5 } };
    expect(tagReadOf(withTidAndPhase)).to.deep.include({ tid: 'E280116020005A1B', phaseAngle: 271.5 });
    expect(tagReadOf({ ...event, tagInventoryEvent: { ...event.tagInventoryEvent, tidHex: 'not hex', phaseAngle: 400 } })).to.deep.include({ tid: null, phaseAngle: null });
    const base64Only = { ...event, tagInventoryEvent: { epc: 'MAgzst3ZAUAAAAAB', antennaPort: 2 } };
    expect(tagReadOf(base64Only)?.epc).to.equal('300833B2DDD9014000000001');
    expect(tagReadOf({ eventType: 'antennaConnected', antennaConnectedEvent: { antennaPort: 1 } })).to.equal(null);
    expect(tagReadOf('nonsense')).to.equal(null);
  });
});
