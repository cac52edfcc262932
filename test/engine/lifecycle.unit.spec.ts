import { expect } from 'chai';
import { endJob, engineRecipeOf, ingest, writesHistory, type ChangeKind } from '../../src/engine';
import { at, brief, Harness, inventoryRecipe, job, locationRecipe, MIN, reader, report } from './fixtures';

const readers = { r1: reader(1, 1, null, { readerZone: 'Z1' }), r2: reader(9, 9, null, { readerZone: 'Z2' }) };
const EXPIRY = 60_000;

describe('engine item lifecycle', () => {
  describe('heartbeat', () => {
    it('given an unmoved tag read again, then lastModifiedTime is updated at most once per tagHeartbeatDuration (no history)', () => {
      const h = new Harness();
      const ctx = job('j1', 'F', inventoryRecipe(), { readers });
      h.read(ctx, 'r1', [{ epc: 'E1', t: 0 }]);
      for (let t = 30; t <= 12 * MIN; t += 30) h.read(ctx, 'r1', [{ epc: 'E1', t }]);
      expect(h.changes.map((c) => [c.kind, (c.observationTime - at(0)) / 1000])).to.deep.equal([
        ['FIRST_SEEN', 0],
        ['HEARTBEAT', 5 * MIN],
        ['HEARTBEAT', 10 * MIN],
      ]);
      expect(h.history('E1')).to.have.length(1);
      expect(h.item('E1')).to.deep.include({ lastModifiedTime: at(10 * MIN), lastSeen: at(12 * MIN) });
    });

    it('given a LOCATION tag that stays put, then heartbeats come from the recomputations', () => {
      const h = new Harness();
      const ctx = job('j1', 'F', locationRecipe({ tagHeartbeatMs: MIN * 1000 }), { readers });
      for (let t = 1; t <= 130; t += 5) h.read(ctx, 'r1', [{ epc: 'L1', t, x: 3, y: 3 }]);
      h.tick(135);
      expect(h.changes.map((c) => c.kind)).to.deep.equal(['FIRST_SEEN', 'HEARTBEAT', 'HEARTBEAT']);
    });
  });

  describe('expiry', () => {
    for (const recipe of [inventoryRecipe({ tagExpiryMs: EXPIRY }), locationRecipe({ tagExpiryMs: EXPIRY })]) {
      it(`given a ${recipe.type} tag not seen for tagExpiryDuration, then ticks alone move it to ABSENT once`, () => {
        const h = new Harness();
        const ctx = job('j1', 'F', recipe, { readers });
        h.read(ctx, 'r1', [{ epc: 'E1', t: 1, x: 2, y: 2 }]);
        h.tickEvery(1, 2, 200);
        const expired = h.changes.filter((c) => c.kind === 'EXPIRED');
        expect(expired).to.have.length(1);
        const from = recipe.type === 'INVENTORY' ? 'Z1' : 'FACILITY';
        expect(expired[0]).to.deep.include({ fromZone: from, toZone: 'ABSENT', toFacility: 'F', toX: null, toFloor: null });
        // The moment it became absent, whatever the tick rate.
        expect(expired[0]?.observationTime).to.equal(at(61));
        expect(h.item('E1')?.zone).to.equal('ABSENT');
      });
    }

    it('given an expired tag, when it is read again, then it comes back from ABSENT with null from-coordinates', () => {
      const h = new Harness();
      const ctx = job('j1', 'F', inventoryRecipe({ tagExpiryMs: EXPIRY }), { readers });
      h.read(ctx, 'r1', [{ epc: 'E1', t: 0 }]);
      h.tick(100);
      h.read(ctx, 'r2', [{ epc: 'E1', t: 200 }]);
      expect(h.changes.map(brief)).to.deep.equal(['E1 FIRST_SEEN ABSENT>Z1', 'E1 EXPIRED Z1>ABSENT', 'E1 ZONE_CHANGE ABSENT>Z2']);
      expect(h.changes[2]).to.deep.include({ fromX: null, fromY: null, fromFacility: 'F' });
    });

    it('given a late report, then its reads keep the tag from expiring (the report is applied before the tick)', () => {
      const h = new Harness();
      const ctx = job('j1', 'F', inventoryRecipe({ tagExpiryMs: EXPIRY }), { readers });
      h.read(ctx, 'r1', [{ epc: 'E1', t: 0 }]);
      h.read(ctx, 'r1', [{ epc: 'E1', t: 59 }], 61);
      h.tick(100);
      expect(h.changes.map((c) => c.kind)).to.deep.equal(['FIRST_SEEN']);
    });

    it('given LOCATION samples still waiting for their computation, then they count as seen', () => {
      const h = new Harness();
      const ctx = job('j1', 'F', locationRecipe({ tagExpiryMs: 6_000, reportingIntervalMs: 5_000 }), { readers });
      h.read(ctx, 'r1', [{ epc: 'L1', t: 1, x: 2, y: 2 }]);
      h.tick(5);
      h.read(ctx, 'r1', [{ epc: 'L1', t: 6.5, x: 2, y: 2 }], 7.5); // expiry would be due at 7; the sample is computed at 10
      expect(h.changes.map((c) => c.kind)).to.deep.equal(['FIRST_SEEN']);
    });

    it('given no tagExpiryDuration, then a tag never expires', () => {
      const h = new Harness();
      h.read(job('j1', 'F', inventoryRecipe(), { readers }), 'r1', [{ epc: 'E1', t: 0 }]);
      h.tick(10 * 24 * 3600);
      expect(h.changes).to.have.length(1);
    });

    it('given the job ended, then its items keep their last state and stop expiring', () => {
      const h = new Harness();
      h.read(job('j1', 'F', inventoryRecipe({ tagExpiryMs: EXPIRY }), { readers }), 'r1', [{ epc: 'E1', t: 0 }]);
      endJob(h.state, 'j1');
      h.tick(1000);
      expect(h.item('E1')?.zone).to.equal('Z1');
      expect(h.changes).to.have.length(1);
    });
  });

  describe('useOtherJobData', () => {
    it('given true, then a tag seen by an earlier job is known: same place is a HEARTBEAT moving jobId, a new place a ZONE_CHANGE', () => {
      const h = new Harness();
      h.read(job('j1', 'F', inventoryRecipe(), { readers }), 'r1', [{ epc: 'E1', t: 0 }, { epc: 'E2', t: 0 }]);
      const j2 = job('j2', 'F', inventoryRecipe(), { readers });
      h.read(j2, 'r1', [{ epc: 'E1', t: 10 }]);
      h.read(j2, 'r2', [{ epc: 'E2', t: 10 }]);
      expect(h.changes.map((c) => `${brief(c)} ${c.jobId}`)).to.deep.equal([
        'E1 FIRST_SEEN ABSENT>Z1 j1',
        'E2 FIRST_SEEN ABSENT>Z1 j1',
        'E1 HEARTBEAT Z1>Z1 j2',
        'E2 ZONE_CHANGE Z1>Z2 j2',
      ]);
    });

    it('given false, then the job starts with no knowledge of other jobs, and its reads stay out of the shared view', () => {
      const h = new Harness();
      h.read(job('j1', 'F', inventoryRecipe(), { readers }), 'r1', [{ epc: 'E1', t: 0 }]);
      const own = job('j2', 'F', inventoryRecipe(), { readers, useOtherJobData: false });
      h.read(own, 'r2', [{ epc: 'E1', t: 10 }]);
      expect(h.changes.map((c) => `${brief(c)} ${c.jobId}`)).to.deep.equal(['E1 FIRST_SEEN ABSENT>Z1 j1', 'E1 FIRST_SEEN ABSENT>Z2 j2']);
      expect(h.item('E1')).to.deep.include({ zone: 'Z1', jobId: 'j1' });
      expect(h.item('E1', 'j2')).to.deep.include({ zone: 'Z2', jobId: 'j2' });
      endJob(h.state, 'j2');
      expect(h.state.isolated.has('j2')).to.equal(false);
    });
  });

  it("given a job's reportTo... flags, then every change it produces carries them", () => {
    const h = new Harness();
    const flags = { reportToDatabaseEnabled: false, reportToHistoryEnabled: true, reportToMessageQueueEnabled: false };
    const ctx = job('j1', 'F', inventoryRecipe({ tagExpiryMs: EXPIRY }), { readers, flags });
    h.read(ctx, 'r1', [{ epc: 'E1', t: 0 }]);
    h.tick(100);
    expect(h.changes).to.have.length(2);
    for (const c of h.changes) expect(c).to.deep.include(flags);
  });

  it('given a report of another job than the context, then ingest refuses it', () => {
    const h = new Harness();
    const ctx = job('j1', 'F', inventoryRecipe(), { readers });
    expect(() => ingest(h.state, { ...report(ctx, 'r1', []), jobId: 'j9' }, ctx, at(0))).to.throw(/j9/);
  });

  it('history records are the zone transitions', () => {
    const kinds: ChangeKind[] = ['FIRST_SEEN', 'ZONE_CHANGE', 'MOVED', 'HEARTBEAT', 'EXPIRED'];
    expect(kinds.filter(writesHistory)).to.deep.equal(['FIRST_SEEN', 'ZONE_CHANGE', 'EXPIRED']);
  });

  it('engineRecipeOf parses the stored durations; reportingInterval 0 is 500 ms', () => {
    const base = { name: 'r', readerConfigurations: {}, tagHeartbeatDuration: 'PT5M', computeWindow: 10 };
    const location = { ...base, type: 'LOCATION' as const, minimumMovementInMeters: 0.5, reportingInterval: 0 as const, tagExpiryDuration: 'PT1M' };
    expect(engineRecipeOf(location)).to.deep.equal({
      type: 'LOCATION', tagHeartbeatMs: 300_000, tagExpiryMs: 60_000, computeWindowMs: 10_000, reportingIntervalMs: 500, minimumMovementInMeters: 0.5,
    });
    const inventory = { ...base, type: 'INVENTORY' as const, reportingInterval: 5 as const };
    expect(engineRecipeOf(inventory)).to.deep.include({ tagExpiryMs: undefined, reportingIntervalMs: 5000 });
  });
});
