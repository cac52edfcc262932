// Simulated doorways (docs/simulator.md, "Portals"): a threshold with readers
// in an OVERHEAD or SIDE_BY_SIDE arrangement, each antenna facing the IN or
// the OUT side, and tags carried through it at walking speed, lingering in
// it, turning back in it or passing by it. Pure and deterministic (seeded).
// The simulator knows which way each tag really went (`truthOf`), so the
// transitions the service reports can be scored against it.
//
// Geometry: the door line runs along x at the portal's y; the IN side is +y.
import type { Family, Placement } from './layout';
import type { Observation } from './radio';
import { ENERGISE_DBM, meanRssi, readProbability, roundsPerSecond, TAG_HEIGHT } from './radio';
import { gaussian, rngFor, type Rng } from './prng';

export const PORTAL_ARRANGEMENTS = ['OVERHEAD', 'SIDE_BY_SIDE'] as const;
export type PortalArrangement = (typeof PORTAL_ARRANGEMENTS)[number];

export interface PortalDef {
  readonly name: string;
  readonly arrangement: PortalArrangement;
  readonly x: number;
  readonly y: number;
  readonly floor: string | null;
  /** Door width in metres (default 3). */
  readonly width?: number;
}

export interface PortalAntenna {
  readonly id: number;
  readonly x: number;
  readonly y: number;
  readonly z: number;
  /** +1 faces the IN side, -1 the OUT side, 0 neither (listed as ignored). */
  readonly facing: 1 | -1 | 0;
  /** Unit vector of the antenna's main lobe. */
  readonly dir: readonly [number, number, number];
}

// Overhead beams look down, tilted 35 degrees towards their side; jamb panels look straight to their side.
const TILT = (35 * Math.PI) / 180;
const overheadDir = (facing: 1 | -1 | 0): readonly [number, number, number] => (facing === 0 ? [0, 0, -1] : [0, facing * Math.sin(TILT), -Math.cos(TILT)]);

export interface PortalReader {
  readonly name: string;
  readonly family: Family;
  readonly placement: Placement;
  readonly side: 'LEFT' | 'RIGHT';
  readonly antennas: readonly PortalAntenna[];
}

/** The readers of a portal. OVERHEAD: one xArray over the door, beam 13 into the IN side, 17 into the OUT side, 1 straight down (ignored); SIDE_BY_SIDE: a reader on each jamb, antenna 1 facing IN, 2 facing OUT. */
export function portalReaders(p: PortalDef, prefix: string): PortalReader[] {
  const w = p.width ?? 3;
  if (p.arrangement === 'OVERHEAD') {
    return [{
      name: `${prefix}${p.name}-overhead`,
      family: 'XARRAY',
      placement: { x: p.x, y: p.y, z: 3, floor: p.floor },
      side: 'LEFT',
      antennas: [
        { id: 13, x: p.x, y: p.y + 0.3, z: 2.8, facing: 1, dir: overheadDir(1) },
        { id: 17, x: p.x, y: p.y - 0.3, z: 2.8, facing: -1, dir: overheadDir(-1) },
        { id: 1, x: p.x, y: p.y, z: 2.8, facing: 0, dir: overheadDir(0) },
      ],
    }];
  }
  return (['LEFT', 'RIGHT'] as const).map((side) => {
    const jx = side === 'LEFT' ? p.x - w / 2 : p.x + w / 2;
    return {
      name: `${prefix}${p.name}-${side.toLowerCase()}`,
      family: 'XPORTAL' as const,
      placement: { x: jx, y: p.y, z: 1.5, floor: p.floor },
      side,
      antennas: [
        { id: 1, x: jx, y: p.y + 0.3, z: 1.2, facing: 1 as const, dir: [0, 1, 0] as const },
        { id: 2, x: jx, y: p.y - 0.3, z: 1.2, facing: -1 as const, dir: [0, -1, 0] as const },
      ],
    };
  });
}

/** The antenna lists of a portal reader, as its threshold antenna configuration has them. */
export function antennaLists(r: PortalReader): { in: number[]; out: number[]; ignored: number[] } {
  const ids = (f: 1 | -1 | 0): number[] => r.antennas.filter((a) => a.facing === f).map((a) => a.id);
  return { in: ids(1), out: ids(-1), ignored: ids(0) };
}

