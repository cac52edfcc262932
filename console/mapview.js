// The floor in metres: an SVG whose y axis points up (a world point (x, y)
// is drawn at (x, -y)), zones, readers at their placement, items as dots.
// Pan by dragging the background, zoom with the wheel or +/-, arrows pan,
// 0 fits. From CANVAS_AT items on, the dots are painted on a canvas above
// the SVG (thousands of SVG nodes cannot move smoothly). Also the editor
// surface: drawing rectangles (zone maps) and dragging readers (placement).
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { html } from './html.js';

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

/** Position of an item on the map: its x/y, else its zone's centre with a small spread from the EPC. */
export function placeItem(item, zoneCentres) {
  if (typeof item.x === 'number' && typeof item.y === 'number') return item;
  const c = zoneCentres.get(item.zone);
  if (!c) return null;
  let h = 0;
  for (let i = 0; i < item.epc.length; i++) h = (h * 31 + item.epc.charCodeAt(i)) | 0;
  return { ...item, x: c.x + ((h & 0xff) / 255 - 0.5) * 1.5, y: c.y + (((h >> 8) & 0xff) / 255 - 0.5) * 1.5 };
}

/**
 * props: zones [{name, floor, points}], readers [{name, placement}], items
 * Map epc -> {epc, x, y, zone}, layers {zones, readers, items, labels},
 * path [{x,y}], overlapping Set of zone indexes, draft {x0,y0,x1,y1},
 * onDraw(rect) (draw mode), onReaderMove(name, x, y), onItem(epc)
 */
export function MapView(props) {
  const { zones = [], readers = [], items, layers = { zones: true, readers: true, items: true, labels: true }, path, overlapping, onDraw, onReaderMove, onItem, testid = 'floor-map' } = props;
  const wrap = useRef(null);
  const canvas = useRef(null);
  const [size, setSize] = useState({ w: 800, h: 500 });
  const [view, setView] = useState(null); // {x0, yTop, w} in metres
  const [drawing, setDrawing] = useState(null);
  const drag = useRef(null);
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
  const onPointerDown = (e) => {
    const target = e.target;
    const readerName = target.dataset?.reader;
    e.currentTarget.setPointerCapture(e.pointerId);
    if (!view) setView(v);
    const at = toWorld(e.clientX, e.clientY);
    if (readerName && onReaderMove) drag.current = { kind: 'reader', name: readerName };
    else if (onDraw) drag.current = { kind: 'draw', from: at };
    else drag.current = { kind: 'pan', cx: e.clientX, cy: e.clientY, view: v };
  };
  const onPointerMove = (e) => {
    const d = drag.current;
    if (!d) return;
    const at = toWorld(e.clientX, e.clientY);
    if (d.kind === 'pan') setView({ ...d.view, x0: d.view.x0 - (e.clientX - d.cx) / pxPerM, yTop: d.view.yTop + (e.clientY - d.cy) / pxPerM });
    else if (d.kind === 'draw') setDrawing({ x0: d.from.x, y0: d.from.y, x1: at.x, y1: at.y });
    else if (d.kind === 'reader') onReaderMove(d.name, Math.round(at.x * 10) / 10, Math.round(at.y * 10) / 10);
  };
  const onPointerUp = () => {
    const d = drag.current;
    drag.current = null;
    if (d?.kind === 'draw' && drawing) {
      const r = { x0: Math.min(drawing.x0, drawing.x1), y0: Math.min(drawing.y0, drawing.y1), x1: Math.max(drawing.x0, drawing.x1), y1: Math.max(drawing.y0, drawing.y1) };
      const snap = (n) => Math.round(n * 10) / 10;
      if (r.x1 - r.x0 > 0.2 && r.y1 - r.y0 > 0.2) onDraw({ x0: snap(r.x0), y0: snap(r.y0), x1: snap(r.x1), y1: snap(r.y1) });
    }
    setDrawing(null);
  };

  const zoneCentres = useMemo(() => new Map(zones.map((z) => [z.name, centroid(z.points)])), [zones]);
  const placed = [];
  if (layers.items) for (const i of itemList) {
    const p = placeItem(i, zoneCentres);
    if (p) placed.push(p);
  }
  const useCanvas = placed.length >= CANVAS_AT;

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

  const dot = Math.max(0.12, 4 / pxPerM);
  const font = Math.max(0.3, 11 / pxPerM);
  const pts = (points) => outline(points).map((p) => `${p.x},${-p.y}`).join(' ');
  return html`<div class="map-wrap" ref=${wrap} data-testid=${testid} data-items=${placed.length} data-renderer=${useCanvas ? 'canvas' : 'svg'}>
    <svg viewBox=${`${v.x0} ${-v.yTop} ${v.w} ${vh}`} tabindex="0" role="img" aria-label="Floor map in metres; arrows pan, plus and minus zoom, 0 fits"
      onWheel=${onWheel} onKeyDown=${onKey} onPointerDown=${onPointerDown} onPointerMove=${onPointerMove} onPointerUp=${onPointerUp}>
      ${layers.zones && zones.map((z, i) => html`<polygon class=${`zone${overlapping?.has(i) ? ' overlap' : ''}`} points=${pts(z.points)} style=${`stroke-width:${1.5 / pxPerM}`}><title>${z.name}${z.floor ? ` (floor ${z.floor})` : ''}</title></polygon>`)}
      ${layers.zones && layers.labels && zones.map((z) => {
        const c = centroid(z.points);
        return html`<text class="zone-label" x=${c.x} y=${-c.y} text-anchor="middle" style=${`font-size:${font}px`}>${z.name}</text>`;
      })}
      ${drawing && html`<rect class="zone draft" x=${Math.min(drawing.x0, drawing.x1)} y=${-Math.max(drawing.y0, drawing.y1)} width=${Math.abs(drawing.x1 - drawing.x0)} height=${Math.abs(drawing.y1 - drawing.y0)} />`}
      ${path?.length > 1 && html`<polyline class="path" points=${path.map((p) => `${p.x},${-p.y}`).join(' ')} style=${`stroke-width:${2 / pxPerM}`} />`}
      ${path?.map((p, i) => html`<circle cx=${p.x} cy=${-p.y} r=${dot * 0.8} fill=${i === path.length - 1 ? '#c62828' : '#e57373'}><title>${p.label ?? ''}</title></circle>`)}
      ${!useCanvas && placed.map((p) => html`<circle key=${p.epc} class=${`item${p.zone === 'ABSENT' ? ' absent' : ''}`} cx=${p.x} cy=${-p.y} r=${dot} data-epc=${p.epc} onClick=${onItem ? () => onItem(p.epc) : undefined}><title>${p.epc} · ${p.zone}</title></circle>`)}
      ${layers.readers && readers.filter((r) => r.placement).map((r) => html`<g>
        <rect class="reader" data-reader=${r.name} x=${r.placement.x - dot * 1.5} y=${-r.placement.y - dot * 1.5} width=${dot * 3} height=${dot * 3} transform=${`rotate(${-(r.placement.yaw ?? 0)} ${r.placement.x} ${-r.placement.y})`}><title>${r.name}</title></rect>
        ${layers.labels && html`<text class="reader-label" x=${r.placement.x + dot * 2} y=${-r.placement.y - dot * 2} style=${`font-size:${font}px`}>${r.name}</text>`}
      </g>`)}
    </svg>
    ${useCanvas && html`<canvas ref=${canvas} aria-hidden="true"></canvas>`}
  </div>`;
}
