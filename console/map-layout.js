// Where the floor map draws things, as pure functions of the data and the
// view (no DOM), so the rules are in one place:
// - items that share one point (an INVENTORY job places every item its
//   reader hears at the reader's own placement) or that have no point (drawn
//   at their zone's centre) are spread around that point on a sunflower
//   spiral, outside the reader's icon, in EPC order;
// - dots closer on screen than a cell are drawn as one count badge, which
//   comes apart as the map is zoomed in;
// - a threshold (door) is a line through its readers with an IN and an OUT side.

/** Where the spiral starts (clear of the reader's square), how far apart its dots are and how far out it may reach, in metres. */
export const SPREAD_START_M = 0.6;
export const SPREAD_STEP_M = 0.35;
export const SPREAD_MAX_M = 2.5;
/** Dots nearer than this on screen are one badge. */
export const CLUSTER_PX = 26;
const GOLDEN_ANGLE = Math.PI * (3 - Math.sqrt(5));
const SAME_POINT_M = 0.05;

const keyOf = (x, y) => `${Math.round(x * 1000)},${Math.round(y * 1000)}`;

/**
 * The k-th of n places of a sunflower spiral around (x, y): evenly spread,
 * SPREAD_STEP_M apart, or closer when n of them would reach past
 * SPREAD_MAX_M (a reader hearing thousands of tags keeps them near it; the
 * badges show how many, and zooming in parts them).
 */
const spiralStep = (n) => Math.min(SPREAD_STEP_M, (SPREAD_MAX_M - SPREAD_START_M) / Math.sqrt(n));

export function spiralPoint(x, y, k, n) {
  const step = spiralStep(n);
  const r = SPREAD_START_M + step * Math.sqrt(k);
  const a = k * GOLDEN_ANGLE;
  return { x: x + r * Math.cos(a), y: y + r * Math.sin(a) };
}

/**
 * Display positions of the items: [{epc, x, y, zone, at, step}] where `at` is
 * the point the item was spread around and `step` the spacing of its spiral
 * (both null for an item drawn at its own estimate).
 * Items with neither a point nor a zone with a centre are left out.
 */
export function spreadItems(items, readers, zoneCentres) {
  const groups = new Map();
  const out = [];
  const readerPoints = readers.filter((r) => r.placement).map((r) => r.placement);
  const atReader = (x, y) => readerPoints.some((p) => Math.abs(p.x - x) < SAME_POINT_M && Math.abs(p.y - y) < SAME_POINT_M);
  const add = (key, at, item) => {
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { at, items: [] }));
    g.items.push(item);
  };
  for (const i of items) {
    if (typeof i.x === 'number' && typeof i.y === 'number') add(keyOf(i.x, i.y), { x: i.x, y: i.y }, i);
    else {
      const c = zoneCentres.get(i.zone);
      if (c) add(`zone:${i.zone}`, c, i);
    }
  }
  for (const g of groups.values()) {
    const only = g.items[0];
    if (g.items.length === 1 && typeof only.x === 'number' && !atReader(only.x, only.y)) {
      out.push({ ...only, at: null, step: null });
      continue;
    }
    g.items.sort((a, b) => (a.epc < b.epc ? -1 : a.epc > b.epc ? 1 : 0));
    const step = spiralStep(g.items.length);
    g.items.forEach((i, k) => out.push({ ...i, ...spiralPoint(g.at.x, g.at.y, k, g.items.length), at: g.at, step }));
  }
  return out;
}

/**
 * Dots and badges for a view {x0, yTop, w, vh} (metres) of `pxPerM`. A spiral
 * whose dots would be under CLUSTER_PX * 0.7 apart on screen is one badge
 * with its count, beside the point it surrounds (above right, so the reader's
 * square stays visible). Other points in view (a margin around it) are binned
 * in cells of CLUSTER_PX: a cell of one is a dot, of more a badge at their
 * mean with the count. `keep` (an EPC) is never put in a badge: the item
 * looked for stays visible however far out the map is.
 */
