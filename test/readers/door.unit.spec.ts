import { expect } from 'chai';
import { THRESHOLD_REPORT_INTERVAL_MS } from '../../src/readers/plan';
import { flushMsOf } from '../../src/readers/job-side';

// Which antennas a door reader runs is thresholdDoorPlan's (plan.unit.spec.ts); here, how often its reads are stored.
describe('readers/job-side: how often a connector stores its reads', () => {
  it('given a THRESHOLD recipe, when its reads are stored, then every THRESHOLD_REPORT_INTERVAL_MS; other recipes by their reporting interval', () => {
    expect(THRESHOLD_REPORT_INTERVAL_MS).to.equal(500);
    expect(flushMsOf({ type: 'THRESHOLD', reportingInterval: 5 })).to.equal(500);
    expect(flushMsOf({ type: 'INVENTORY', reportingInterval: 5 })).to.equal(5000);
    expect(flushMsOf({ type: 'INVENTORY' })).to.equal(1000);
  });
});
