// Whether two simple polygons share a positive area. Touching along edges or
// at corners is allowed (zones of a map may touch), so the test must tell a
// shared boundary from an overlap.
//
// Why the test is complete: if the interiors intersect, either the boundary
// of one polygon passes through the interior of the other, or neither does.
// In the second case the interior of B (connected, and not cut by A's
// boundary) lies wholly inside A, and vice versa: the polygons are the same
// region, so any interior point of A is inside B. Hence: overlap iff a piece
// of either boundary lies strictly inside the other polygon, or an interior
// point of A lies strictly inside B.
import { area, boundingBox, boxesApart, edgesOf, placement, type Polygon } from './geometry';
import { EPS, dist, lerp, onSegment, paramOn, properCrossing, type Vec } from './segments';

/**
 * Whether some piece of A's boundary lies strictly inside B. Each edge of A is
 * cut wherever it meets B's boundary; between cuts a piece is wholly inside,
 * wholly outside or wholly on B's boundary, so its midpoint decides.
 */
function boundaryEnters(a: Polygon, b: Polygon): boolean {
  const bEdges = edgesOf(b);
  for (const [p, q] of edgesOf(a)) {
    const cuts = [0, 1];
    for (const [r, s] of bEdges) {
      if (onSegment(r, p, q)) cuts.push(paramOn(r, p, q));
      if (onSegment(s, p, q)) cuts.push(paramOn(s, p, q));
      const t = properCrossing(p, q, r, s);
      if (t !== undefined) cuts.push(t);
    }
    cuts.sort((x, y) => x - y);
    const length = dist(p, q);
    for (let i = 1; i < cuts.length; i++) {
      const [t0, t1] = [cuts[i - 1] as number, cuts[i] as number];
      if ((t1 - t0) * length <= EPS) continue;
      if (placement(lerp(p, q, (t0 + t1) / 2), b) === 'inside') return true;
    }
  }
  return false;
}

/**
 * A point well inside the polygon: on horizontal lines half-way between
 * successive vertex heights (so no line passes through a vertex), the middle
 * of the inside stretch with the most room around it.
 */
export function interiorPoint(polygon: Polygon): Vec | undefined {
  const ys = [...new Set(polygon.map((p) => p.y))].sort((a, b) => a - b);
  const edges = edgesOf(polygon);
  let best: { point: Vec; room: number } | undefined;
  for (let i = 1; i < ys.length; i++) {
    const [y0, y1] = [ys[i - 1] as number, ys[i] as number];
    const y = (y0 + y1) / 2;
    const xs = edges
      .filter(([a, b]) => a.y > y !== b.y > y)
      .map(([a, b]) => a.x + ((y - a.y) * (b.x - a.x)) / (b.y - a.y))
      .sort((a, b) => a - b);
    // Even-odd: stretches [xs0, xs1], [xs2, xs3], ... are inside.
    for (let k = 1; k < xs.length; k += 2) {
      const [x0, x1] = [xs[k - 1] as number, xs[k] as number];
      const room = Math.min(x1 - x0, y1 - y0);
      if (best === undefined || room > best.room) best = { point: { x: (x0 + x1) / 2, y }, room };
    }
  }
  return best?.point;
}

/** Whether the polygons share a positive area; touching edges and corners do not count. */
export function polygonsOverlap(a: Polygon, b: Polygon): boolean {
  if (boxesApart(boundingBox(a), boundingBox(b))) return false;
  if (boundaryEnters(a, b) || boundaryEnters(b, a)) return true;
  // Same region (possibly written with other vertices): only then can an
  // inner point of the smaller one be strictly inside the other.
  const [small, large] = area(a) <= area(b) ? [a, b] : [b, a];
  const inner = interiorPoint(small);
  return inner !== undefined && placement(inner, large) === 'inside';
}
