// Small pieces several screens share.
import { useEffect, useRef, useState } from 'preact/hooks';
import uPlot from 'uplot';
import { html } from '../html.js';
import { get, reach } from '../api.js';
import { useReach } from '../live.js';
import { age } from '../format.js';

export const has = (session, ...roles) => session.roles.includes('Admin') || roles.some((r) => session.roles.includes(r));

/**
 * A field path of the API (`body.zones.1.name`) in an operator's words:
 * "zones, row 2, name". Indexes count from 0 in the API and from 1 on screen.
 */
export function fieldLabel(path) {
  const parts = String(path ?? '').split('.').filter((p, i) => p !== '' && !(i === 0 && ['body', 'query', 'params'].includes(p)));
  // A number after a map (antenna id -> zone, reader -> configuration) is its key, not a row.
  return parts.map((p, i) => (/^\d+$/.test(p) && !MAPS.has(parts[i - 1]) ? `row ${Number(p) + 1}` : p)).join(', ') || 'the request';
}
const MAPS = new Set(['antennaZones', 'readerConfigurations', 'readers']);

/** A job named by its id in an answer of the API: its name (loaded), linked to its page. */
function JobLink({ id }) {
  const [name, setName] = useState(null);
  useEffect(() => { get(`/control/v1/jobs/show/${id}`).then((j) => setName(j.job?.name ?? null), () => undefined); }, [id]);
  return html`<a href=${`#/jobs?job=${id}`} data-testid="job-link">${name ? `job ${name}` : `job ${id.slice(0, 8)}`}</a>`;
}

const JOB_ID = /JobId=([0-9a-fA-F-]{36})/g;

/** An API message with every `JobId=<uuid>` turned into the job's name, linked. */
function Message({ text }) {
  const out = [];
  let last = 0;
  for (const m of String(text).matchAll(JOB_ID)) {
    out.push(text.slice(last, m.index), html`<${JobLink} id=${m[1]} />`);
    last = m.index + m[0].length;
  }
  out.push(text.slice(last));
  return html`<span>${out}</span>`;
}

/** What to do next, for the errors whose cause an operator can act on. */
function nextStep(error) {
  if (error.status === 0) return 'Check that the service is running and reachable; this page retries by itself.';
  if (error.status === 409 && /JobId=/.test(error.message)) return 'Stop that job first (Jobs), or start this one on other readers.';
  if (error.status === 403) return 'Your user lacks the role for this; an administrator can grant it.';
  if (error.status === 503) return 'The service is catching up; try again in a few seconds.';
  return null;
}

/**
 * An error in plain words: the API's message (jobs it names linked by name),
 * then every field error with the field in words, then what to do next.
 * Errors of fields shown elsewhere (on their row or input) are left to them: `except`.
 */
export function ErrorText({ error, except = () => false }) {
  if (!error) return null;
  const fields = (error.errors ?? []).filter((e) => !except(e));
  const step = nextStep(error);
  return html`<div class="error" role="alert"><${Message} text=${error.message} />${fields.length ? html`<ul>${fields.map((e) => html`<li><strong>${fieldLabel(e.path)}</strong>: ${e.reason}</li>`)}</ul>` : null}${step ? html`<div class="next-step">${step}</div>` : null}</div>`;
}

/** "Loading…" until a first answer, or the error that kept it from coming. */
export const Pending = ({ error }) => (error ? html`<${ErrorText} error=${error} />` : html`<p class="muted">Loading…</p>`);

/** Marks what a card shows as old while the service does not answer (or its last refresh failed). */
export function StaleNote({ error }) {
  const r = useReach();
  if (r.answering && !error) return null;
  const when = new Date(reach.lastAnswer).toLocaleTimeString();
  return html`<p class="stale-note" data-testid="stale">Not current: ${r.answering ? `the last refresh failed (${error.message})` : 'tagtrail is not answering'}. Shown as of ${when} (${age(new Date(reach.lastAnswer).toISOString())}).</p>`;
}

/** A small uPlot line chart; `series`: [{label, values}], x = seconds (epoch). */
export function Spark({ xs, series, height = 120, testid }) {
  const ref = useRef(null);
  const plot = useRef(null);
  useEffect(() => {
    const opts = {
      width: Math.max(200, ref.current.clientWidth), height,
      legend: { show: false }, cursor: { show: false },
      scales: { x: { time: true } },
      axes: [{ space: 60 }, { size: 40 }],
      series: [{}, ...series.map((s, i) => ({ label: s.label, stroke: ['#1b63d6', '#c27a00', '#1a8a4a'][i % 3], width: 1.5 }))],
    };
    plot.current = new uPlot(opts, [xs, ...series.map((s) => s.values)], ref.current);
    return () => plot.current.destroy();
  }, [series.length]);
  useEffect(() => {
    plot.current?.setData([xs, ...series.map((s) => s.values)]);
  });
  const colours = ['#1b63d6', '#c27a00', '#1a8a4a'];
  // data-end and data-sum: what the chart holds, for tests and tooling (the canvas is pixels).
  return html`<div data-testid=${testid} data-end=${xs[xs.length - 1] ?? ''}><div ref=${ref}></div>
    <div class="legend">${series.map((s, i) => html`<span class="legend-entry" data-testid=${`legend-${i}`} data-label=${s.label} data-sum=${s.values.reduce((a, v) => a + (v ?? 0), 0)}><span aria-hidden="true" style=${`color:${colours[i % 3]}`}>■</span> ${s.label}: ${recentMean(s.values)}</span>`)}</div></div>`;
}

