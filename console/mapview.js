// The floor in metres: an SVG whose y axis points up (a world point (x, y)
// is drawn at (x, -y)), zones, readers at their placement, doors with their
// IN and OUT sides, items as dots (spread and gathered in count badges by
// ./map-layout.js). Pan by dragging the background (one finger too), zoom
// with the wheel, a pinch or +/-, arrows pan, 0 fits. Dots and badges are
// buttons: click, or Tab to one and Enter. From CANVAS_AT items on, the dots
// are painted on a canvas above the SVG (thousands of SVG nodes cannot move
// smoothly); a click there opens the nearest dot. Also the editor surface:
// drawing rectangles (zone maps) and dragging readers (placement). The
// legend's swatches have classes of their own (key-*), so a query for the
// map's readers or items never counts them.
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { html } from './html.js';
import { clusterPoints, doorOf, scaleBar, spreadItems } from './map-layout.js';

export const CANVAS_AT = 5000;
const MOVE_MS = 600;

/** Outline of a zone as drawn: two points are opposite corners of a rectangle. */
export function outline(points) {
  if (points.length === 2) {
    const [a, b] = points;
    return [{ x: a.x, y: a.y }, { x: b.x, y: a.y }, { x: b.x, y: b.y }, { x: a.x, y: b.y }];
  }
  return points;
}

export function centroid(points) {
  const o = outline(points);
  return { x: o.reduce((s, p) => s + p.x, 0) / o.length, y: o.reduce((s, p) => s + p.y, 0) / o.length };
}

function boundsOf(zones, readers, items) {
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  const add = (x, y) => {
    if (typeof x !== 'number' || typeof y !== 'number') return;
    x0 = Math.min(x0, x); y0 = Math.min(y0, y); x1 = Math.max(x1, x); y1 = Math.max(y1, y);
  };
  for (const z of zones) for (const p of outline(z.points)) add(p.x, p.y);
  for (const r of readers) add(r.placement?.x, r.placement?.y);
  if (x0 === Infinity) for (const i of items) add(i.x, i.y);
  if (x0 === Infinity) return { x0: -1, y0: -1, x1: 20, y1: 12 };
  // At least 10 m across, so one reader or one item is not drawn a metre wide.
  const grow = (a, b) => (b - a < 10 ? [(a + b) / 2 - 5, (a + b) / 2 + 5] : [a, b]);
  [x0, x1] = grow(x0, x1);
  [y0, y1] = grow(y0, y1);
  const m = Math.max(1, (x1 - x0) * 0.08, (y1 - y0) * 0.08);
  return { x0: x0 - m, y0: y0 - m, x1: x1 + m, y1: y1 + m };
}

/**
 * props: zones [{name, floor, points}], readers [{name, placement}], items
 * Map epc -> {epc, x, y, zone}, layers {zones, readers, items, labels, doors},
 * thresholds [{id, name, readers}], passages [{transitionId, epc, thresholdId,
 * destination}] (drawn crossing their door), focus {epc, seq} (centre on it
 * and ring it; a new seq centres again), path [{x,y}], overlapping Set of zone
 * indexes, onDraw(rect) (draw mode), onReaderMove(name, x, y), onItem(epc),
 * legend (show the legend and scale)
 */
