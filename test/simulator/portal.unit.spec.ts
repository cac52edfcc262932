// Simulated portals: where a tag is during each kind of visit, what the
// readers of each arrangement read, the ground truth, the scoring, and the
// threshold decider against that truth at the demo's noise (the accuracy aim:
// at least 99 % of true passages detected with the right direction, at most
// 1 % false transitions).
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { decodeScenario, parseScenario, ScenarioError } from '../../src/simulator/scenario';
import {
  DEMO_PORTAL_NOISE, antennaLists, passageEnd, passagePosition, portalReaders, randomPassages, readPortalWindow, scoreTransitions, truthOf,
  type Passage, type PortalDef,
} from '../../src/simulator/portal';
import { runPortals } from '../../src/simulator/portal-run';

const overhead: PortalDef = { name: 'door', arrangement: 'OVERHEAD', x: 10, y: 0, floor: '1' };
const sideBySide: PortalDef = { name: 'dock', arrangement: 'SIDE_BY_SIDE', x: 0, y: 0, floor: '1' };
const epcs = Array.from({ length: 60 }, (_, i) => `E2801160600002000000${i.toString(16).toUpperCase().padStart(4, '0')}`);

describe('simulated portals', () => {
  it('arrangements: one overhead reader (in 13, out 17, 1 ignored), or a reader on each jamb (in 1, out 2)', () => {
    const [o] = portalReaders(overhead, 'sim-');
    expect(o!.name).to.equal('sim-door-overhead');
    expect(antennaLists(o!)).to.deep.equal({ in: [13], out: [17], ignored: [1] });
    const sides = portalReaders(sideBySide, 'sim-');
    expect(sides.map((r) => [r.name, r.side])).to.deep.equal([['sim-dock-left', 'LEFT'], ['sim-dock-right', 'RIGHT']]);
    for (const r of sides) expect(antennaLists(r)).to.deep.equal({ in: [1], out: [2], ignored: [] });
  });

  it('a walk through crosses the door line once, at the time the truth says; other visits stay on their side or come back', () => {
    const through: Passage = { epc: 'AA', portal: 'door', kind: 'THROUGH', at: 10, toward: 'IN', speed: 2 };
    expect(passagePosition(through, overhead, 9.9)).to.equal(null);
    expect(passagePosition(through, overhead, 10)!.y).to.equal(-4);
    expect(passagePosition(through, overhead, 12)!.y).to.be.closeTo(0, 1e-9);
    expect(passagePosition(through, overhead, 14)!.y).to.be.closeTo(4, 1e-9);
    expect(passagePosition(through, overhead, passageEnd(through) + 0.1)).to.equal(null);
    expect(truthOf([through])).to.deep.equal([{ epc: 'AA', portal: 'door', destination: 'IN', at: 12 }]);

    const back: Passage = { epc: 'BB', portal: 'door', kind: 'TURN_BACK', at: 0, toward: 'OUT', speed: 1 };
    const ys = Array.from({ length: 100 }, (_, i) => passagePosition(back, overhead, i * 0.1)?.y ?? null).filter((y): y is number => y !== null);
    expect(Math.max(...ys)).to.be.closeTo(1, 1e-9); // one metre past the door line, into IN
    expect(ys[ys.length - 1]!).to.be.lessThan(-3); // and back on the OUT side
    const linger: Passage = { epc: 'CC', portal: 'door', kind: 'LINGER', at: 0, toward: 'IN', speed: 1, seconds: 20 };
    for (let t = 0; t < passageEnd(linger); t += 0.5) expect(passagePosition(linger, overhead, t)!.y).to.be.greaterThan(0);
    expect(truthOf([back, linger])).to.deep.equal([]);
  });

  it('the antenna facing the tag reads it stronger; reads are the same for the same seed', () => {
    const [reader] = portalReaders(overhead, 'sim-');
    const parked: Passage = { epc: 'AA', portal: 'door', kind: 'LINGER', at: 0, toward: 'OUT', speed: 1, seconds: 60 };
    const input = { portal: overhead, reader: reader!, passages: [parked], from: 10, to: 20, readerMode: 'MAX_THROUGHPUT', noise: DEMO_PORTAL_NOISE, seed: 3 };
    const obs = readPortalWindow(input);
    const peak = (id: number): number => Math.max(...obs.filter((o) => o.antennaId === id).map((o) => o.peakRssi));
    expect(peak(17)).to.be.greaterThan(peak(13)); // parked on the OUT side
    expect(obs.reduce((n, o) => n + o.readCount, 0)).to.be.greaterThan(40);
    expect(readPortalWindow(input)).to.deep.equal(obs);
  });

  it('scoring: right direction, wrong direction, false transitions and turn-back pairs', () => {
    const truth = [{ epc: 'AA', portal: 'door', destination: 'IN' as const, at: 10 }, { epc: 'BB', portal: 'door', destination: 'OUT' as const, at: 20 }];
    const back: Passage = { epc: 'CC', portal: 'door', kind: 'TURN_BACK', at: 30, toward: 'OUT', speed: 1 };
    const s = scoreTransitions(truth, [
      { epc: 'AA', portal: 'door', destination: 'IN', at: 11 },
      { epc: 'BB', portal: 'door', destination: 'IN', at: 20 },
      { epc: 'CC', portal: 'door', destination: 'IN', at: 35 },
      { epc: 'CC', portal: 'door', destination: 'OUT', at: 37 },
    ], [back]);
    expect(s).to.include({ truePassages: 2, reported: 4, correct: 1, wrongDirection: 1, turnBackPairs: 1, precision: 0.25, recall: 0.5, falseRate: 0.75, falseRateByRule: 0.25 });
  });

  for (const portal of [overhead, sideBySide]) {
    it(`${portal.arrangement}: at the demo noise and MAX_THROUGHPUT, >= 99 % of passages with the right direction and <= 1 % false transitions`, () => {
      const passages = randomPassages({ portals: [portal], epcs, seed: 11, from: 0, until: 900, everySeconds: 3 });
      expect(passages.filter((p) => p.kind === 'THROUGH').length).to.be.greaterThan(100);
      const { score } = runPortals({ portals: [portal], passages, readerMode: 'MAX_THROUGHPUT', noise: DEMO_PORTAL_NOISE, seed: 11 });
      expect(score.recall, JSON.stringify(score)).to.be.at.least(0.99);
      expect(score.wrongDirection).to.equal(0);
      expect(score.falseRateByRule, JSON.stringify(score)).to.be.at.most(0.01);
    });
  }
});

