// Where the floor map puts things (console/map-layout.js, a browser module
// loaded here as it is): items spread around a shared point, badges by
// spiral and by screen cell, the scale bar, doors with their IN side, and
// the EPC search.
import { expect } from 'chai';

interface Point { x: number; y: number }
interface MapItem { epc: string; x?: number | null; y?: number | null; zone: string }
interface Placed extends MapItem { x: number; y: number; at: Point | null; step: number | null }
interface View { x0: number; yTop: number; w: number; vh: number }
interface Layout {
  SPREAD_START_M: number;
  SPREAD_STEP_M: number;
  SPREAD_MAX_M: number;
  CLUSTER_PX: number;
  spreadItems(items: MapItem[], readers: Array<{ name: string; placement?: Point & { yaw?: number } }>, zoneCentres: Map<string, Point>): Placed[];
  clusterPoints(points: Placed[], view: View, pxPerM: number, keep?: string): { dots: Placed[]; badges: Array<{ count: number; x: number; y: number; zones: string[] }> };
  scaleBar(pxPerM: number, targetPx?: number): { metres: number; px: number };
  doorOf(threshold: { id: number; name: string; readers: Record<string, unknown> }, readersByName: Map<string, { placement?: Point & { yaw?: number } }>, zonesCentre: Point | null): { a: Point; b: Point; mid: Point; inward: Point } | null;
  findItem(items: Map<string, unknown>, typed: string): { epc: string | undefined; note: string };
}

// A path in a variable: the module is plain JavaScript with no type declarations; Layout above is its shape.
const MODULE = '../../console/map-layout.js';
const epc = (n: number): string => `E280${n.toString(16).toUpperCase().padStart(20, '0')}`;
const dist = (a: Point, b: Point): number => Math.hypot(a.x - b.x, a.y - b.y);