/** The same lists as `{antennaId}` references, as an antenna configuration holds them. */
export function antennaRefs(r: PortalReader): { in: Array<{ antennaId: number }>; out: Array<{ antennaId: number }>; ignored: Array<{ antennaId: number }> } {
  const l = antennaLists(r);
  const refs = (ids: number[]) => ids.map((antennaId) => ({ antennaId }));
  return { in: refs(l.in), out: refs(l.out), ignored: refs(l.ignored) };
}

export const PASSAGE_KINDS = ['THROUGH', 'LINGER', 'TURN_BACK', 'PASS_BY'] as const;
export type PassageKind = (typeof PASSAGE_KINDS)[number];

/** One tag's scripted visit to a portal. */
export interface Passage {
  readonly epc: string;
  readonly portal: string;
  readonly kind: PassageKind;
  /** World seconds the tag starts its approach (4 m from the door line). */
  readonly at: number;
  /** THROUGH: the side it goes to. Others: the side it starts (and ends) on. */
  readonly toward: 'IN' | 'OUT';
  /** Walking speed, m/s (default 1.4). */
  readonly speed?: number;
  /** LINGER: how long it stays in the doorway, seconds (default 30). */
  readonly seconds?: number;
  /** Offset along the door line from its middle, metres (default 0). */
  readonly offset?: number;
}

/** Where the walk starts and ends, from the door line. */
const APPROACH_M = 4;
/** TURN_BACK: how far past the door line the tag gets before it turns. */
const TURN_M = 1;

/** The tag's position at world time t, or null while it is away from the portal. */
export function passagePosition(p: Passage, portal: PortalDef, t: number): { x: number; y: number } | null {
  const dt = t - p.at;
  if (dt < 0) return null;
  const v = p.speed ?? 1.4;
  const x = portal.x + (p.offset ?? 0);
  // +1: a walk towards IN (from the OUT side); -1 towards OUT.
  const dir = p.toward === 'IN' ? 1 : -1;
  switch (p.kind) {
    case 'THROUGH': {
      const s = dt * v;
      return s > 2 * APPROACH_M ? null : { x, y: portal.y - dir * APPROACH_M + dir * s };
    }
    case 'TURN_BACK': {
      // Starts on the `toward` side, walks to TURN_M past the door line, comes back.
      const out = APPROACH_M + TURN_M;
      const s = dt * v;
      if (s > 2 * out) return null;
      const d = s <= out ? s : 2 * out - s;
      return { x, y: portal.y + dir * APPROACH_M - dir * d };
    }
    case 'LINGER': {
      // Walks up to half a metre from the door line on its side, stays, walks back.
      const walk = (APPROACH_M - 0.5) / v;
      const stay = p.seconds ?? 30;
      if (dt > 2 * walk + stay) return null;
      const d = dt <= walk ? dt * v : dt <= walk + stay ? APPROACH_M - 0.5 : (APPROACH_M - 0.5) - (dt - walk - stay) * v;
      return { x, y: portal.y + dir * (APPROACH_M - d) };
    }
    case 'PASS_BY': {
      // Walks along the door, 2 m out on its side, from 5 m left to 5 m right.
      const s = dt * v;
      return s > 10 ? null : { x: portal.x - 5 + s, y: portal.y + dir * 2 };
    }
    default: {
      const never: never = p.kind;
      throw new Error(`unknown passage kind ${String(never)}`);
    }
  }
}

/** When the passage ends (the tag is away from the portal again), world seconds. */
export function passageEnd(p: Passage): number {
  const v = p.speed ?? 1.4;
  switch (p.kind) {
    case 'THROUGH': return p.at + (2 * APPROACH_M) / v;
    case 'TURN_BACK': return p.at + (2 * (APPROACH_M + TURN_M)) / v;
    case 'LINGER': return p.at + (2 * (APPROACH_M - 0.5)) / v + (p.seconds ?? 30);
    case 'PASS_BY': return p.at + 10 / v;
    default: return p.at;
  }
}

/** What really happened: a THROUGH passage is one transition, at the door line; anything else is none. */
export interface TrueTransition {
  readonly epc: string;
  readonly portal: string;
  readonly destination: 'IN' | 'OUT';
  /** World seconds the tag crossed the door line. */
  readonly at: number;
}

