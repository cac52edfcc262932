// The simulated facility: zones, readers with their antennas, tags. Comes
// from a scenario file or is generated from the command-line options.
import { hex, rngFor } from './prng';

export const FAMILIES = ['XARRAY', 'XSPAN', 'XPORTAL', 'SPEEDWAY'] as const;
export type Family = (typeof FAMILIES)[number];

/** Families whose LOCATION configuration yields x/y estimates (beam-steering arrays). */
export const LOCATION_FAMILIES: ReadonlySet<Family> = new Set<Family>(['XARRAY', 'XSPAN']);

export interface Point {
  readonly x: number;
  readonly y: number;
}

export interface Zone {
  readonly name: string;
  readonly floor: string | null;
  readonly points: readonly Point[];
}

export interface Antenna {
  /** Port / beam id, 1-52. */
  readonly id: number;
  readonly x: number;
  readonly y: number;
  readonly z: number;
}

export interface Placement {
  readonly x: number;
  readonly y: number;
  readonly z: number;
  readonly floor: string | null;
}

export interface ReaderLayout {
  readonly name: string;
  readonly family: Family;
  readonly placement: Placement;
  readonly antennas: readonly Antenna[];
}

export interface Tag {
  readonly epc: string;
  readonly tid: string | null;
}

export interface Layout {
  readonly facility: string;
  readonly zoneMapName: string;
  readonly zones: readonly Zone[];
  readonly readers: readonly ReaderLayout[];
  readonly tags: readonly Tag[];
}

/**
 * Antenna positions of a family around its placement, in facility metres.
 * XARRAY: 52 beams whose floor footprints form rings (1 + 6 + 12 + 15 + 18)
 * up to 8 m around the reader; XSPAN: 13 beams in a ring of 3 m; XPORTAL: two
 * panels 1.5 m either side; SPEEDWAY: four ports on a 2 m square.
 * Beams are placed at their footprint, 1.5 m above tag height.
 */
export function defaultAntennas(family: Family, p: Placement): Antenna[] {
  const ring = (first: number, count: number, radius: number, z: number, phase = 0): Antenna[] =>
    Array.from({ length: count }, (_, i) => {
      const a = phase + (2 * Math.PI * i) / count;
      return { id: first + i, x: round2(p.x + radius * Math.cos(a)), y: round2(p.y + radius * Math.sin(a)), z };
    });
  switch (family) {
    case 'XARRAY':
      return [
        { id: 1, x: p.x, y: p.y, z: 2.5 },
        ...ring(2, 6, 2, 2.5),
        ...ring(8, 12, 4, 2.5, 0.2),
        ...ring(20, 15, 6, 2.5, 0.1),
        ...ring(35, 18, 8, 2.5, 0.05),
      ];
    case 'XSPAN':
      return [{ id: 1, x: p.x, y: p.y, z: 2.5 }, ...ring(2, 12, 3, 2.5)];
    case 'XPORTAL':
      return [
        { id: 1, x: round2(p.x - 1.5), y: p.y, z: 1.2 },
        { id: 2, x: round2(p.x + 1.5), y: p.y, z: 1.2 },
      ];
    case 'SPEEDWAY':
      return ring(1, 4, Math.SQRT2, 2, Math.PI / 4);
    default: {
      const never: never = family;
      throw new Error(`unknown family ${String(never)}`);
    }
  }
}

const round2 = (v: number): number => Math.round(v * 100) / 100;

export function generatedEpc(seed: number, index: number): string {
  return `E280${hex(rngFor(seed, 'epc', index), 20)}`;
}

export interface GenerateOptions {
  readonly facility: string;
  readonly readers: number;
  readonly families: readonly Family[];
  readonly tags: number;
  readonly seed: number;
  readonly prefix: string;
}

/**
 * A facility of one floor: rows of 12 x 10 m zones, one per reader, each
 * reader over the middle of its zone. Every zone is watched: tags walk into
 * any zone and an INVENTORY job places a read at its reader's zone, so a zone
 * without a reader would look empty however many tags dwell in it.
 */
export function generateLayout(o: GenerateOptions): Layout {
  const zoneCount = Math.max(1, o.readers);
  const cols = Math.ceil(Math.sqrt(zoneCount * 1.5));
  const zones: Zone[] = Array.from({ length: zoneCount }, (_, i) => {
    const cx = (i % cols) * 12;
    const cy = Math.floor(i / cols) * 10;
    return { name: `Zone-${String.fromCharCode(65 + (i % 26))}${i >= 26 ? Math.floor(i / 26) : ''}`, floor: '1', points: [{ x: cx, y: cy }, { x: cx + 12, y: cy + 10 }] };
  });
  const readers: ReaderLayout[] = Array.from({ length: o.readers }, (_, i) => {
    const family = o.families[i % o.families.length] as Family;
    const zone = zones[i] as Zone;
    const [a, b] = zone.points as [Point, Point];
    const placement: Placement = { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2, z: family === 'XPORTAL' ? 1.5 : 4, floor: '1' };
    return { name: `${o.prefix}${family.toLowerCase()}-${i + 1}`, family, placement, antennas: defaultAntennas(family, placement) };
  });
  const tags: Tag[] = Array.from({ length: o.tags }, (_, i) => ({ epc: generatedEpc(o.seed, i), tid: null }));
  return { facility: o.facility, zoneMapName: `${o.prefix}zones-${o.facility}`, zones, readers, tags };
}
