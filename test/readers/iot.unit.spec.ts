import { expect } from 'chai';
import * as E from 'fp-ts/Either';
import { planPreset, tagReadOf } from '../../src/readers/iot';

describe('readers/iot: preset and events', () => {
  it('given a reader configuration, when planned, then one antenna config per port with power in cdBm, rfMode, session and search mode', () => {
    const p = planPreset('INVENTORY', { readerMode: 'MODE_1002', session: 1, searchMode: 'TAG_FOCUS', transmitPowerInDbm: 28.5, antennas: [1, 2], filter: { tagMask: '3008', memoryBank: 1, pointer: 32 } });
    if (E.isLeft(p)) expect.fail(p.left);
    expect(p.right.antennaConfigs).to.deep.equal([1, 2].map((antennaPort) => ({
      antennaPort, transmitPowerCdbm: 2850, rfMode: 1002, inventorySession: 1, inventorySearchMode: 'single-target-with-suppression',
      filtering: { filters: [{ action: 'include', tagMemoryBank: 'epc', bitOffset: 32, mask: '3008', maskLength: 16 }] },
    })));
    expect(E.isLeft(planPreset('LOCATION', { readerMode: 'MAX_THROUGHPUT', session: 2 }))).to.equal(true);
    expect(E.isLeft(planPreset('INVENTORY', { readerMode: 'MAX_THROUGHPUT', session: 2, searchMode: 'SINGLE_TARGET_BTOA' }))).to.equal(true);
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