export function MapView(props) {
  const { zones = [], readers = [], items, thresholds = [], passages = [], focus, layers = { zones: true, readers: true, items: true, labels: true, doors: true }, path, overlapping, onDraw, onReaderMove, onItem, legend, testid = 'floor-map' } = props;
  const wrap = useRef(null);
  const canvas = useRef(null);
  const [size, setSize] = useState({ w: 800, h: 500 });
  const [view, setView] = useState(null); // {x0, yTop, w} in metres
  const [drawing, setDrawing] = useState(null);
  const drag = useRef(null);
  const pointers = useRef(new Map());
  const itemList = items ? [...items.values()] : [];
  const fit = boundsOf(zones, readers, itemList);

  useEffect(() => {
    const ro = new ResizeObserver(([e]) => setSize({ w: e.contentRect.width || 800, h: e.contentRect.height || 500 }));
    ro.observe(wrap.current);
    return () => ro.disconnect();
  }, []);
  // A new floor (another facility) is fitted again; otherwise the view follows the content until the user
  // first touches it, then stays put so shapes being drawn or dragged do not slide under the pointer.
  useEffect(() => setView(null), [props.resetKey]);

  // The visible world rectangle, keeping the aspect ratio of the element.
  const v = view ?? (() => {
    const w = fit.x1 - fit.x0, h = fit.y1 - fit.y0;
    const scale = Math.min(size.w / w, size.h / h);
    const vw = size.w / scale, vh = size.h / scale;
    return { x0: fit.x0 - (vw - w) / 2, yTop: fit.y1 + (vh - h) / 2, w: vw };
  })();
  const vh = (v.w * size.h) / size.w;
  const pxPerM = size.w / v.w;
  const toWorld = (clientX, clientY) => {
    const r = wrap.current.getBoundingClientRect();
    return { x: v.x0 + ((clientX - r.left) / r.width) * v.w, y: v.yTop - ((clientY - r.top) / r.height) * vh };
  };
  const zoom = (factor, at) => {
    const c = at ?? { x: v.x0 + v.w / 2, y: v.yTop - vh / 2 };
    const w = v.w * factor;
    setView({ w, x0: c.x - (c.x - v.x0) * factor, yTop: c.y + (v.yTop - c.y) * factor });
  };
  const pan = (dx, dy) => setView({ ...v, x0: v.x0 + dx, yTop: v.yTop + dy });
  /** Centres the view on (x, y), at least `minPxPerM` pixels a metre. */
  const centreOn = (p, minPxPerM) => {
    const w = Math.min(v.w, size.w / minPxPerM);
    setView({ w, x0: p.x - w / 2, yTop: p.y + (w * size.h) / size.w / 2 });
  };

  const zoneCentres = useMemo(() => new Map(zones.map((z) => [z.name, centroid(z.points)])), [zones]);
  const placed = layers.items ? spreadItems(itemList, readers, zoneCentres) : [];
  const useCanvas = placed.length >= CANVAS_AT;
  const focused = focus?.epc ? placed.find((p) => p.epc === focus.epc) : undefined;
  // Centre on the item asked for, close enough that its neighbours come out of their badges.
  useEffect(() => { if (focused) centreOn(focused, 120); }, [focus?.seq, !!focused]);

  const onWheel = (e) => {
    e.preventDefault();
    zoom(e.deltaY > 0 ? 1.15 : 1 / 1.15, toWorld(e.clientX, e.clientY));
  };
  const onKey = (e) => {
    const step = v.w / 10;
    const keys = { ArrowLeft: () => pan(-step, 0), ArrowRight: () => pan(step, 0), ArrowUp: () => pan(0, step), ArrowDown: () => pan(0, -step), '+': () => zoom(1 / 1.25), '=': () => zoom(1 / 1.25), '-': () => zoom(1.25), 0: () => setView(null) };
    const f = keys[e.key];
    if (f) { e.preventDefault(); f(); }
  };
  const pinchOf = () => {
    const [a, b] = [...pointers.current.values()];
    return { dist: Math.hypot(a.x - b.x, a.y - b.y) || 1, mid: { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 } };
  };
  const onPointerDown = (e) => {
    const target = e.target;
    // Dots, badges and passages are buttons: taking the pointer here would take their click.
    if (target.closest?.('[data-epc],[data-cluster]') && !onDraw && !onReaderMove) return;
    pointers.current.set(e.pointerId, { x: e.clientX, y: e.clientY });
    if (!view) setView(v);
    if (pointers.current.size === 2) {
      for (const id of pointers.current.keys()) e.currentTarget.setPointerCapture(id);
      const p = pinchOf();
      drag.current = { kind: 'pinch', dist: p.dist, at: toWorld(p.mid.x, p.mid.y), view: v };
      return;
    }
    const readerName = target.dataset?.reader;
    const at = toWorld(e.clientX, e.clientY);
    if (readerName && onReaderMove) drag.current = { kind: 'reader', name: readerName };
    else if (onDraw) drag.current = { kind: 'draw', from: at };
    // Panning takes the pointer only once it has moved, so a plain click still reaches what is under it.
    else drag.current = { kind: 'pan', cx: e.clientX, cy: e.clientY, view: v, captured: false };
    if (drag.current.kind !== 'pan') e.currentTarget.setPointerCapture(e.pointerId);
  };
  const onPointerMove = (e) => {
    if (pointers.current.has(e.pointerId)) pointers.current.set(e.pointerId, { x: e.clientX, y: e.clientY });
    const d = drag.current;
    if (!d) return;
    if (d.kind === 'pinch') {
      if (pointers.current.size < 2) return;
      const p = pinchOf();
      const w = (d.view.w * d.dist) / p.dist;
      const r = wrap.current.getBoundingClientRect();
      const fx = (p.mid.x - r.left) / r.width, fy = (p.mid.y - r.top) / r.height;
      // The world point first under the fingers' middle stays under it.
      setView({ w, x0: d.at.x - fx * w, yTop: d.at.y + fy * ((w * size.h) / size.w) });
      return;
    }
    const at = toWorld(e.clientX, e.clientY);
    if (d.kind === 'pan') {
      if (!d.captured) {
        if (Math.hypot(e.clientX - d.cx, e.clientY - d.cy) < 4) return;
        d.captured = true;
        e.currentTarget.setPointerCapture(e.pointerId);
      }
      setView({ ...d.view, x0: d.view.x0 - (e.clientX - d.cx) / pxPerM, yTop: d.view.yTop + (e.clientY - d.cy) / pxPerM });
    } else if (d.kind === 'draw') setDrawing({ x0: d.from.x, y0: d.from.y, x1: at.x, y1: at.y });
    else if (d.kind === 'reader') onReaderMove(d.name, Math.round(at.x * 10) / 10, Math.round(at.y * 10) / 10);
  };
  const onPointerUp = (e) => {
    pointers.current.delete(e.pointerId);
    const d = drag.current;
    if (d?.kind === 'pinch') {
      // The finger left on the glass pans from where it is.
      const [rest] = [...pointers.current.values()];
      drag.current = rest ? { kind: 'pan', cx: rest.x, cy: rest.y, view: v, captured: true } : null;
      return;
    }
    drag.current = null;
    if (d?.kind === 'draw' && drawing) {
      const r = { x0: Math.min(drawing.x0, drawing.x1), y0: Math.min(drawing.y0, drawing.y1), x1: Math.max(drawing.x0, drawing.x1), y1: Math.max(drawing.y0, drawing.y1) };
      const snap = (n) => Math.round(n * 10) / 10;
      if (r.x1 - r.x0 > 0.2 && r.y1 - r.y0 > 0.2) onDraw({ x0: snap(r.x0), y0: snap(r.y0), x1: snap(r.x1), y1: snap(r.y1) });
    }
    // A click on the canvas (no drag) opens the nearest dot within a few pixels.
    if (useCanvas && onItem && d?.kind === 'pan' && !d.captured) {
      const at = toWorld(e.clientX, e.clientY);
      let best = null, bestD = 8 / pxPerM;
      for (const p of placed) {
        const dd = Math.hypot(p.x - at.x, p.y - at.y);
        if (dd < bestD) { best = p; bestD = dd; }
      }
      if (best) onItem(best.epc);
    }
    setDrawing(null);
  };

  // Canvas layer: every dot glides from where it was to where it is now.
  const anim = useRef(new Map());
  const viewRef = useRef(v);
  viewRef.current = { ...v, vh, size };
  useEffect(() => {
    if (!useCanvas) return undefined;
    const positions = anim.current;
    const now = performance.now();
    for (const p of placed) {
      const a = positions.get(p.epc);
      if (!a) positions.set(p.epc, { fx: p.x, fy: p.y, tx: p.x, ty: p.y, t0: now, absent: p.zone === 'ABSENT' });
      else if (a.tx !== p.x || a.ty !== p.y) {
        const k = Math.min(1, (now - a.t0) / MOVE_MS);
        positions.set(p.epc, { fx: a.fx + (a.tx - a.fx) * k, fy: a.fy + (a.ty - a.fy) * k, tx: p.x, ty: p.y, t0: now, absent: p.zone === 'ABSENT' });
      }
    }
    if (positions.size > placed.length) {
      const keep = new Set(placed.map((p) => p.epc));
      for (const k of positions.keys()) if (!keep.has(k)) positions.delete(k);
    }
  });
  useEffect(() => {
    if (!useCanvas) return undefined;
    let frame;
    const draw = () => {
      const c = canvas.current;
      if (!c) return; // unmounted between frames
      const { x0, yTop, w, vh: h, size: s } = viewRef.current;
      const dpr = devicePixelRatio || 1;
      if (c.width !== Math.round(s.w * dpr)) { c.width = Math.round(s.w * dpr); c.height = Math.round(s.h * dpr); }
      const ctx = c.getContext('2d');
      ctx.setTransform(1, 0, 0, 1, 0, 0);
      ctx.clearRect(0, 0, c.width, c.height);
      const sx = (c.width / w), sy = (c.height / h);
      // Squares, not arcs: at this density they look the same and cost a fraction to fill.
      const r = Math.max(1.5, 0.15 * sx);
      const d = 2 * r;
      const now = performance.now();
      ctx.fillStyle = '#1a8a4a';
      for (const a of anim.current.values()) {
        const k = a.t0 + MOVE_MS <= now ? 1 : (now - a.t0) / MOVE_MS;
        ctx.fillRect((a.fx + (a.tx - a.fx) * k - x0) * sx - r, (yTop - (a.fy + (a.ty - a.fy) * k)) * sy - r, d, d);
      }
      frame = requestAnimationFrame(draw);
    };
    frame = requestAnimationFrame(draw);
    return () => cancelAnimationFrame(frame);
  }, [useCanvas]);

  // A dot is 12 cm across (a tag's size) while that is between 4 and 8 pixels: visible far out, not a disc close in.
  const dot = Math.min(Math.max(0.12, 4 / pxPerM), 8 / pxPerM);
  const font = Math.max(0.3, 11 / pxPerM);
  const px = 1 / pxPerM;
  const pts = (points) => outline(points).map((p) => `${p.x},${-p.y}`).join(' ');
  const { dots, badges } = useCanvas ? { dots: [], badges: [] } : clusterPoints(placed, { ...v, vh }, pxPerM, focus?.epc);
  const readersByName = new Map(readers.map((r) => [r.name, r]));
  const zonesCentre = zones.length ? (() => {
    const cs = zones.map((z) => centroid(z.points));
    return { x: cs.reduce((s, c) => s + c.x, 0) / cs.length, y: cs.reduce((s, c) => s + c.y, 0) / cs.length };
  })() : null;
  const doors = layers.doors === false ? [] : thresholds.map((t) => doorOf(t, readersByName, zonesCentre)).filter(Boolean);
  const doorById = new Map(doors.map((d) => [d.id, d]));
  const open = (epc) => (e) => { if (!e.key || e.key === 'Enter' || e.key === ' ') { e.preventDefault?.(); e.stopPropagation?.(); onItem?.(epc); } };
  const expand = (b) => (e) => { if (!e.key || e.key === 'Enter' || e.key === ' ') { e.preventDefault?.(); e.stopPropagation?.(); zoom(1 / 3, b); } };
  const bar = scaleBar(pxPerM);
  // On a phone the legend starts folded: open, it would cover most of the floor.
  const narrow = size.w < 600;
  return html`<div class="map-wrap" ref=${wrap} data-testid=${testid} data-items=${placed.length} data-renderer=${useCanvas ? 'canvas' : 'svg'} data-px-per-m=${pxPerM.toFixed(2)}>
    <svg viewBox=${`${v.x0} ${-v.yTop} ${v.w} ${vh}`} tabindex="0" role="group" aria-label="Floor map in metres; arrows pan, plus and minus zoom, 0 fits; Tab reaches the items"
      onWheel=${onWheel} onKeyDown=${onKey} onPointerDown=${onPointerDown} onPointerMove=${onPointerMove} onPointerUp=${onPointerUp} onPointerCancel=${onPointerUp}>
      ${layers.zones && zones.map((z, i) => html`<polygon class=${`zone${overlapping?.has(i) ? ' overlap' : ''}`} points=${pts(z.points)} style=${`stroke-width:${1.5 * px}`}><title>${z.name}${z.floor ? ` (floor ${z.floor})` : ''}</title></polygon>`)}
      ${layers.zones && layers.labels && zones.map((z) => {
        const c = centroid(z.points);
        return html`<text class="zone-label" x=${c.x} y=${-c.y} text-anchor="middle" style=${`font-size:${font}px`}>${z.name}</text>`;
      })}
      ${doors.map((d) => html`<${Door} d=${d} px=${px} font=${font} labels=${layers.labels} />`)}
      ${drawing && html`<rect class="zone draft" x=${Math.min(drawing.x0, drawing.x1)} y=${-Math.max(drawing.y0, drawing.y1)} width=${Math.abs(drawing.x1 - drawing.x0)} height=${Math.abs(drawing.y1 - drawing.y0)} />`}
      ${path?.length > 1 && html`<polyline class="path" points=${path.map((p) => `${p.x},${-p.y}`).join(' ')} style=${`stroke-width:${2 * px}`} />`}
      ${path?.map((p, i) => html`<circle cx=${p.x} cy=${-p.y} r=${dot * 0.8} fill=${i === path.length - 1 ? '#c62828' : '#e57373'}><title>${p.label ?? ''}</title></circle>`)}
      ${layers.readers && readers.filter((r) => r.placement).map((r) => html`<g>
        <rect class="reader" data-reader=${r.name} x=${r.placement.x - dot * 1.5} y=${-r.placement.y - dot * 1.5} width=${dot * 3} height=${dot * 3} transform=${`rotate(${-(r.placement.yaw ?? 0)} ${r.placement.x} ${-r.placement.y})`}><title>${r.name}</title></rect>
        ${layers.labels && html`<text class="reader-label" x=${r.placement.x + dot * 2} y=${-r.placement.y - dot * 2} style=${`font-size:${font}px`}>${r.name}</text>`}
      </g>`)}
      ${dots.map((p) => html`<circle key=${p.epc} class=${`item${p.zone === 'ABSENT' ? ' absent' : ''}`} cx=${p.x} cy=${-p.y} r=${dot} data-epc=${p.epc}
        tabindex="0" role="button" aria-label=${`Item ${p.epc} in ${p.zone}: open`} onClick=${open(p.epc)} onKeyDown=${open(p.epc)}><title>${p.epc} · ${p.zone}</title></circle>`)}
      ${badges.map((b) => html`<g key=${b.key} class="cluster" data-cluster=${b.count} tabindex="0" role="button" aria-label=${`${b.count} items in ${b.zones.join(', ')}: zoom in`} onClick=${expand(b)} onKeyDown=${expand(b)}>
        <circle cx=${b.x} cy=${-b.y} r=${(9 + Math.min(8, Math.log2(b.count) * 2)) * px} style=${`stroke-width:${1.5 * px}`} />
        <text x=${b.x} y=${-b.y} dy=".35em" text-anchor="middle" style=${`font-size:${10 * px}px`}>${b.count > 999 ? `${Math.round(b.count / 1000)}k` : b.count}</text>
        <title>${b.count} items (${b.zones.join(', ')}): zoom in</title></g>`)}
      ${focused && html`<circle class="focus-ring" data-testid="map-focus" data-epc-focus=${focused.epc} cx=${focused.x} cy=${-focused.y} r=${12 * px} style=${`stroke-width:${3 * px}`} />`}
      ${passages.map((p) => doorById.has(p.thresholdId) && html`<${Passage} key=${p.transitionId} p=${p} d=${doorById.get(p.thresholdId)} px=${px} onOpen=${open(p.epc)} />`)}
    </svg>
    ${useCanvas && html`<canvas ref=${canvas} aria-hidden="true"></canvas>`}
    ${legend && html`<div class="map-scale" data-testid="map-scale" data-metres=${bar.metres} aria-label=${`Scale: the bar is ${bar.metres} m`}><span style=${`width:${bar.px}px`}></span>${bar.metres} m</div>`}
    ${legend && html`<details class="map-legend" data-testid="map-legend" open=${!narrow}><summary>Legend</summary><ul>
      <li><svg viewBox="-6 -6 12 12"><circle class="key-item" r="4" /></svg>item</li>
      <li><svg viewBox="-6 -6 12 12"><circle class="key-item absent" r="4" /></svg>absent</li>
      <li><svg viewBox="-9 -9 18 18"><circle class="key-cluster" r="8" /><text class="key-cluster-count" dy=".35em" text-anchor="middle">12</text></svg>items close together: click to zoom in</li>
      <li><svg viewBox="-6 -6 12 12"><rect class="key-reader" x="-4" y="-4" width="8" height="8" /></svg>reader (items it places at itself are spread around it)</li>
      <li><svg viewBox="-6 -6 12 12"><rect class="key-zone" x="-5" y="-5" width="10" height="10" /></svg>zone</li>
      <li><svg viewBox="-8 -6 16 12"><rect class="door-side in" x="-7" y="-5" width="7" height="10" /><rect class="door-side out" x="0" y="-5" width="7" height="10" /><line class="key-door" x1="0" y1="-6" x2="0" y2="6" /></svg>door: IN side green, OUT side orange</li>
    </ul></details>`}
  </div>`;
}