describe('floor map layout', () => {
  let L: Layout;
  before(async () => {
    L = (await import(MODULE)) as Layout;
  });

  describe('spreading items', () => {
    const reader = { name: 'r1', placement: { x: 4, y: 4 } };

    it('spreads items an INVENTORY reader placed at itself around it, each at its own place, none on the reader', () => {
      const items = Array.from({ length: 29 }, (_, n) => ({ epc: epc(n), x: 4, y: 4, zone: 'Sales' }));
      const placed = L.spreadItems(items, [reader], new Map());
      expect(placed).to.have.length(29);
      expect(new Set(placed.map((p) => `${p.x.toFixed(3)},${p.y.toFixed(3)}`)).size).to.equal(29);
      for (const p of placed) {
        expect(dist(p, reader.placement)).to.be.within(L.SPREAD_START_M - 1e-9, L.SPREAD_MAX_M + 1e-9);
        expect(p.at).to.deep.equal(reader.placement);
      }
    });

    it('keeps a spiral of thousands within its reach, closer together', () => {
      const items = Array.from({ length: 5000 }, (_, n) => ({ epc: epc(n), x: 0, y: 0, zone: 'Z' }));
      const placed = L.spreadItems(items, [], new Map());
      expect(Math.max(...placed.map((p) => dist(p, { x: 0, y: 0 })))).to.be.at.most(L.SPREAD_MAX_M + 1e-9);
      expect(placed[0]!.step).to.be.below(L.SPREAD_STEP_M);
    });

    it('places by EPC order, so an item keeps its place however the items arrive', () => {
      const items = [2, 0, 1].map((n) => ({ epc: epc(n), x: 1, y: 1, zone: 'Z' }));
      const a = L.spreadItems(items, [], new Map());
      const b = L.spreadItems([...items].reverse(), [], new Map());
      const at = (ps: Placed[], e: string): Point => ps.find((p) => p.epc === e)!;
      for (const n of [0, 1, 2]) expect(at(a, epc(n))).to.deep.include(at(b, epc(n)));
    });

    it('leaves a LOCATION estimate where it is, also spreads a lone item standing on a reader, and puts items without a point around their zone centre', () => {
      const placed = L.spreadItems([
        { epc: epc(1), x: 11.25, y: 2.5, zone: 'Back' },
        { epc: epc(2), x: 4, y: 4, zone: 'Sales' },
        { epc: epc(3), x: null, y: null, zone: 'Dock' },
        { epc: epc(4), x: null, y: null, zone: 'Nowhere' },
      ], [reader], new Map([['Dock', { x: 20, y: 5 }]]));
      const byEpc = new Map(placed.map((p) => [p.epc, p]));
      expect(byEpc.get(epc(1))).to.include({ x: 11.25, y: 2.5, at: null });
      expect(dist(byEpc.get(epc(2))!, reader.placement)).to.be.at.least(L.SPREAD_START_M - 1e-9);
      expect(byEpc.get(epc(3))!.at).to.deep.equal({ x: 20, y: 5 });
      expect(byEpc.has(epc(4)), 'no point and no zone centre: not drawn').to.equal(false);
    });
  });

  describe('badges', () => {
    const view: View = { x0: -10, yTop: 10, w: 20, vh: 20 };
    const spiral = (n: number): Placed[] => L.spreadItems(Array.from({ length: n }, (_, k) => ({ epc: epc(k), x: 0, y: 0, zone: 'Sales' })), [], new Map());

    it('draws a spiral too dense for the zoom as one badge with its count, beside its point', () => {
      const { dots, badges } = L.clusterPoints(spiral(29), view, 20, undefined);
      expect(dots).to.deep.equal([]);
      expect(badges).to.have.length(1);
      expect(badges[0]).to.include({ count: 29 });
      expect(badges[0]!.x).to.be.above(0);
      expect(badges[0]!.zones).to.deep.equal(['Sales']);
    });

    it('parts the spiral into dots once zoomed in, and counts every item as a dot or in a badge at every zoom', () => {
      const points = spiral(29);
      for (const pxPerM of [5, 20, 40, 60, 100, 400]) {
        const { dots, badges } = L.clusterPoints(points, view, pxPerM, undefined);
        expect(dots.length + badges.reduce((s, b) => s + b.count, 0), `at ${pxPerM} px/m`).to.equal(29);
      }
      expect(L.clusterPoints(points, view, 400, undefined).badges).to.deep.equal([]);
    });

    it('gathers estimates closer than a cell on screen, and never the item looked for', () => {
      const near = (n: number, x: number): Placed => ({ epc: epc(n), x, y: 1, zone: 'Z', at: null, step: null });
      const points = [near(1, 1), near(2, 1.01), near(3, 1.02), near(4, 8)];
      const far = L.clusterPoints(points, view, 10, undefined);
      expect(far.badges.map((b) => b.count)).to.deep.equal([3]);
      expect(far.dots.map((d) => d.epc)).to.deep.equal([epc(4)]);
      const kept = L.clusterPoints(points, view, 10, epc(2));
      expect(kept.dots.map((d) => d.epc)).to.have.members([epc(2), epc(4)]);
      expect(kept.badges.map((b) => b.count)).to.deep.equal([2]);
    });

    it('leaves out estimates far outside the view', () => {
      const { dots, badges } = L.clusterPoints([{ epc: epc(1), x: 500, y: 500, zone: 'Z', at: null, step: null }], view, 10, undefined);
      expect([dots, badges]).to.deep.equal([[], []]);
    });
  });

  it('scale bar: a round length of 1, 2 or 5 times a power of ten, drawn at its true length', () => {
    for (const [pxPerM, metres] of [[52, 1], [26, 2], [10, 10], [3, 20], [250, 0.2], [18, 5]] as const) {
      const bar = L.scaleBar(pxPerM);
      expect(bar.metres, `at ${pxPerM} px/m`).to.be.closeTo(metres, 1e-9);
      expect(bar.px).to.be.closeTo(bar.metres * pxPerM, 1e-9);
      expect(bar.px).to.be.at.most(100 + 1e-9);
    }
  });

  describe('doors', () => {
    const readers = new Map([
      ['a', { placement: { x: 16, y: 3 } }],
      ['b', { placement: { x: 16, y: 6 } }],
      ['solo', { placement: { x: 5, y: 0, yaw: 90 } }],
      ['unplaced', {}],
    ]);

    it('runs between its two readers with the IN side towards the middle of the zones', () => {
      const d = L.doorOf({ id: 1, name: 'back', readers: { a: {}, b: {} } }, readers, { x: 8, y: 4 })!;
      expect([d.a, d.b]).to.have.deep.members([{ x: 16, y: 3 }, { x: 16, y: 6 }]);
      expect(d.mid).to.deep.equal({ x: 16, y: 4.5 });
      expect(d.inward.x).to.be.closeTo(-1, 1e-9);
      // The zones on the other side: the IN side turns with them.
      expect(L.doorOf({ id: 1, name: 'back', readers: { a: {}, b: {} } }, readers, { x: 30, y: 4 })!.inward.x).to.be.closeTo(1, 1e-9);
    });

    it('for one reader: 2 m across its heading, IN along the heading when there are no zones', () => {
      const d = L.doorOf({ id: 2, name: 'front', readers: { solo: {} } }, readers, null)!;
      expect(dist(d.a, d.b)).to.be.closeTo(2, 1e-9);
      expect(d.a.y).to.be.closeTo(0, 1e-9);
      expect(d.inward.y).to.be.closeTo(1, 1e-9);
    });

    it('is not drawn when none of its readers is placed', () => {
      expect(L.doorOf({ id: 3, name: 'ghost', readers: { unplaced: {}, missing: {} } }, readers, null)).to.equal(null);
    });
  });

  it('EPC search: the whole EPC or the only one ending with, then containing, what was typed, in any case', () => {
    const items = new Map([epc(0x1a2b), epc(0x3a2b), epc(0x4c4c)].map((e) => [e, {}]));
    expect(L.findItem(items, epc(0x1a2b)).epc).to.equal(epc(0x1a2b));
    expect(L.findItem(items, '4c4c').epc).to.equal(epc(0x4c4c));
    expect(L.findItem(items, '1A2B').epc).to.equal(epc(0x1a2b));
    expect(L.findItem(items, 'a2b')).to.deep.equal({ epc: undefined, note: '2 items on this map match "a2b"; type more of the EPC.' });
    expect(L.findItem(items, 'FFFF')).to.deep.equal({ epc: undefined, note: 'No item on this map matches "FFFF".' });
    expect(L.findItem(items, '  ')).to.deep.equal({ epc: undefined, note: '' });
  });
});
