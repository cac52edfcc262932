import { expect } from 'chai';
import * as E from 'fp-ts/Either';
import type { Capabilities } from '../../src/llrp/messages';
import { planRoSpec, thresholdDoorPlan, type DoorPlan } from '../../src/readers/plan';
import type { AntennaConfiguration, Threshold } from '../../src/thresholds';
import type { ThresholdRecipe } from '../../src/recipes';
import { ReadBatch } from '../../src/readers/batch';
import { backoffDelay } from '../../src/core/retry';
import { reconnectBackoff } from '../../src/readers/settings';
import type { ReaderConfigDetails } from '../../src/readerconfigurations';

const impinj: Capabilities = {
  maxAntennas: 4,
  manufacturer: 25882,
  model: 1,
  firmware: '7.6.1',
  transmitPower: [{ index: 1, dbm: 10 }, { index: 2, dbm: 20 }, { index: 3, dbm: 30 }, { index: 4, dbm: 31.5 }],
  rfModes: [0, 1, 2, 1002],
};
const cfg = (over: Partial<ReaderConfigDetails> = {}): ReaderConfigDetails => ({ readerMode: 'MAX_THROUGHPUT', session: 2, ...over });
const plan = (c: ReaderConfigDetails, caps = impinj, operation = 'INVENTORY') => planRoSpec({ operation, configuration: c, capabilities: caps });
const reason = (r: ReturnType<typeof plan>): string => (E.isLeft(r) ? r.left : expect.fail(`planned: ${JSON.stringify(r.right)}`));

describe('readers/plan: reader configuration -> ROSpec through the capabilities', () => {
  it('given a plain configuration, when planned, then every antenna (AntennaIDs 0), the RF mode, session, search mode and the reader\'s highest power level', () => {
    const r = plan(cfg({ searchMode: 'DUAL_TARGET', tagPopulationEstimate: 100 }));
    if (E.isLeft(r)) expect.fail(r.left);
    expect(r.right.antennaIds).to.deep.equal([0]);
    expect(r.right.antennas.map((a) => a.antennaId)).to.deep.equal([1, 2, 3, 4]);
    expect(r.right.antennas[0]).to.deep.include({ modeIndex: 0, session: 2, impinjSearchMode: 2, tagPopulation: 100, transmitPowerIndex: 4 });
    const noTable = plan(cfg(), { ...impinj, transmitPower: [] });
    expect(E.isRight(noTable) && noTable.right.antennas[0]?.transmitPowerIndex).to.equal(null);
    expect(r.right.impinjPeakRssi).to.equal(true);
  });

  it('given a power between two levels, when planned, then the highest level not above it; above the table or below it is refused', () => {
    const r = plan(cfg({ transmitPowerInDbm: 30.9 }));
    expect(E.isRight(r) && r.right.antennas[0]?.transmitPowerIndex).to.equal(3);
    expect(reason(plan(cfg({ transmitPowerInDbm: 33 })))).to.equal("transmitPowerInDbm 33 dBm is above the reader's maximum 31.5 dBm");
    expect(reason(plan(cfg({ transmitPowerInDbm: 5 })))).to.equal("transmitPowerInDbm 5 dBm is below the reader's minimum 10 dBm");
  });

  it('given antennas, when planned, then those minus the disabled; an antenna the reader lacks is refused', () => {
    const r = plan(cfg({ antennas: [1, 2, 3], disabledAntennas: [2] }));
    expect(E.isRight(r) && r.right.antennaIds).to.deep.equal([1, 3]);
    expect(reason(plan(cfg({ antennas: [1, 5] })))).to.equal('antenna 5 not on the reader: it has antennas 1-4');
  });

  it('given what the reader or LLRP cannot do, when planned, then a reason naming the setting', () => {
    expect(reason(plan(cfg({ readerMode: 'MODE_1004' })))).to.contain("readerMode MODE_1004 (RF mode 1004) is not in the reader's RF mode table (0, 1, 2, 1002)");
    expect(reason(plan(cfg({ searchMode: 'SINGLE_TARGET' }), { ...impinj, manufacturer: 161 }))).to.contain('Impinj extension');
    expect(reason(plan(cfg(), impinj, 'DO_NOTHING'))).to.contain('operation DO_NOTHING is not available over LLRP');
    expect(reason(plan(cfg({ polarization: true })))).to.contain('polarization');
    expect(reason(plan(cfg({ transmitPowerInDbm: 30 }), { ...impinj, transmitPower: [] }))).to.contain('no transmit power table');
  });

  it('given tidIncluded, when planned, then Impinj\'s serialized TID on an Impinj reader, an AccessSpec of the TID bank on another maker\'s', () => {
    const tid = cfg({ reportConfig: { tidIncluded: true } });
    const onImpinj = plan(tid);
    const onOther = plan(tid, { ...impinj, manufacturer: 161 });
    expect(E.isRight(onImpinj) && [onImpinj.right.impinjTid, onImpinj.right.accessTid]).to.deep.equal([true, false]);
    expect(E.isRight(onOther) && [onOther.right.impinjTid, onOther.right.accessTid]).to.deep.equal([false, true]);
    const none = plan(cfg());
    expect(E.isRight(none) && [none.right.impinjTid, none.right.accessTid]).to.deep.equal([false, false]);
  });

  it('given LOCATION, when planned, then refused on a reader that computes no locations or without a placement; on an xArray an ImpinjLISpec with the mode, session and placement', () => {
    const placement = { x: 1, y: 2, z: 4, yawDegrees: 0 };
    const locate = (caps: Capabilities, p: typeof placement | null = placement, c = cfg({ readerMode: 'AUTOSET_DENSE_READER' })) => planRoSpec({ operation: 'LOCATION', configuration: c, capabilities: { ...caps, rfModes: [...caps.rfModes, 1000] }, placement: p });
    expect(reason(locate(impinj))).to.equal('LOCATION needs a reader that computes tag locations itself (an Impinj xArray or xSpan, which reports ImpinjxArrayCapabilities); this reader (manufacturer 25882, model 1) does not');
    const xarray = { ...impinj, computesLocations: true };
    expect(reason(locate(xarray, null))).to.contain("reader definition's placement");
    expect(reason(locate(xarray, placement, cfg({ readerMode: 'AUTOSET_DENSE_READER', disabledAntennas: [3] })))).to.contain('disabledAntennas');
    const r = locate(xarray);
    expect(E.isRight(r) && r.right.location).to.deep.equal({ modeIndex: 1000, session: 2, reportIntervalSeconds: 1, placement });
  });

  it('given a filter, when planned, then its mask bytes, bank and pointer', () => {
    const r = plan(cfg({ filter: { tagMask: '3008', memoryBank: 1, pointer: 32 } }));
    expect(E.isRight(r) && r.right.antennas[0]?.filter).to.deep.equal({ memoryBank: 1, pointer: 32, mask: Buffer.from('3008', 'hex') });
    expect(reason(plan(cfg({ filter: { tagMask: '300', memoryBank: 1, pointer: 32 } })))).to.contain('even number of hex digits');
  });
});

