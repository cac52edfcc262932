import { expect } from 'chai';
import { defaultAntennas, type Layout, type ReaderLayout } from '../../src/simulator/layout';
import { enabledAntennas, meanRssi, newSessionState, readProbability, readWindow, SENSITIVITY_DBM, type ReadSettings } from '../../src/simulator/radio';
import { World } from '../../src/simulator/world';

const placement = { x: 0, y: 0, z: 4, floor: '1' };
const speedway: ReaderLayout = { name: 'sw-1', family: 'SPEEDWAY', placement, antennas: defaultAntennas('SPEEDWAY', placement) };
const xarray: ReaderLayout = { name: 'xa-1', family: 'XARRAY', placement, antennas: defaultAntennas('XARRAY', placement) };
const inventory = (over: Partial<ReadSettings> = {}): ReadSettings => ({
  operation: 'INVENTORY', readerMode: 'MAX_THROUGHPUT', session: 2, searchMode: 'DUAL_TARGET', polarization: false, antennas: null, disabledAntennas: [], transmitPowerInDbm: null, ...over,
});

/** One tag standing still at (x, y) from time 0 on. */
function still(x: number, y: number, reader: ReaderLayout = speedway): World {
  const half = 0.05;
  const layout: Layout = {
    facility: 'F', zoneMapName: 'z', readers: [reader], tags: [{ epc: 'E2000001', tid: 'E2801160' }],
    zones: [{ name: 'Spot', floor: '1', points: [{ x: x - half, y: y - half }, { x: x + half, y: y + half }] }],
  };
  return World.scripted(layout, 1, [{ epc: 'E2000001', at: 0, zone: 'Spot' }]);
}

const reads = (world: World, settings: ReadSettings, seconds: number, reader: ReaderLayout = speedway, seed = 1): number => {
  const state = newSessionState();
  let total = 0;
  for (let t = 0; t < seconds; t += 5) total += readWindow({ world, reader, settings, from: t, to: t + 5, seed, state }).reduce((a, o) => a + o.readCount, 0);
  return total;
};

