// Zone polygons: built from the points of a zone, checked for being a proper
// (simple) polygon, and queried for area and point containment. The overlap
// test between two polygons lives in overlap.ts.
import { EPS, dist, formatVec, onSegment, samePoint, segmentsTouch, side, type Vec } from './segments';

export type { Vec };
export type Polygon = readonly Vec[];

/**
 * The outline of a zone. Two points are opposite corners of an axis-aligned
 * rectangle (returned as its 4 corners, counter-clockwise); more points are
 * the vertices in the given order. Repeated consecutive points, including a
 * last point that closes the ring onto the first, are dropped: both are common
 * ways of writing the same outline and carry no meaning.
 */
export function polygonOf(points: readonly Vec[]): Vec[] {
  const [a, b, ...rest] = points;
  if (a !== undefined && b !== undefined && rest.length === 0) {
    const [x0, x1] = [Math.min(a.x, b.x), Math.max(a.x, b.x)];
    const [y0, y1] = [Math.min(a.y, b.y), Math.max(a.y, b.y)];
    return [
      { x: x0, y: y0 },
      { x: x1, y: y0 },
      { x: x1, y: y1 },
      { x: x0, y: y1 },
    ];
  }
  const outline: Vec[] = [];
  for (const p of points) {
    const last = outline[outline.length - 1];
    if (last === undefined || !samePoint(last, p)) outline.push({ x: p.x, y: p.y });
  }
  while (outline.length > 1 && samePoint(outline[0] as Vec, outline[outline.length - 1] as Vec)) outline.pop();
  return outline;
}

/** Edges as [start, end] pairs, the last one closing the ring. */
export function edgesOf(polygon: Polygon): Array<[Vec, Vec]> {
  return polygon.map((p, i) => [p, polygon[(i + 1) % polygon.length] as Vec]);
}

/** Shoelace formula: positive for counter-clockwise vertex order. */
export function signedArea(polygon: Polygon): number {
  let twice = 0;
  for (const [a, b] of edgesOf(polygon)) twice += a.x * b.y - b.x * a.y;
  return twice / 2;
}

export const area = (polygon: Polygon): number => Math.abs(signedArea(polygon));

/** Below this (1 mm²) an outline is a line or a point, not an area. */
export const MIN_AREA = 1e-6;

export type Placement = 'inside' | 'boundary' | 'outside';

/** Where p lies relative to the polygon; within EPS of an edge is 'boundary'. */
export function placement(p: Vec, polygon: Polygon): Placement {
  const edges = edgesOf(polygon);
  if (edges.some(([a, b]) => onSegment(p, a, b))) return 'boundary';
  // Even-odd ray casting to +x. Edges are half-open in y, so a ray through a
  // vertex counts once; p is not on an edge here, so rounding cannot flip it.
  let inside = false;
  for (const [a, b] of edges) {
    if (a.y > p.y !== b.y > p.y) {
      const xCross = a.x + ((p.y - a.y) * (b.x - a.x)) / (b.y - a.y);
      if (p.x < xCross) inside = !inside;
    }
  }
  return inside ? 'inside' : 'outside';
}

/**
 * Point containment where the boundary counts as inside: a tag standing on
 * the line between two touching zones belongs to a zone rather than to
 * FACILITY (zoneAt then picks the first zone listed that contains it).
 */
export const pointInPolygon = (p: Vec, polygon: Polygon): boolean => placement(p, polygon) !== 'outside';

function allOnOneLine(polygon: Polygon): boolean {
  const [first] = polygon;
  if (first === undefined) return true;
  const far = polygon.reduce((best, p) => (dist(first, p) > dist(first, best) ? p : best), first);
  return polygon.every((p) => side(first, far, p) === 0);
}

/**
 * Why the outline is not a usable zone, or undefined if it is: at least 3
 * distinct vertices, not all on one line, no edge touching another except its
 * two neighbours at the shared vertex, and a non-zero area. Crossing is
 * checked before area because a bow tie's two halves cancel out to area 0.
 */
export function polygonProblem(polygon: Polygon): string | undefined {
  if (polygon.length < 3) return 'needs at least 3 distinct points';
  if (allOnOneLine(polygon)) return 'has zero area (all points on one line)';
  const crossing = selfContact(polygon);
  if (crossing !== undefined) return crossing;
  return area(polygon) < MIN_AREA ? 'has zero area' : undefined;
}

function selfContact(polygon: Polygon): string | undefined {
  const edges = edgesOf(polygon);
  const n = edges.length;
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const [a, b] = edges[i] as [Vec, Vec];
      const [c, d] = edges[j] as [Vec, Vec];
      if (j === i + 1 || (i === 0 && j === n - 1)) {
        // Neighbours share one vertex; they may only meet there. The far end
        // of one lying on the other means the outline folds back on itself.
        const [p, shared, r] = j === i + 1 ? [a, b, d] : [c, a, b];
        if (onSegment(p, shared, r) || onSegment(r, p, shared)) return `outline folds back on itself at ${formatVec(shared)}`;
      } else if (segmentsTouch(a, b, c, d)) {
        return `outline crosses or touches itself: edges ${formatVec(a)}-${formatVec(b)} and ${formatVec(c)}-${formatVec(d)}`;
      }
    }
  }
  return undefined;
}

export interface Box {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

export function boundingBox(polygon: Polygon): Box {
  const xs = polygon.map((p) => p.x);
  const ys = polygon.map((p) => p.y);
  return { minX: Math.min(...xs), minY: Math.min(...ys), maxX: Math.max(...xs), maxY: Math.max(...ys) };
}

/** Boxes that share no area: at most touching, within EPS. */
export const boxesApart = (a: Box, b: Box): boolean =>
  a.maxX <= b.minX + EPS || b.maxX <= a.minX + EPS || a.maxY <= b.minY + EPS || b.maxY <= a.minY + EPS;