describe('readers/plan: THRESHOLD doors', () => {
  const door = (id: number, facility: string, readers: Record<string, number>): Threshold => ({ id, name: `door ${id}`, facility, readerArrangement: 'SIDE_BY_SIDE', readers: Object.fromEntries(Object.entries(readers).map(([r, c]) => [r, { antennaConfigurationId: c }])) });
  const antennas = (id: number, inIds: number[], outIds: number[], ignored: number[] = []): AntennaConfiguration => ({
    id, name: `c${id}`, side: 'LEFT', readerType: 'SPEEDWAY', readerArrangement: 'SIDE_BY_SIDE',
    in: inIds.map((antennaId) => ({ antennaId })), out: outIds.map((antennaId) => ({ antennaId })), ignored: ignored.map((antennaId) => ({ antennaId })),
  });
  const recipe = (thresholdIds: number[] = []): ThresholdRecipe => ({ name: 'r', type: 'THRESHOLD', readerConfigurations: {}, thresholdIds, iterationDataLogEnabled: false });
  const thresholds = [door(1, 'F', { dock: 1 }), door(2, 'F', { dock: 2, other: 1 }), door(3, 'G', { dock: 3 })];
  const configs = [antennas(1, [3], [1], [2]), antennas(2, [4], [2]), antennas(3, [5], [6])];
  const planDoor = (reader: string, r = recipe()) => thresholdDoorPlan({ reader, recipe: r, facility: 'F', thresholds, antennaConfigurations: configs });

  it('given a reader on two doors of the facility, when planned, then the in and out antennas of both, not the ignored nor another facility\'s, reported every 500 ms', () => {
    const r = planDoor('dock');
    expect(r).to.deep.equal(E.right({ antennaIds: [1, 2, 3, 4], reportIntervalMs: 500 }));
  });

  it('given a recipe naming one threshold, when planned, then only that door\'s antennas', () => {
    expect(planDoor('dock', recipe([1]))).to.deep.equal(E.right({ antennaIds: [1, 3], reportIntervalMs: 500 }));
  });

  it('given an xArray door whose antenna configuration names polarized beams, when planned, then refused naming them and their ports; the same beams by port plan', () => {
    const overhead = (inIds: number[], outIds: number[]) => thresholdDoorPlan({ reader: 'xa', recipe: recipe(), facility: 'F', thresholds: [door(9, 'F', { xa: 9 })], antennaConfigurations: [{ ...antennas(9, inIds, outIds, [1]), readerType: 'XARRAY', readerArrangement: 'OVERHEAD' }] });
    const r = overhead([1013], [2017]);
    expect(E.isLeft(r) && r.left).to.equal('the thresholds\' antenna configuration gives reader xa polarized beam ids (1013, 2017), which only a reader driven by its agent reports; over LLRP and the IoT interface the reader reports its ports (here 13, 17), whose reads would count for neither side: list the ports instead');
    expect(overhead([13], [17])).to.deep.equal(E.right({ antennaIds: [13, 17], reportIntervalMs: 500 }));
  });

  it('given a reader no threshold of the job uses, when planned, then a reason naming the reader', () => {
    const r = planDoor('stranger');
    expect(E.isLeft(r) && r.left).to.contain('reader stranger');
  });

  it('given a door plan, when the ROSpec is planned, then exactly its antennas; one the reader lacks is refused; THRESHOLD without a door plan is refused', () => {
    const doorPlan: DoorPlan = { antennaIds: [1, 3], reportIntervalMs: 500 };
    const r = planRoSpec({ operation: 'THRESHOLD', configuration: cfg(), capabilities: impinj, door: doorPlan });
    expect(E.isRight(r) && r.right.antennaIds).to.deep.equal([1, 3]);
    expect(E.isRight(r) && r.right.antennas.map((a) => a.antennaId)).to.deep.equal([1, 3]);
    expect(reason(planRoSpec({ operation: 'THRESHOLD', configuration: cfg(), capabilities: impinj, door: { antennaIds: [1, 8], reportIntervalMs: 500 } }))).to.equal('antenna 8 not on the reader: it has antennas 1-4');
    expect(reason(plan(cfg(), impinj, 'THRESHOLD'))).to.contain('THRESHOLD needs the antennas');
  });
});