export function clusterPoints(points, view, pxPerM, keep) {
  const cell = CLUSTER_PX / pxPerM;
  const margin = cell * 2;
  const cells = new Map();
  const spirals = new Map();
  const dots = [];
  for (const p of points) {
    if (p.at && p.step * pxPerM < CLUSTER_PX * 0.7 && p.epc !== keep) {
      const key = `at:${p.at.x},${p.at.y}`;
      const g = spirals.get(key);
      if (g) g.push(p);
      else spirals.set(key, [p]);
      continue;
    }
    if (p.x < view.x0 - margin || p.x > view.x0 + view.w + margin || p.y > view.yTop + margin || p.y < view.yTop - view.vh - margin) continue;
    if (p.epc === keep) { dots.push(p); continue; }
    const key = `${Math.floor(p.x / cell)},${Math.floor(p.y / cell)}`;
    const c = cells.get(key);
    if (c) c.push(p);
    else cells.set(key, [p]);
  }
  const badges = [];
  const offset = (CLUSTER_PX * 0.6) / pxPerM;
  for (const [key, members] of spirals) {
    const at = members[0].at;
    badges.push({ key, count: members.length, x: at.x + offset, y: at.y + offset, zones: [...new Set(members.map((p) => p.zone))] });
  }
  for (const [key, members] of cells) {
    if (members.length === 1) dots.push(members[0]);
    else badges.push({
      key,
      count: members.length,
      x: members.reduce((s, p) => s + p.x, 0) / members.length,
      y: members.reduce((s, p) => s + p.y, 0) / members.length,
      zones: [...new Set(members.map((p) => p.zone))],
    });
  }
  return { dots, badges };
}

/** A round length for the scale bar near `targetPx` pixels long: {metres, px}. */
export function scaleBar(pxPerM, targetPx = 100) {
  const raw = targetPx / pxPerM;
  const pow = 10 ** Math.floor(Math.log10(raw));
  const metres = [1, 2, 5, 10].map((k) => k * pow).reverse().find((m) => m <= raw) ?? pow;
  return { metres, px: metres * pxPerM };
}

const DOOR_WIDTH_M = 2;

/**
 * A threshold drawn as a door: {id, name, a, b, mid, inward} in metres, or
 * null when none of its readers is placed. The line runs through its placed
 * readers (two or more: the two farthest apart; one: across the reader's
 * heading, 2 m wide). `inward` is the unit normal pointing to the IN side:
 * towards the middle of the facility's zones (the inside of the building),
 * or, without zones, along the single reader's heading.
 */
export function doorOf(threshold, readersByName, zonesCentre) {
  const placed = Object.keys(threshold.readers ?? {}).map((n) => readersByName.get(n)?.placement).filter(Boolean);
  if (placed.length === 0) return null;
  let a, b, heading = null;
  if (placed.length === 1) {
    const p = placed[0];
    const yaw = ((p.yaw ?? 0) * Math.PI) / 180;
    heading = { x: Math.cos(yaw), y: Math.sin(yaw) };
    a = { x: p.x + heading.y * DOOR_WIDTH_M / 2, y: p.y - heading.x * DOOR_WIDTH_M / 2 };
    b = { x: p.x - heading.y * DOOR_WIDTH_M / 2, y: p.y + heading.x * DOOR_WIDTH_M / 2 };
  } else {
    let best = -1;
    for (const p of placed) for (const q of placed) {
      const d = (p.x - q.x) ** 2 + (p.y - q.y) ** 2;
      if (d > best) { best = d; a = p; b = q; }
    }
  }
  const len = Math.hypot(b.x - a.x, b.y - a.y) || 1;
  let inward = { x: -(b.y - a.y) / len, y: (b.x - a.x) / len };
  const mid = { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
  const toward = zonesCentre ? (zonesCentre.x - mid.x) * inward.x + (zonesCentre.y - mid.y) * inward.y : 0;
  if (toward < 0 || (toward === 0 && heading && heading.x * inward.x + heading.y * inward.y < 0)) inward = { x: -inward.x, y: -inward.y };
  return { id: threshold.id, name: threshold.name, a: { x: a.x, y: a.y }, b: { x: b.x, y: b.y }, mid, inward };
}

/**
 * The item an operator typed: the whole EPC, or else the only one ending with
 * (or else containing) what was typed, in any case. {epc, note}: epc undefined
 * when none or several match, the note says which.
 */
export function findItem(items, typed) {
  const q = typed.trim().toUpperCase();
  if (!q) return { epc: undefined, note: '' };
  if (items.has(q)) return { epc: q, note: '' };
  const all = [...items.keys()];
  for (const test of [(e) => e.toUpperCase() === q, (e) => e.toUpperCase().endsWith(q), (e) => e.toUpperCase().includes(q)]) {
    const hits = all.filter(test);
    if (hits.length === 1) return { epc: hits[0], note: '' };
    if (hits.length > 1) return { epc: undefined, note: `${hits.length} items on this map match "${typed.trim()}"; type more of the EPC.` };
  }
  return { epc: undefined, note: `No item on this map matches "${typed.trim()}".` };
}