/** A passage: an arrow across its door from the side it left to the side it entered, a dot running along it once. */
function Passage({ p, d, px, onOpen }) {
  const motion = useRef(null);
  // The SVG's own timeline started with the map: begin the run when the passage arrives, not at the map's start.
  useEffect(() => { motion.current?.beginElement(); }, []);
  const sign = p.destination === 'IN' ? 1 : -1;
  const from = { x: d.mid.x - d.inward.x * sign * 1.2, y: d.mid.y - d.inward.y * sign * 1.2 };
  const to = { x: d.mid.x + d.inward.x * sign * 1.2, y: d.mid.y + d.inward.y * sign * 1.2 };
  return html`<g class=${`passage ${p.destination === 'IN' ? 'in' : 'out'}`} data-epc=${p.epc} data-passage=${p.destination} role="button" tabindex="0"
    aria-label=${`${p.epc} went ${p.destination} through ${d.name}: open`} onClick=${onOpen} onKeyDown=${onOpen}>
    <line x1=${from.x} y1=${-from.y} x2=${to.x} y2=${-to.y} style=${`stroke-width:${3 * px}`} />
    <circle r=${6 * px} cx="0" cy="0"><animateMotion ref=${motion} begin="indefinite" dur="1.2s" fill="freeze" path=${`M${from.x},${-from.y} L${to.x},${-to.y}`} /></circle>
    <title>${p.epc} ${p.destination} through ${d.name}</title></g>`;
}