export function truthOf(passages: readonly Passage[]): TrueTransition[] {
  return passages
    .filter((p) => p.kind === 'THROUGH')
    .map((p) => ({ epc: p.epc, portal: p.portal, destination: p.toward, at: p.at + APPROACH_M / (p.speed ?? 1.4) }));
}

export interface PortalNoise {
  /** Gaussian RSSI noise, dB (the reader model's default is 2). */
  readonly rssiSigmaDb: number;
  /** Chance per round and tag in range that a reflection makes the antenna facing away read it as if in front. */
  readonly strayRate: number;
}

export const DEMO_PORTAL_NOISE: PortalNoise = { rssiSigmaDb: 2, strayRate: 0.01 };

/** An antenna's gain towards a point: 0 dB on its axis, falling to -15 dB behind (a patch antenna's front-to-back ratio). */
function directionalGainDb(a: PortalAntenna, dx: number, dy: number, dz: number): number {
  const d = Math.hypot(dx, dy, dz);
  const cos = d === 0 ? 1 : (a.dir[0] * dx + a.dir[1] * dy + a.dir[2] * dz) / d;
  return -15 * ((1 - Math.max(-1, Math.min(1, cos))) / 2);
}

export interface PortalWindowInput {
  readonly portal: PortalDef;
  readonly reader: PortalReader;
  /** The passages of this portal that may be in view. */
  readonly passages: readonly Passage[];
  /** World seconds, [from, to). */
  readonly from: number;
  readonly to: number;
  readonly readerMode: string;
  readonly noise: PortalNoise;
  readonly seed: number;
  readonly tids?: ReadonlyMap<string, string | null>;
}

/**
 * One reporting window of a portal reader: read rounds at the reader mode's
 * rate; in each round every antenna tries every tag near the door (dual
 * target: a tag answers every round). One observation per tag and antenna
 * (peak RSSI, read count, first and last read), as the inventory model.
 */
export function readPortalWindow(w: PortalWindowInput): Observation[] {
  const rng: Rng = rngFor(w.seed, 'portal-reads', w.reader.name, Math.round(w.from * 1000));
  const rps = roundsPerSecond(w.readerMode);
  const accs = new Map<string, { epc: string; antennaId: number; peak: number; count: number; first: number; last: number }>();
  const live = w.passages.filter((p) => p.at < w.to && passageEnd(p) >= w.from);
  for (let k = Math.ceil(w.from * rps - 1e-9); k / rps < w.to - 1e-9; k++) {
    const t = k / rps;
    for (const p of live) {
      const pos = passagePosition(p, w.portal, t);
      if (pos === null) continue;
      for (const a of w.reader.antennas) {
        const dx = pos.x - a.x;
        const dy = pos.y - a.y;
        const dz = TAG_HEIGHT - a.z;
        let gain = directionalGainDb(a, dx, dy, dz);
        if (gain < -3 && rng() < w.noise.strayRate) gain = 0; // a reflection off a wall or a cart
        const rssi = meanRssi(w.reader.family, Math.hypot(dx, dy, dz), null) + gain + gaussian(rng, 0, w.noise.rssiSigmaDb);
        if (rssi < ENERGISE_DBM || rng() >= readProbability(rssi)) continue;
        const key = `${p.epc}|${a.id}`;
        const acc = accs.get(key);
        if (acc === undefined) accs.set(key, { epc: p.epc, antennaId: a.id, peak: rssi, count: 1, first: t, last: t });
        else {
          acc.count++;
          acc.last = t;
          if (rssi > acc.peak) acc.peak = rssi;
        }
      }
    }
  }
  return [...accs.values()].map((a) => ({
    epc: a.epc,
    tid: w.tids?.get(a.epc) ?? null,
    antennaId: a.antennaId,
    peakRssi: Math.round(a.peak * 2) / 2,
    readCount: a.count,
    firstSeen: a.first,
    lastSeen: a.last,
    x: null,
    y: null,
  }));
}

export interface PassageMix {
  readonly through: number;
  readonly linger: number;
  readonly turnBack: number;
  readonly passBy: number;
}

export const DEFAULT_PASSAGE_MIX: PassageMix = { through: 0.6, linger: 0.15, turnBack: 0.15, passBy: 0.1 };

