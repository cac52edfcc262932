// Where a LOCATION job places a tag, from the x/y estimates of its compute
// window (docs/item-processing.md, "LOCATION"). A window that spans a move
// holds estimates of two places, often by two readers: their median is a
// point between the two, where the tag never was (with unzoned floor between
// two readers' zones, a FACILITY record between the two zones). So the
// estimates are sorted into zones first, one zone wins, and the position is
// the median of that zone's estimates only.
import type { LocationSample } from './types';

/** The zone at a point of a floor: the zone map's, else FACILITY. */
export type ZoneAt = (floor: string | null, x: number, y: number) => string;

/**
 * The item leaves the zone it is in only for a zone holding more than this
 * many times as many of the window's estimates. Two readers that both see a
 * tag, each placing it in its own zone, give about as many estimates each,
 * one more or less from one computation to the next: a plain majority would
 * move the tag back and forth with every computation. A real move ends with
 * every estimate in the new zone, so it is reported all the same, a little
 * later in the window.
 */
export const LOCATION_ZONE_HYSTERESIS = 2;

export interface Estimate {
  readonly x: number;
  readonly y: number;
  readonly floor: string | null;
  readonly zone: string;
  readonly tid: string | null;
  /** Time of the newest estimate in the chosen zone: when the tag was last observed there. */
  readonly time: number;
}

/**
 * The floor with the most estimates (ties: the floor of the newest); on it,
 * the zone of most estimates (`held`, the item's zone, is kept unless another
 * holds more than LOCATION_ZONE_HYSTERESIS times as many; other ties: the
 * zone of the newest); then the component-wise median of that zone's
 * estimates. A median ignores up to half of them being outliers, where a mean
 * would be dragged by one bad estimate. Needs at least one sample.
 */
export function locate(samples: readonly LocationSample[], zoneAt: ZoneAt, held?: string): Estimate {
  const floors = samples.map((s) => s.floor);
  const floor = mostCommon(samples, floors, undefined);
  const onFloor = samples.filter((s) => s.floor === floor);
  const zones = onFloor.map((s) => zoneAt(floor, s.x, s.y));
  const zone = mostCommon(onFloor, zones, held);
  const group = onFloor.filter((_, i) => zones[i] === zone);
  const { x, y } = pointIn(group, (p) => zoneAt(floor, p.x, p.y) === zone);
  const tid = [...samples].reverse().find((s) => s.tid !== null)?.tid ?? null;
  return { x, y, floor, zone, tid, time: newest(group).time };
}

/**
 * The key most samples have. `held` wins unless another key is more than
 * LOCATION_ZONE_HYSTERESIS times as common; other ties go to the key of the
 * newest sample among them.
 */
function mostCommon<K>(samples: readonly LocationSample[], keys: readonly K[], held: K | undefined): K {
  const counts = new Map<K, number>();
  for (const k of keys) counts.set(k, (counts.get(k) ?? 0) + 1);
  const best = Math.max(...counts.values());
  const kept = held === undefined ? 0 : (counts.get(held) ?? 0);
  if (held !== undefined && kept > 0 && kept * LOCATION_ZONE_HYSTERESIS >= best) return held;
  let pick = -1;
  samples.forEach((s, i) => {
    if (counts.get(keys[i] as K) === best && (pick < 0 || s.time >= (samples[pick] as LocationSample).time)) pick = i;
  });
  return keys[pick] as K;
}

/**
 * The median of the samples, or, when it falls outside their zone (a zone
 * that is not convex, or FACILITY estimates on both sides of a zone), the
 * sample nearest to it: the position always lies in the zone reported.
 */
function pointIn(samples: readonly LocationSample[], inZone: (p: { x: number; y: number }) => boolean): { x: number; y: number } {
  const m = { x: median(samples.map((s) => s.x)), y: median(samples.map((s) => s.y)) };
  if (inZone(m)) return m;
  let nearest = samples[0] as LocationSample;
  for (const s of samples) if (Math.hypot(s.x - m.x, s.y - m.y) < Math.hypot(nearest.x - m.x, nearest.y - m.y)) nearest = s;
  return { x: nearest.x, y: nearest.y };
}

const newest = (samples: readonly LocationSample[]): LocationSample => samples.reduce((a, b) => (b.time >= a.time ? b : a));

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const upper = sorted[mid] ?? NaN;
  if (sorted.length % 2 === 1) return upper;
  return ((sorted[mid - 1] ?? NaN) + upper) / 2;
}