describe('simulator radio model', () => {
  it('RSSI falls with distance and the read probability with RSSI (misses grow with distance)', () => {
    expect(meanRssi('SPEEDWAY', 1, 30)).to.be.greaterThan(meanRssi('SPEEDWAY', 5, 30));
    expect(meanRssi('SPEEDWAY', 5, 30)).to.be.greaterThan(meanRssi('SPEEDWAY', 20, 30));
    expect(meanRssi('SPEEDWAY', 5, 33)).to.equal(meanRssi('SPEEDWAY', 5, 30) + 3);
    expect(readProbability(-45)).to.be.greaterThan(0.95);
    expect(readProbability(SENSITIVITY_DBM)).to.be.closeTo(0.485, 0.01);
    expect(readProbability(-80)).to.equal(0);
    const near = reads(still(1, 1), inventory({ session: 0 }), 20);
    const far = reads(still(14, 0), inventory({ session: 0 }), 20);
    const gone = reads(still(60, 0), inventory({ session: 0 }), 20);
    expect(near).to.be.greaterThan(far);
    expect(far).to.be.greaterThan(0);
    expect(gone).to.equal(0);
  });

  it('is deterministic: the same seed gives the same reports', () => {
    const world = World.random({ facility: 'F', zoneMapName: 'z', readers: [xarray], tags: Array.from({ length: 20 }, (_, i) => ({ epc: `E2000${i + 10}`, tid: null })), zones: [{ name: 'A', floor: '1', points: [{ x: -8, y: -8 }, { x: 8, y: 8 }] }] }, 4);
    const run = (seed: number): unknown[] => {
      const state = newSessionState();
      return [0, 2, 4].map((t) => readWindow({ world, reader: xarray, settings: inventory(), from: t, to: t + 2, seed, state }));
    };
    expect(run(7)).to.deep.equal(run(7));
    expect(run(7)).to.not.deep.equal(run(8));
  });

  it('session 2 single target reads a dwelling tag once; dual target (A and B flip every round) and session 0 re-read it', () => {
    const world = still(1, 0);
    const single = reads(world, inventory({ searchMode: 'SINGLE_TARGET' }), 30);
    const dual = reads(world, inventory({ searchMode: 'DUAL_TARGET' }), 30);
    const s0 = reads(world, inventory({ session: 0, searchMode: 'SINGLE_TARGET' }), 30);
    expect(single).to.equal(1);
    expect(dual).to.be.within(90, 120); // at most once a round, 4 rounds/s
    expect(s0).to.be.greaterThan(dual); // every antenna, every round
  });

  it('single target reads a tag again once it was out of the field long enough', () => {
    const layout: Layout = {
      facility: 'F', zoneMapName: 'z', readers: [speedway], tags: [{ epc: 'E2000001', tid: null }],
      zones: [{ name: 'Near', floor: '1', points: [{ x: 0.9, y: 0.9 }, { x: 1.1, y: 1.1 }] }],
    };
    const world = World.scripted(layout, 1, [
      { epc: 'E2000001', at: 0, zone: 'Near' },
      { epc: 'E2000001', at: 10, leave: true },
      { epc: 'E2000001', at: 20, zone: 'Near' },
    ]);
    expect(reads(world, inventory({ searchMode: 'SINGLE_TARGET' }), 30)).to.equal(2);
  });

  it('reports polarized antenna ids (1000+/2000+ port) when polarization is on, plain ids otherwise', () => {
    const all = enabledAntennas(speedway, inventory({ polarization: true, antennas: [1, 2003] })).map((a) => a.reportedId);
    expect(all).to.deep.equal([1001, 2001, 2003]);
    expect(enabledAntennas(speedway, inventory({ antennas: [1, 3] })).map((a) => a.reportedId)).to.deep.equal([1, 3]);
    expect(enabledAntennas(speedway, inventory()).map((a) => a.reportedId)).to.deep.equal([1, 2, 3, 4]);
    expect(enabledAntennas(xarray, { ...inventory(), operation: 'LOCATION', disabledAntennas: [1, 2] })).to.have.length(50);
    const state = newSessionState();
    const obs = readWindow({ world: still(1, 1), reader: speedway, settings: inventory({ polarization: true, session: 0 }), from: 0, to: 5, seed: 1, state });
    expect(obs.length).to.be.greaterThan(0);
    for (const o of obs) expect(o.antennaId).to.satisfy((id: number) => (id > 1000 && id < 1053) || (id > 2000 && id < 2053));
    const plain = readWindow({ world: still(1, 1), reader: speedway, settings: inventory({ session: 0 }), from: 0, to: 5, seed: 1, state: newSessionState() });
    for (const o of plain) expect(o.antennaId).to.be.within(1, 4);
  });

  it('an observation carries EPC, TID, antenna, peak RSSI, count and first/last seen within the window', () => {
    const obs = readWindow({ world: still(1, 1), reader: speedway, settings: inventory({ session: 0 }), from: 10, to: 15, seed: 1, state: newSessionState() });
    for (const o of obs) {
      expect(o.epc).to.equal('E2000001');
      expect(o.tid).to.equal('E2801160');
      expect(o.readCount).to.be.greaterThan(0);
      expect(o.firstSeen).to.be.at.least(10);
      expect(o.lastSeen).to.be.below(15);
      expect(o.firstSeen).to.be.at.most(o.lastSeen);
      expect(o.peakRssi % 0.5).to.equal(0);
      expect(o.x).to.equal(null);
    }
  });

  it('LOCATION readers report one x/y estimate per tag, near the truth with noise', () => {
    const world = still(3, 2, xarray);
    const xs: number[] = [];
    const ys: number[] = [];
    const state = newSessionState();
    for (let t = 0; t < 100; t += 1) {
      const obs = readWindow({ world, reader: xarray, settings: { ...inventory(), operation: 'LOCATION', searchMode: null }, from: t, to: t + 1, seed: 2, state });
      expect(obs.length).to.be.at.most(1);
      for (const o of obs) {
        xs.push(o.x!);
        ys.push(o.y!);
      }
    }
    expect(xs.length).to.be.greaterThan(80);
    const mean = (v: number[]): number => v.reduce((a, b) => a + b, 0) / v.length;
    expect(mean(xs)).to.be.closeTo(3, 0.3);
    expect(mean(ys)).to.be.closeTo(2, 0.3);
    expect(new Set(xs).size).to.be.greaterThan(10); // noisy, not the exact point
  });
});
