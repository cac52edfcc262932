// Where every tag is at a given world time (seconds since the simulation
// started). Pure and deterministic: a tag's whereabouts depend only on the
// seed and its own track, which is built lazily (random walk) or up front
// (scenario timeline).
import type { Layout, Point, Zone } from './layout';
import { exponential, intBelow, rngFor, type Rng } from './prng';

export interface TagPosition {
  readonly x: number;
  readonly y: number;
  readonly zone: string;
  readonly floor: string | null;
}

/** From `at` on, the tag is at this position (null: not in the facility). */
export interface Stay {
  readonly at: number;
  readonly position: TagPosition | null;
}

export interface ScriptedMove {
  readonly epc: string;
  readonly at: number;
  /** Zone name; absent with `leave`. */
  readonly zone?: string;
  /** The point of the zone the tag is at; absent: a point of the zone chosen from the seed. */
  readonly x?: number;
  readonly y?: number;
  readonly leave?: boolean;
}

export interface RandomMovement {
  /** Mean dwell in a zone, seconds. */
  readonly meanDwellSeconds: number;
  /** Mean time outside the facility, seconds. */
  readonly meanAbsentSeconds: number;
  /** Chance that a tag leaving its zone leaves the facility. */
  readonly leaveProbability: number;
  /** Share of tags inside at the start. */
  readonly initiallyInside: number;
}

export const DEFAULT_MOVEMENT: RandomMovement = { meanDwellSeconds: 40, meanAbsentSeconds: 30, leaveProbability: 0.15, initiallyInside: 0.8 };

export function pointInPolygon(p: Point, poly: readonly Point[]): boolean {
  let inside = false;
  for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
    const a = poly[i] as Point;
    const b = poly[j] as Point;
    if (a.y > p.y !== b.y > p.y && p.x < ((b.x - a.x) * (p.y - a.y)) / (b.y - a.y) + a.x) inside = !inside;
  }
  return inside;
}

/** The outline of a zone: two points are opposite corners of a rectangle. */
export function outline(zone: Zone): readonly Point[] {
  if (zone.points.length !== 2) return zone.points;
  const [a, b] = zone.points as [Point, Point];
  return [a, { x: b.x, y: a.y }, b, { x: a.x, y: b.y }];
}

export function zoneContains(zone: Zone, p: Point): boolean {
  return pointInPolygon(p, outline(zone));
}

/** A uniformly random point inside the zone (rejection sampling in its bounding box). */
export function randomPointIn(zone: Zone, rng: Rng): Point {
  const pts = outline(zone);
  const xs = pts.map((p) => p.x);
  const ys = pts.map((p) => p.y);
  const [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  // Kept a metre off every edge (less in a small zone), checked after
  // rounding: location estimates carry about a metre of noise, and a tag on
  // the edge two zones share would seem to change zone with every estimate,
  // which a shelf or a pallet in the middle of its zone does not.
  const m = Math.min(EDGE_MARGIN_M, (x1 - x0) / 4, (y1 - y0) / 4);
  for (let i = 0; i < 200; i++) {
    const p = { x: round2(x0 + m + rng() * (x1 - x0 - 2 * m)), y: round2(y0 + m + rng() * (y1 - y0 - 2 * m)) };
    if (zoneContains(zone, p) && distanceToOutline(p, pts) >= m) return p;
  }
  return { x: round2((x0 + x1) / 2), y: round2((y0 + y1) / 2) };
}

const round2 = (v: number): number => Math.round(v * 100) / 100;

const EDGE_MARGIN_M = 1;

/** Distance from p to the nearest edge of a closed outline. */
function distanceToOutline(p: Point, pts: readonly Point[]): number {
  let best = Infinity;
  for (let i = 0, j = pts.length - 1; i < pts.length; j = i++) {
    const a = pts[j] as Point;
    const b = pts[i] as Point;
    const dx = b.x - a.x;
    const dy = b.y - a.y;
    const len2 = dx * dx + dy * dy;
    const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, ((p.x - a.x) * dx + (p.y - a.y) * dy) / len2));
    best = Math.min(best, Math.hypot(p.x - (a.x + t * dx), p.y - (a.y + t * dy)));
  }
  return best;
}

