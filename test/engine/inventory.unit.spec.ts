import { expect } from 'chai';
import { ABSENT, FACILITY } from '../../src/engine';
import { INVENTORY_HYSTERESIS_DB } from '../../src/engine/inventory';
import { at, brief, Harness, inventoryRecipe, job, rect, reader, zoneMap } from './fixtures';

// Facility "North": Dock (0..10) and Store (10..30) on floor 1; "South" has no zone map.
const north = zoneMap('North', rect('Dock', '1', 0, 0, 10, 10), rect('Store', '1', 10, 0, 30, 10));
const readers = {
  gate: reader(5, 5, '1', { antennaZones: { '1': 'Gate', '3': 'Ramp' }, readerZone: 'DockDoor' }),
  door: reader(5, 5, '1', { readerZone: 'DockDoor' }),
  shelfA: reader(15, 5, '1'),
  shelfB: reader(25, 5, '1'),
  yard: reader(50, 50, '1'),
  upstairs: reader(15, 5, '2'),
};
const inv = job('job-inv', 'North', inventoryRecipe(), { readers, map: north });

describe('engine INVENTORY', () => {
  describe('zone of a read', () => {
    const cases: Array<[string, string, number, string]> = [
      ['antennaZones of the antenna', 'gate', 1, 'Gate'],
      ['antennaZones of the port of a polarized antenna', 'gate', 1003, 'Ramp'],
      ['readerZone when the antenna has no zone', 'gate', 2, 'DockDoor'],
      ['readerZone when there are no antenna zones', 'door', 1, 'DockDoor'],
      ['the zone containing the placement, on the reader floor', 'shelfA', 1, 'Store'],
      ['FACILITY when the placement is outside every zone', 'yard', 1, FACILITY],
      ['FACILITY when no zone is on the reader floor', 'upstairs', 1, FACILITY],
      ['FACILITY for a reader the job does not know', 'ghost', 1, FACILITY],
    ];
    for (const [name, readerName, antenna, zone] of cases) {
      it(`given ${name}, then the tag is placed in ${zone}`, () => {
        const h = new Harness();
        const [c] = h.read(inv, readerName, [{ epc: 'E1', t: 1, antenna }]);
        expect(c?.toZone).to.equal(zone);
      });
    }

    it('given a facility without a zone map, then placement-based zones are FACILITY', () => {
      const south = job('job-s', 'South', inventoryRecipe(), { readers });
      const [c] = new Harness().read(south, 'shelfA', [{ epc: 'E1', t: 1 }]);
      expect([c?.toZone, c?.toFacility]).to.deep.equal([FACILITY, 'South']);
    });
  });

  it('given a new tag, when read, then FIRST_SEEN from ABSENT with null from-coordinates, floor and x/y of the reader', () => {
    const h = new Harness();
    h.read(inv, 'shelfA', [{ epc: 'E1', t: 1, tid: 'AB12' }]);
    expect(h.changes).to.deep.equal([
      {
        kind: 'FIRST_SEEN', epc: 'E1', tid: 'AB12', jobId: 'job-inv',
        fromZone: ABSENT, toZone: 'Store', fromFloor: null, toFloor: '1', fromFacility: null, toFacility: 'North',
        fromX: null, fromY: null, toX: 15, toY: 5, observationTime: at(1),
        reportToDatabaseEnabled: true, reportToHistoryEnabled: true, reportToMessageQueueEnabled: true,
      },
    ]);
    expect(h.item('E1')).to.deep.include({ zone: 'Store', jobId: 'job-inv', lastModifiedTime: at(1), lastSeen: at(1) });
  });

  describe('strongest RSSI within the compute window', () => {
    it('given two antennas in one report, then the stronger one places the tag', () => {
      const h = new Harness();
      h.read(inv, 'gate', [{ epc: 'E1', t: 1, antenna: 1, rssi: -70 }, { epc: 'E1', t: 1, antenna: 3, rssi: -40 }]);
      expect(h.changes.map(brief)).to.deep.equal(['E1 FIRST_SEEN ABSENT>Ramp']);
    });

    it('given a strong read, when a weaker reader sees the tag within the window, then it stays; after the window it moves', () => {
      const h = new Harness();
      h.read(inv, 'shelfA', [{ epc: 'E1', t: 0, rssi: -40 }]);
      h.read(inv, 'door', [{ epc: 'E1', t: 5, rssi: -65 }]);
      h.read(inv, 'door', [{ epc: 'E1', t: 19, rssi: -65 }]);
      expect(h.changes.map(brief)).to.deep.equal(['E1 FIRST_SEEN ABSENT>Store']);
      h.read(inv, 'door', [{ epc: 'E1', t: 21, rssi: -65 }]); // the -40 read (t=0) left the 20 s window
      expect(h.changes.map(brief)).to.deep.equal(['E1 FIRST_SEEN ABSENT>Store', 'E1 ZONE_CHANGE Store>DockDoor']);
    });

    it('given a weak read, when a stronger reader sees the tag, then it moves at once', () => {
      const h = new Harness();
      h.read(inv, 'door', [{ epc: 'E1', t: 0, rssi: -70 }]);
      h.read(inv, 'shelfA', [{ epc: 'E1', t: 2, rssi: -45 }]);
      expect(h.history('E1').map(brief)).to.deep.equal(['E1 FIRST_SEEN ABSENT>DockDoor', 'E1 ZONE_CHANGE DockDoor>Store']);
      expect(h.item('E1')?.lastModifiedTime).to.equal(at(2));
    });

    it("given a reader's newer weaker read, then it replaces that reader's older read", () => {
      const h = new Harness();
      h.read(inv, 'shelfA', [{ epc: 'E1', t: 0, rssi: -40 }]);
      h.read(inv, 'door', [{ epc: 'E1', t: 1, rssi: -50 }]);
      h.read(inv, 'shelfA', [{ epc: 'E1', t: 2, rssi: -60 }]); // the tag walked away from shelfA
      expect(h.changes.map(brief)).to.deep.equal(['E1 FIRST_SEEN ABSENT>Store', 'E1 ZONE_CHANGE Store>DockDoor']);
    });
  });

  describe('hysteresis between neighbouring readers', () => {
    // Two readers 10 m apart over two zones; a tag on the line between them.
    const pair = job('job-pair', 'North', inventoryRecipe({ computeWindowMs: 10_000 }), { readers: { left: reader(5, 5, '1'), right: reader(15, 5, '1') }, map: north });
    // Peak RSSI of either reader: -60 dB with up to +-2.5 dB of noise (a fixed sequence).
    const noise = [0.5, -2.5, 2, -1, 2.5, -2, 1, 0, -1.5, 1.5];

    it(`given a tag read by both with noise, then it keeps its first zone (a read elsewhere must be ${INVENTORY_HYSTERESIS_DB} dB stronger)`, () => {
      const h = new Harness();
      for (let i = 0; i < 60; i++) {
        const name = i % 2 === 0 ? 'left' : 'right';
        h.read(pair, name, [{ epc: 'E1', t: i, rssi: -60 + noise[i % noise.length]! + (name === 'right' ? noise[(i + 3) % noise.length]! : 0) }]);
      }
      expect(h.history('E1').map(brief)).to.deep.equal(['E1 FIRST_SEEN ABSENT>Dock']);
    });

    it('given a tag in one zone, when it walks to the other reader (much stronger there), then it changes zone at once', () => {
      const h = new Harness();
      h.read(pair, 'left', [{ epc: 'E1', t: 0, rssi: -45 }]);
      h.read(pair, 'right', [{ epc: 'E1', t: 2, rssi: -62 }]);
      h.read(pair, 'left', [{ epc: 'E1', t: 4, rssi: -58 }]);
      h.read(pair, 'right', [{ epc: 'E1', t: 6, rssi: -44 }]);
      expect(h.history('E1').map(brief)).to.deep.equal(['E1 FIRST_SEEN ABSENT>Dock', 'E1 ZONE_CHANGE Dock>Store']);
      expect(h.item('E1')?.lastModifiedTime).to.equal(at(6));
    });

    it('given a tag no longer read where it is, when its reads there leave the compute window, then a slightly stronger read elsewhere moves it', () => {
      const h = new Harness();
      h.read(pair, 'left', [{ epc: 'E1', t: 0, rssi: -60 }]);
      h.read(pair, 'right', [{ epc: 'E1', t: 5, rssi: -58 }]);
      expect(h.history('E1')).to.have.length(1);
      h.read(pair, 'right', [{ epc: 'E1', t: 11, rssi: -58 }]); // the left read (t=0) left the 10 s window
      expect(h.history('E1').map(brief)).to.deep.equal(['E1 FIRST_SEEN ABSENT>Dock', 'E1 ZONE_CHANGE Dock>Store']);
    });
  });

  it('given two readers in one zone, when the tag goes from one to the other, then MOVED (no history record)', () => {
    const h = new Harness();
    h.read(inv, 'shelfA', [{ epc: 'E1', t: 0 }]);
    h.read(inv, 'shelfB', [{ epc: 'E1', t: 30 }]);
    expect(h.changes.map(brief)).to.deep.equal(['E1 FIRST_SEEN ABSENT>Store', 'E1 MOVED Store>Store']);
    expect(h.changes[1]).to.deep.include({ fromX: 15, toX: 25 });
    expect(h.history('E1')).to.have.length(1);
  });

  it('given a tag in one facility, when a job of another facility reads it, then one record carries both facilities', () => {
    const h = new Harness();
    const south = job('job-s', 'South', inventoryRecipe(), { readers: { dock: reader(1, 1, null) } });
    h.read(inv, 'yard', [{ epc: 'E1', t: 0 }]);
    h.read(south, 'dock', [{ epc: 'E1', t: 600 }]);
    expect(h.history('E1').map(brief)).to.deep.equal([
      'E1 FIRST_SEEN ABSENT>FACILITY',
      'E1 ZONE_CHANGE FACILITY>FACILITY [North>South]',
    ]);
    expect(h.item('E1')).to.deep.include({ facility: 'South', jobId: 'job-s' });
  });

  it('given a read older than the last reported state, then it is ignored', () => {
    const h = new Harness();
    h.read(inv, 'shelfA', [{ epc: 'E1', t: 100 }]);
    h.read(inv, 'door', [{ epc: 'E1', t: 40, rssi: -30 }], 101);
    expect(h.changes.map(brief)).to.deep.equal(['E1 FIRST_SEEN ABSENT>Store']);
  });

  it('given a reader clock ahead of the engine, then the read counts at its arrival time', () => {
    const h = new Harness();
    const [c] = h.read(inv, 'shelfA', [{ epc: 'E1', t: 500 }], 10);
    expect(c?.observationTime).to.equal(at(10));
  });
});
