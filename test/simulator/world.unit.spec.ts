import { expect } from 'chai';
import { generateLayout, type Layout } from '../../src/simulator/layout';
import { World, zoneContains } from '../../src/simulator/world';

const layout = (): Layout => generateLayout({ facility: 'DEFAULT', readers: 2, families: ['XARRAY', 'SPEEDWAY'], tags: 30, seed: 5, prefix: 'sim-' });

describe('simulator world model', () => {
  it('is deterministic: the same seed gives the same whereabouts, another seed others', () => {
    const l = layout();
    const a = World.random(l, 11);
    const b = World.random(l, 11);
    const c = World.random(l, 12);
    const at = (w: World): unknown[] => l.tags.map((t) => [0, 50, 300, 900].map((s) => w.positionAt(t.epc, s)));
    expect(at(a)).to.deep.equal(at(b));
    expect(at(a)).to.not.deep.equal(at(c));
  });

  it('does not depend on the order of questions (tracks grow lazily but the same)', () => {
    const l = layout();
    const a = World.random(l, 3);
    const b = World.random(l, 3);
    const epc = l.tags[0]!.epc;
    const late = a.positionAt(epc, 1000);
    for (let s = 0; s <= 1000; s += 10) b.positionAt(epc, s);
    expect(b.positionAt(epc, 1000)).to.deep.equal(late);
  });

  it('tags dwell inside zones, move between them, and leave and enter the facility', () => {
    const l = layout();
    const w = World.random(l, 1);
    let moves = 0;
    let leaves = 0;
    let enters = 0;
    for (const tag of l.tags) {
      const stays = w.staysUntil(tag.epc, 3600);
      for (let i = 1; i < stays.length; i++) {
        const [prev, cur] = [stays[i - 1]!, stays[i]!];
        expect(cur.at).to.be.greaterThan(prev.at);
        if (prev.position && cur.position) moves++;
        if (prev.position && !cur.position) leaves++;
        if (!prev.position && cur.position) enters++;
        if (cur.position) {
          const zone = l.zones.find((z) => z.name === cur.position!.zone)!;
          expect(zoneContains(zone, cur.position)).to.equal(true);
        }
      }
    }
    expect(moves).to.be.greaterThan(50);
    expect(leaves).to.be.greaterThan(5);
    expect(enters).to.be.greaterThan(5);
  });

  it('plays a scripted timeline exactly: outside before the first move, in the zone named, gone after leave', () => {
    const l: Layout = {
      ...layout(),
      zones: [
        { name: 'A', floor: '1', points: [{ x: 0, y: 0 }, { x: 5, y: 5 }] },
        { name: 'B', floor: '1', points: [{ x: 10, y: 0 }, { x: 16, y: 0 }, { x: 13, y: 6 }] },
      ],
      tags: [{ epc: 'E200AA', tid: null }],
    };
    const w = World.scripted(l, 1, [
      { epc: 'E200AA', at: 10, zone: 'B' },
      { epc: 'E200AA', at: 5, zone: 'A' },
      { epc: 'E200AA', at: 20, leave: true },
    ]);
    expect(w.positionAt('E200AA', 4.9)).to.equal(null);
    expect(w.positionAt('E200AA', 5)!.zone).to.equal('A');
    expect(w.positionAt('E200AA', 9.99)!.zone).to.equal('A');
    const inB = w.positionAt('E200AA', 10)!;
    expect(inB.zone).to.equal('B');
    expect(zoneContains(l.zones[1]!, inB)).to.equal(true); // polygon
    expect(w.positionAt('E200AA', 20)).to.equal(null);
    expect(w.positionAt('E200AA', 1e6)).to.equal(null);
  });

  it('puts a scripted tag at the point its timeline gives, on the floor of the zone', () => {
    const l: Layout = { ...layout(), zones: [{ name: 'A', floor: '2', points: [{ x: 0, y: 0 }, { x: 5, y: 5 }] }], tags: [{ epc: 'E200AA', tid: null }] };
    const w = World.scripted(l, 1, [{ epc: 'E200AA', at: 0, zone: 'A', x: 1.25, y: 4.5 }]);
    expect(w.positionAt('E200AA', 3)).to.deep.equal({ x: 1.25, y: 4.5, zone: 'A', floor: '2' });
  });
});