describe('scenario files with portals', () => {
  it('examples/scenarios/door.json decodes: a side-by-side door and visits of every kind', () => {
    const s = parseScenario(readFileSync('examples/scenarios/door.json', 'utf8'));
    expect(s.portals).to.deep.equal([{ name: 'demo-dock-door', arrangement: 'SIDE_BY_SIDE', x: 6, y: -2, floor: '1', width: 3 }]);
    expect(new Set(s.passages.map((p) => p.kind))).to.deep.equal(new Set(['THROUGH', 'LINGER', 'TURN_BACK', 'PASS_BY']));
    expect(truthOf(s.passages).map((t) => t.destination)).to.deep.equal(['IN', 'OUT', 'IN', 'OUT', 'OUT']);
  });

  it('names every bad portal or passage field', () => {
    const doc = {
      zones: [], readers: [], tags: [{ epc: 'AA' }], timeline: [],
      portals: [{ name: 'p', arrangement: 'OVERHEAD', x: 0, y: 0 }, { name: 'p', arrangement: 'OVERHEAD', x: 1, y: 0 }],
      passages: [{ epc: 'BB', portal: 'q', at: 0, kind: 'THROUGH', toward: 'IN' }],
    };
    expect(() => decodeScenario(doc)).to.throw(ScenarioError, /portals\.1\.name duplicate.*passages\.0\.epc no tag.*passages\.0\.portal no portal/);
    const bad = { ...doc, portals: [{ name: 'p', arrangement: 'DIAGONAL', x: 0, y: 0 }], passages: [{ epc: 'AA', portal: 'p', at: 0, kind: 'FLY', toward: 'UP' }] };
    expect(() => decodeScenario(bad)).to.throw(ScenarioError, /portals\.0\.arrangement.*passages\.0\.kind.*passages\.0\.toward/s);
  });
});
