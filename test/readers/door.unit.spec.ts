import { expect } from 'chai';
import * as E from 'fp-ts/Either';
import { doorAntennas, DOOR_REPORT_MS } from '../../src/readers/plan';
import { flushMsOf } from '../../src/readers/job-side';
import type { AntennaConfiguration, Threshold } from '../../src/thresholds';

const config = (id: number, inIds: number[], outIds: number[], ignored: number[] = []): AntennaConfiguration => ({
  id, name: `c${id}`, side: 'LEFT', readerType: 'SPEEDWAY', readerArrangement: 'SIDE_BY_SIDE',
  in: inIds.map((antennaId) => ({ antennaId })), out: outIds.map((antennaId) => ({ antennaId })), ignored: ignored.map((antennaId) => ({ antennaId })),
});
const threshold = (id: number, readers: Record<string, number>): Threshold => ({
  id, name: `door-${id}`, facility: 'F', readerArrangement: 'SIDE_BY_SIDE',
  readers: Object.fromEntries(Object.entries(readers).map(([r, antennaConfigurationId]) => [r, { antennaConfigurationId }])),
});

describe('readers/plan: door readers of THRESHOLD jobs', () => {
  it('given the job\'s thresholds, when planned for a reader, then its in and out antennas of every threshold, sorted, without ignored ones', () => {
    const configs = [config(1, [1], [2], [3]), config(2, [4], [2]), config(3, [7], [8])];
    const thresholds = [threshold(1, { r1: 1, r2: 3 }), threshold(2, { r1: 2 })];
    expect(doorAntennas('r1', thresholds, configs)).to.deep.equal(E.right([1, 2, 4]));
    expect(doorAntennas('r2', thresholds, configs)).to.deep.equal(E.right([7, 8]));
  });

  it('given a reader with no in or out antenna in the job\'s thresholds, when planned, then why', () => {
    const r = doorAntennas('r1', [threshold(1, { r1: 1 }), threshold(2, { r9: 2 })], [config(1, [], [], [3]), config(2, [1], [2])]);
    expect(r).to.deep.equal(E.left('no threshold of the job names an in or out antenna of reader r1'));
  });

  it('given a THRESHOLD recipe, when its reads are stored, then every DOOR_REPORT_MS; other recipes by their reporting interval', () => {
    expect(DOOR_REPORT_MS).to.equal(500);
    expect(flushMsOf({ type: 'THRESHOLD', reportingInterval: 5 })).to.equal(500);
    expect(flushMsOf({ type: 'INVENTORY', reportingInterval: 5 })).to.equal(5000);
    expect(flushMsOf({ type: 'INVENTORY' })).to.equal(1000);
  });
});