/**
 * Random visits to the portals: one every `everySeconds` on average from
 * `from` to `until` (world seconds), each a tag of `epcs` not at a portal at
 * that time, walking at 1-2 m/s, of the kinds in `mix`.
 */
export function randomPassages(opts: {
  readonly portals: readonly PortalDef[];
  readonly epcs: readonly string[];
  readonly seed: number;
  readonly from: number;
  readonly until: number;
  readonly everySeconds: number;
  readonly mix?: PassageMix;
}): Passage[] {
  const rng = rngFor(opts.seed, 'passages');
  const mix = opts.mix ?? DEFAULT_PASSAGE_MIX;
  const busyUntil = new Map<string, number>();
  const out: Passage[] = [];
  let t = opts.from;
  for (let i = 0; opts.portals.length > 0 && opts.epcs.length > 0; i++) {
    t += -Math.log(1 - rng()) * opts.everySeconds;
    if (t >= opts.until) break;
    const free = opts.epcs.filter((e) => (busyUntil.get(e) ?? -Infinity) < t - 5);
    if (free.length === 0) continue;
    const epc = free[Math.floor(rng() * free.length)]!;
    const portal = opts.portals[Math.floor(rng() * opts.portals.length)]!;
    const r = rng() * (mix.through + mix.linger + mix.turnBack + mix.passBy);
    const kind: PassageKind = r < mix.through ? 'THROUGH' : r < mix.through + mix.linger ? 'LINGER' : r < mix.through + mix.linger + mix.turnBack ? 'TURN_BACK' : 'PASS_BY';
    const p: Passage = {
      epc,
      portal: portal.name,
      kind,
      at: Math.round(t * 1000) / 1000,
      toward: rng() < 0.5 ? 'IN' : 'OUT',
      speed: Math.round((1 + rng()) * 100) / 100,
      seconds: Math.round(10 + rng() * 50),
      offset: Math.round((rng() - 0.5) * ((portal.width ?? 3) - 0.6) * 100) / 100,
    };
    busyUntil.set(epc, passageEnd(p));
    out.push(p);
  }
  return out;
}

type Reported = { readonly epc: string; readonly portal: string; readonly destination: 'IN' | 'OUT'; readonly at: number };

/**
 * Precision and recall of reported transitions against the truth: a match is
 * the same tag and portal within `toleranceSeconds` of the true crossing
 * (`correct` when the direction is right too). `turnBackPairs`: turn-backs
 * reported as both transitions in order (over, then back), which the
 * decider's documented rule allows for a tag that held the far side; they
 * count as false in `precision` and `falseRate` and are left out of
 * `falseRateByRule`.
 */
export function scoreTransitions(
  truth: readonly TrueTransition[],
  reported: readonly Reported[],
  passages: readonly Passage[] = [],
  toleranceSeconds = 5,
): { truePassages: number; reported: number; correct: number; wrongDirection: number; turnBackPairs: number; precision: number; recall: number; falseRate: number; falseRateByRule: number } {
  const open = [...truth];
  let correct = 0;
  let wrongDirection = 0;
  const unmatched: Reported[] = [];
  for (const r of reported) {
    const i = open.findIndex((t) => t.epc === r.epc && t.portal === r.portal && Math.abs(t.at - r.at) <= toleranceSeconds);
    if (i < 0) {
      unmatched.push(r);
      continue;
    }
    if (open[i]!.destination === r.destination) correct++;
    else wrongDirection++;
    open.splice(i, 1);
  }
  let turnBackPairs = 0;
  for (const p of passages) {
    if (p.kind !== 'TURN_BACK') continue;
    const mine = unmatched.filter((r) => r.epc === p.epc && r.portal === p.portal && r.at >= p.at - 1 && r.at <= passageEnd(p) + 1);
    const far = p.toward === 'IN' ? 'OUT' : 'IN';
    if (mine.length === 2 && mine[0]!.destination === far && mine[1]!.destination === p.toward) turnBackPairs++;
  }
  const n = reported.length;
  return {
    truePassages: truth.length,
    reported: n,
    correct,
    wrongDirection,
    turnBackPairs,
    precision: n === 0 ? 1 : correct / n,
    recall: truth.length === 0 ? 1 : correct / truth.length,
    falseRate: n === 0 ? 0 : (n - correct) / n,
    falseRateByRule: n === 0 ? 0 : (n - correct - 2 * turnBackPairs) / n,
  };
}
