// Planar primitives in meters for zone polygons. Every comparison goes through
// one distance tolerance, EPS, so that points meant to lie on an edge (touching
// zones, shared corners) are recognised despite floating-point rounding in
// values like 0.1 + 0.2.

export interface Vec {
  readonly x: number;
  readonly y: number;
}

/** Distance tolerance in meters: far below any meaningful zone dimension. */
export const EPS = 1e-6;

export const sub = (a: Vec, b: Vec): Vec => ({ x: a.x - b.x, y: a.y - b.y });
export const cross = (a: Vec, b: Vec): number => a.x * b.y - a.y * b.x;
export const dot = (a: Vec, b: Vec): number => a.x * b.x + a.y * b.y;
export const dist = (a: Vec, b: Vec): number => Math.hypot(a.x - b.x, a.y - b.y);
export const samePoint = (a: Vec, b: Vec): boolean => dist(a, b) <= EPS;
export const lerp = (a: Vec, b: Vec, t: number): Vec => ({ x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t });

/**
 * Which side of the line a->b the point c is on: 1 left, -1 right, 0 within
 * EPS of the line. The cross product is divided by |ab| so that the tolerance
 * is a distance, independent of the edge length.
 */
export function side(a: Vec, b: Vec, c: Vec): -1 | 0 | 1 {
  const length = dist(a, b);
  if (length <= EPS) return 0;
  const offset = cross(sub(b, a), sub(c, a)) / length;
  if (Math.abs(offset) <= EPS) return 0;
  return offset > 0 ? 1 : -1;
}

/** Position of p projected on a->b: 0 at a, 1 at b. */
export function paramOn(p: Vec, a: Vec, b: Vec): number {
  const ab = sub(b, a);
  const squared = dot(ab, ab);
  return squared === 0 ? 0 : dot(sub(p, a), ab) / squared;
}

export function distToSegment(p: Vec, a: Vec, b: Vec): number {
  const t = Math.min(1, Math.max(0, paramOn(p, a, b)));
  return dist(p, lerp(a, b, t));
}

export const onSegment = (p: Vec, a: Vec, b: Vec): boolean => distToSegment(p, a, b) <= EPS;

/**
 * Whether a->b and c->d cross at a single point interior to both (not at an
 * endpoint, not collinear), and where on a->b (0..1) if they do.
 */
export function properCrossing(a: Vec, b: Vec, c: Vec, d: Vec): number | undefined {
  const crosses = side(a, b, c) * side(a, b, d) < 0 && side(c, d, a) * side(c, d, b) < 0;
  if (!crosses) return undefined;
  const dc = sub(d, c);
  return cross(sub(c, a), dc) / cross(sub(b, a), dc);
}

/** Whether two segments share any point, touching included. */
export function segmentsTouch(a: Vec, b: Vec, c: Vec, d: Vec): boolean {
  return (
    properCrossing(a, b, c, d) !== undefined ||
    onSegment(c, a, b) ||
    onSegment(d, a, b) ||
    onSegment(a, c, d) ||
    onSegment(b, c, d)
  );
}

export const formatVec = (p: Vec): string => `(${p.x}, ${p.y})`;