/** Mean of the last 10 known values, to one decimal; a dash when none is known. */
function recentMean(values) {
  const known = values.slice(-10).filter((v) => v !== null && v !== undefined);
  return known.length ? (known.reduce((a, b) => a + b, 0) / known.length).toFixed(1) : '–';
}

/** Pages of a paged query, forward by marker and back by the markers kept. */
export function Pager({ page, markers, onPrev, onNext, busy }) {
  return html`<div class="row">
    <button onClick=${onPrev} disabled=${busy || markers.length === 0}>‹ Previous</button>
    <span class="muted">page ${markers.length + 1}</span>
    <button onClick=${onNext} disabled=${busy || !page?.nextPageMarker}>Next ›</button>
  </div>`;
}

/**
 * Windowing: of `count` rows `rowHeight` px high in the scrolling element
 * `ref`, the range in view plus `overscan` rows either side, and the heights
 * of the spacers standing in for the rows before and after it. So a table
 * of 10,000 rows keeps about a screenful of them in the DOM.
 */
export function useWindow(ref, count, rowHeight, overscan = 10) {
  const [view, setView] = useState({ top: 0, height: 800 });
  useEffect(() => {
    const el = ref.current;
    if (!el) return undefined;
    let frame = 0;
    // Scroll events coalesced to one re-render per frame.
    const update = () => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => setView({ top: el.scrollTop, height: el.clientHeight || 800 }));
    };
    update();
    el.addEventListener('scroll', update, { passive: true });
    const resize = new ResizeObserver(update);
    resize.observe(el);
    return () => { cancelAnimationFrame(frame); el.removeEventListener('scroll', update); resize.disconnect(); };
  }, [ref.current]);
  const first = Math.max(0, Math.min(count, Math.floor(view.top / rowHeight) - overscan));
  const last = Math.min(count, Math.ceil((view.top + view.height) / rowHeight) + overscan);
  return { first, last, before: first * rowHeight, after: (count - last) * rowHeight };
}

export const ROW_HEIGHT = 30; // px, fixed by .virtual rows in style.css

/**
 * A table that renders only the rows in view (useWindow). `row(r, index)`
 * renders one row (a <tr> without a height of its own); `scrollKey` changing
 * (a new page) scrolls back to the top.
 */
export function VirtualTable({ rows, head, row, testid, scrollKey, label }) {
  const ref = useRef(null);
  const w = useWindow(ref, rows.length, ROW_HEIGHT);
  useEffect(() => { if (ref.current) ref.current.scrollTop = 0; }, [scrollKey]);
  // A scrolling region keyboard users reach too (rows need not be focusable).
  return html`<div class="table-wrap virtual" ref=${ref} data-testid=${`${testid}-scroll`} tabindex="0" role="region" aria-label=${label ?? testid}>
    <table data-testid=${testid} data-rows=${rows.length}><thead>${head}</thead><tbody>
      ${w.before > 0 && html`<tr class="spacer" aria-hidden="true" style=${`height:${w.before}px`}><td colspan="99"></td></tr>`}
      ${rows.slice(w.first, w.last).map((r, i) => row(r, w.first + i))}
      ${w.after > 0 && html`<tr class="spacer" aria-hidden="true" style=${`height:${w.after}px`}><td colspan="99"></td></tr>`}
    </tbody></table></div>`;
}

/**
 * One console page of up to `size` rows gathered from server pages of at
 * most 1000 (the API's limit): `fetchPage(pageSize, marker)` answers
 * `{rows, next}`; the answer's `next` continues after the last row.
 */
export async function gatherPage(fetchPage, size, marker) {
  const rows = [];
  let next = marker;
  do {
    const p = await fetchPage(Math.min(1000, size - rows.length), next);
    rows.push(...p.rows);
    next = p.next;
  } while (next && rows.length < size);
  return { rows, next };
}

/**
 * A server-paged table: the page of up to `pageSize` rows that `fetchPage(size, marker)` serves (read again when
 * `deps` or the size change), the markers behind it for Previous, and the last load's error. Only the newest load
 * may set the page: an answer for an older filter or size that arrives late is dropped rather than shown over it.
 */
export function usePagedRows(fetchPage, pageSize, deps) {
  const [page, setPage] = useState(null);
  const [markers, setMarkers] = useState([]);
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  const newest = useRef(0);
  const load = async (marker, nextMarkers) => {
    const mine = ++newest.current;
    setBusy(true);
    try {
      const t0 = performance.now();
      const { rows, next } = await gatherPage(fetchPage, pageSize, marker);
      if (mine !== newest.current) return;
      setPage({ rows, nextPageMarker: next, ms: Math.round(performance.now() - t0), marker });
      setMarkers(nextMarkers);
      setError(null);
    } catch (err) {
      // The rows of the previous query are not the answer to this one: not left under its error.
      if (mine === newest.current) { setError(err); setPage(null); setMarkers([]); }
    } finally {
      if (mine === newest.current) setBusy(false);
    }
  };
  useEffect(() => { void load(undefined, []); }, [...deps, pageSize]);
  return {
    page, markers, error, busy,
    onPrev: () => load(markers[markers.length - 2], markers.slice(0, -1)),
    onNext: () => load(page.nextPageMarker, [...markers, page.nextPageMarker]),
  };
}

export const PAGE_SIZES = [50, 100, 500, 1000, 10000];
