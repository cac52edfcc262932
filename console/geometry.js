// Zone overlap as the service checks it (zones on one floor may share edges
// and corners, not area), so the editor can show overlaps before saving.
import { outline } from './mapview.js';

const cross = (o, a, b) => (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);

function properlyCross(p1, p2, q1, q2) {
  const d1 = cross(q1, q2, p1), d2 = cross(q1, q2, p2), d3 = cross(p1, p2, q1), d4 = cross(p1, p2, q2);
  return ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0));
}

function onSegment(p, a, b) {
  return Math.abs(cross(a, b, p)) < 1e-9 && p.x >= Math.min(a.x, b.x) - 1e-9 && p.x <= Math.max(a.x, b.x) + 1e-9 && p.y >= Math.min(a.y, b.y) - 1e-9 && p.y <= Math.max(a.y, b.y) + 1e-9;
}

/** Strictly inside (not on the outline). */
function inside(p, poly) {
  for (let i = 0; i < poly.length; i++) if (onSegment(p, poly[i], poly[(i + 1) % poly.length])) return false;
  let c = false;
  for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
    const a = poly[i], b = poly[j];
    if (a.y > p.y !== b.y > p.y && p.x < ((b.x - a.x) * (p.y - a.y)) / (b.y - a.y) + a.x) c = !c;
  }
  return c;
}

const mid = (a, b) => ({ x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 });

export function zonesOverlap(za, zb) {
  const a = outline(za.points), b = outline(zb.points);
  for (let i = 0; i < a.length; i++) for (let j = 0; j < b.length; j++) if (properlyCross(a[i], a[(i + 1) % a.length], b[j], b[(j + 1) % b.length])) return true;
  // Containment, identical outlines, or edges that run inside the other zone.
  const probes = (p) => [...p, ...p.map((q, i) => mid(q, p[(i + 1) % p.length])), p.reduce((s, q) => ({ x: s.x + q.x / p.length, y: s.y + q.y / p.length }), { x: 0, y: 0 })];
  return probes(a).some((p) => inside(p, b)) || probes(b).some((p) => inside(p, a));
}

/** Indexes of the zones that overlap another zone of the same floor. */
export function overlappingZones(zones) {
  const hit = new Set();
  for (let i = 0; i < zones.length; i++) for (let j = i + 1; j < zones.length; j++) {
    if ((zones[i].floor ?? null) !== (zones[j].floor ?? null)) continue;
    if ((zones[i].points?.length ?? 0) < 2 || (zones[j].points?.length ?? 0) < 2) continue;
    if (zonesOverlap(zones[i], zones[j])) { hit.add(i); hit.add(j); }
  }
  return hit;
}