describe('readers/batch', () => {
  it('given reads of one tag on one antenna, when taken, then one observation: counts summed, highest RSSI, earliest first and latest last seen', () => {
    const b = new ReadBatch();
    const read = { epc: 'E2801', antennaId: 1, channelIndex: null, phaseAngle: null, tid: null };
    b.add([{ ...read, peakRssi: -60, firstSeenUs: 1_000_000, lastSeenUs: 2_000_000, seenCount: 2 }], 0);
    b.add([{ ...read, peakRssi: -55, firstSeenUs: 500_000, lastSeenUs: 1_500_000, seenCount: 3 }, { ...read, antennaId: 99, peakRssi: 0, firstSeenUs: 0, lastSeenUs: 0, seenCount: 1 }], 0);
    const out = b.take();
    expect(out?.observations).to.deep.equal([{ epc: 'E2801', tid: null, antennaId: 1, peakRssi: -55, readCount: 5, firstSeen: '1970-01-01T00:00:00.500Z', lastSeen: '1970-01-01T00:00:02.000Z', x: null, y: null }]);
    expect(out?.fromMs).to.equal(500);
    expect(b.dropped).to.equal(1);
    expect(b.take()).to.equal(null);
  });

  it('given reads with TID and phase angle, when taken, then the first TID given and the phase of the latest read that had one; none: no phaseAngle', () => {
    const b = new ReadBatch();
    const read = { epc: 'E2802', antennaId: 2, channelIndex: null, peakRssi: -60, seenCount: 1 };
    b.add([
      { ...read, firstSeenUs: 3_000_000, lastSeenUs: 3_000_000, phaseAngle: 30, tid: null },
      { ...read, firstSeenUs: 1_000_000, lastSeenUs: 1_000_000, phaseAngle: 10, tid: 'E2801160' },
      { ...read, firstSeenUs: 4_000_000, lastSeenUs: 4_000_000, phaseAngle: null, tid: 'E2801161' },
      { ...read, epc: 'E2803', firstSeenUs: 1_000_000, lastSeenUs: 1_000_000, phaseAngle: null, tid: null },
    ], 0);
    const [withBoth, plain] = b.take()?.observations ?? [];
    expect(withBoth).to.include({ epc: 'E2802', tid: 'E2801160', phaseAngle: 30, readCount: 3 });
    expect(plain).to.include({ epc: 'E2803', tid: null });
    expect(plain).to.not.have.property('phaseAngle');
  });

  it('given located reads of one tag, when taken, then the observation is where the latest of them placed it', () => {
    const b = new ReadBatch();
    const read = { epc: 'E2804', antennaId: null, channelIndex: null, peakRssi: null, seenCount: 1, phaseAngle: null, tid: null };
    b.add([{ ...read, firstSeenUs: 2_000_000, lastSeenUs: 2_000_000, x: 3.5, y: -1 }, { ...read, firstSeenUs: 1_000_000, lastSeenUs: 1_000_000, x: 9, y: 9 }], 0);
    expect(b.take()?.observations[0]).to.include({ epc: 'E2804', antennaId: 1, x: 3.5, y: -1, readCount: 2 });
  });

  it('backoff doubles from 0.5 s to the maximum, jittered between half and whole', () => {
    expect([0, 1, 2, 10].map((a) => backoffDelay(reconnectBackoff(30_000), a, () => 1))).to.deep.equal([500, 1000, 2000, 30_000]);
    expect(backoffDelay(reconnectBackoff(30_000), 3, () => 0)).to.equal(2000);
  });
});