/** A threshold: its line, a band on each side (IN green, OUT orange) with the side's name. */
function Door({ d, px, font, labels }) {
  const depth = 0.8;
  const band = (sign) => {
    const o = { x: d.inward.x * depth * sign, y: d.inward.y * depth * sign };
    return [d.a, d.b, { x: d.b.x + o.x, y: d.b.y + o.y }, { x: d.a.x + o.x, y: d.a.y + o.y }].map((p) => `${p.x},${-p.y}`).join(' ');
  };
  const label = (sign) => ({ x: d.mid.x + d.inward.x * depth * 0.5 * sign, y: -(d.mid.y + d.inward.y * depth * 0.5 * sign) });
  const li = label(1), lo = label(-1);
  // The name beyond the OUT band, away from the readers' own labels at the door's ends.
  const name = { x: d.mid.x - d.inward.x * (depth + 0.7), y: -(d.mid.y - d.inward.y * (depth + 0.7)) };
  return html`<g class="door-group" data-door=${d.name} data-testid="map-door">
    <polygon class="door-side in" points=${band(1)} />
    <polygon class="door-side out" points=${band(-1)} />
    <line class="door" x1=${d.a.x} y1=${-d.a.y} x2=${d.b.x} y2=${-d.b.y} style=${`stroke-width:${4 * px}`}><title>${d.name}</title></line>
    <text class="door-label" x=${li.x} y=${li.y} dy=".35em" text-anchor="middle" style=${`font-size:${font}px`}>IN</text>
    <text class="door-label" x=${lo.x} y=${lo.y} dy=".35em" text-anchor="middle" style=${`font-size:${font}px`}>OUT</text>
    ${labels && html`<text class="door-name" x=${name.x} y=${name.y} dy=".35em" text-anchor=${d.inward.x > 0 ? 'end' : 'start'} style=${`font-size:${font}px`}>${d.name}</text>`}
  </g>`;
}