function placeIn(zone: Zone, rng: Rng): TagPosition {
  const p = randomPointIn(zone, rng);
  return { x: p.x, y: p.y, zone: zone.name, floor: zone.floor };
}

/** A given point of a zone (of the part of a multi-floor zone that contains it). */
function pointIn(zones: readonly Zone[], x: number, y: number): TagPosition {
  const zone = zones.find((z) => zoneContains(z, { x, y })) ?? (zones[0] as Zone);
  return { x, y, zone: zone.name, floor: zone.floor };
}

interface Track {
  readonly stays: Stay[];
  /** Random tracks grow on demand; null for scripted ones. */
  readonly rng: Rng | null;
}

export class World {
  private readonly tracks = new Map<string, Track>();

  private constructor(
    readonly layout: Layout,
    private readonly movement: RandomMovement,
  ) {}

  /** Tags walk randomly between the zones and in and out of the facility. */
  static random(layout: Layout, seed: number, movement: RandomMovement = DEFAULT_MOVEMENT): World {
    const w = new World(layout, movement);
    for (const tag of layout.tags) {
      const rng = rngFor(seed, 'track', tag.epc);
      const inside = rng() < movement.initiallyInside && layout.zones.length > 0;
      const first: Stay = { at: 0, position: inside ? placeIn(layout.zones[intBelow(rng, layout.zones.length)] as Zone, rng) : null };
      w.tracks.set(tag.epc, { stays: [first], rng });
    }
    return w;
  }

  /** Tags go exactly where the timeline says; before their first move they are outside. */
  static scripted(layout: Layout, seed: number, moves: readonly ScriptedMove[]): World {
    const w = new World(layout, DEFAULT_MOVEMENT);
    const byEpc = new Map<string, ScriptedMove[]>();
    for (const m of moves) byEpc.set(m.epc, [...(byEpc.get(m.epc) ?? []), m]);
    for (const tag of layout.tags) {
      const stays: Stay[] = [{ at: 0, position: null }];
      const sorted = [...(byEpc.get(tag.epc) ?? [])].sort((a, b) => a.at - b.at);
      sorted.forEach((m, i) => {
        const zones = layout.zones.filter((z) => z.name === m.zone);
        const rng = rngFor(seed, 'scripted', tag.epc, i);
        const position = m.leave || zones.length === 0 ? null : m.x !== undefined && m.y !== undefined ? pointIn(zones, m.x, m.y) : placeIn(zones[intBelow(rng, zones.length)] as Zone, rng);
        stays.push({ at: m.at, position });
      });
      w.tracks.set(tag.epc, { stays, rng: null });
    }
    return w;
  }

  /** Where the tag is at world time t (seconds), null when outside the facility. */
  positionAt(epc: string, t: number): TagPosition | null {
    const track = this.tracks.get(epc);
    if (!track) return null;
    this.extend(track, t);
    let found: Stay | undefined;
    for (const s of track.stays) {
      if (s.at <= t) found = s;
      else break;
    }
    return found?.position ?? null;
  }

  /** The stays of a tag up to world time t (for tests and debugging). */
  staysUntil(epc: string, t: number): readonly Stay[] {
    const track = this.tracks.get(epc);
    if (!track) return [];
    this.extend(track, t);
    return track.stays.filter((s) => s.at <= t);
  }

  private extend(track: Track, t: number): void {
    const rng = track.rng;
    if (!rng || this.layout.zones.length === 0) return;
    const m = this.movement;
    const zones = this.layout.zones;
    for (let last = track.stays[track.stays.length - 1] as Stay; last.at <= t; last = track.stays[track.stays.length - 1] as Stay) {
      const at = last.at + Math.max(1, exponential(rng, last.position ? m.meanDwellSeconds : m.meanAbsentSeconds));
      let position: TagPosition | null;
      if (last.position === null) position = placeIn(zones[intBelow(rng, zones.length)] as Zone, rng);
      else if (rng() < m.leaveProbability || zones.length < 2) position = null;
      else {
        const others = zones.filter((z) => z.name !== last.position?.zone);
        position = placeIn((others.length ? others : zones)[intBelow(rng, others.length || zones.length)] as Zone, rng);
      }
      track.stays.push({ at: Math.round(at * 1000) / 1000, position });
    }
  }
}
