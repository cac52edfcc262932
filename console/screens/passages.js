// Door passages (threshold transitions, GET /data/v1/items/show/transitions):
// the screen with every filter of that query, server pages, CSV download and
// the passages that happen while it is open; a THRESHOLD job's IN/OUT counts
// and latest passages (on its page in Jobs); an item's passages (its history).
import { useEffect, useState } from 'preact/hooks';
import { html } from '../html.js';
import { allPages, get } from '../api.js';
import { Time, confidence, num } from '../format.js';
import { useLive } from '../live.js';
import { ErrorText, Pager, usePagedRows, VirtualTable } from './common.js';
import { CsvDownload, EpcFormatField, PageSizeField, SelectField } from './query-fields.js';

const PATH = '/data/v1/items/show/transitions';
const FILTERS = [
  { name: 'threshold', label: 'Threshold (id or name)' },
  { name: 'jobId', label: 'Job id' },
  { name: 'epcPrefix', label: 'EPC prefix (hex)' },
  { name: 'fromTime', label: 'Crossed from', type: 'datetime-local' },
  { name: 'toTime', label: 'Crossed before', type: 'datetime-local' },
];
const COLUMNS = ['creationTime', 'epc', 'destination', 'thresholdId', 'thresholdName', 'jobId', 'confidence', 'transitionId'];
/** A job's page counts its passages from at most this many. */
const JOB_COUNT_LIMIT = 100_000;
const LATEST = 10;

const itemLink = (epc) => `#/item/${encodeURIComponent(epc)}`;

function queryOf(form) {
  const q = {};
  for (const k of ['threshold', 'jobId', 'epcPrefix', 'destination', 'epcFormat']) if (form[k]) q[k] = form[k].trim();
  for (const k of ['fromTime', 'toTime']) if (form[k]) q[k] = new Date(form[k]).toISOString();
  return q;
}

/** Whether a passage from the live stream is one the query `q` would list. */
export function passageMatches(t, q) {
  if (q.threshold && q.threshold !== String(t.thresholdId) && q.threshold !== t.thresholdName) return false;
  if (q.jobId && q.jobId !== t.jobId) return false;
  if (q.epcPrefix && !t.epc.toUpperCase().startsWith(q.epcPrefix.toUpperCase())) return false;
  if (q.destination && q.destination !== t.destination) return false;
  if (q.fromTime && t.creationTime < q.fromTime) return false;
  if (q.toTime && t.creationTime >= q.toTime) return false;
  return true;
}

export const Direction = ({ d }) => html`<span class=${d === 'IN' ? 'dir-in' : 'dir-out'}>${d === 'IN' ? '→ IN' : '← OUT'}</span>`;

/** One passage as a line: time, direction, door, EPC linked to its item. */
function PassageLine({ t }) {
  return html`<li data-epc=${t.epc} data-destination=${t.destination}><${Time} iso=${t.creationTime} /> <${Direction} d=${t.destination} /> through <strong>${t.thresholdName}</strong>: <a href=${itemLink(t.epc)}><code>${t.epc}</code></a></li>`;
}

export function Transitions({ params }) {
  const [form, setForm] = useState(Object.fromEntries([...params.entries()]));
  const [query, setQuery] = useState(queryOf(form));
  const [pageSize, setPageSize] = useState(100);
  const [fresh, setFresh] = useState([]);
  const [exportError, setExportError] = useState(null);
  const paged = usePagedRows(async (size, m) => {
    const p = await get(PATH, { ...query, pageSize: size, pageMarker: m });
    return { rows: p.transitions, next: p.nextPageMarker };
  }, pageSize, [query]);
  useEffect(() => setFresh([]), [query]);
  useLive((name, data) => {
    if (name !== 'transitions') return;
    const hits = data.transitions.filter((t) => passageMatches(t, query));
    if (hits.length) setFresh((f) => [...hits.reverse(), ...f].slice(0, 20));
  }, [query]);
  const set = (k) => (e) => setForm({ ...form, [k]: e.target.value });
  const submit = (e) => {
    e.preventDefault();
    setQuery(queryOf(form));
  };
  const pageOf = async (marker) => {
    const p = await get(PATH, { ...query, pageSize: 1000, pageMarker: marker });
    return { rows: p.transitions, next: p.nextPageMarker };
  };
  const { page } = paged;
  return html`<h1>Door passages</h1>
  <p class="muted">Which way items went through the doors (thresholds) watched by THRESHOLD jobs, oldest first.</p>
  <form class="filters" onSubmit=${submit} aria-label="Passage filters" data-testid="transitions-filters">
    ${FILTERS.map((f) => html`<label>${f.label}<input name=${f.name} type=${f.type ?? 'text'} value=${form[f.name] ?? ''} onInput=${set(f.name)} /></label>`)}
    <${SelectField} label="Direction" name="destination" value=${form.destination ?? ''} options=${[['', 'both'], ['IN', 'IN'], ['OUT', 'OUT']]} onChange=${(v) => setForm({ ...form, destination: v })} />
    <${EpcFormatField} value=${form.epcFormat} onChange=${(v) => setForm({ ...form, epcFormat: v })} />
    <${PageSizeField} value=${pageSize} onChange=${setPageSize} />
    <button class="primary" type="submit">Apply</button>
    <${CsvDownload} fileName=${() => `passages-${new Date().toISOString().slice(0, 19)}.csv`} columns=${COLUMNS} fetchPage=${pageOf} onError=${setExportError} />
  </form>
  <${ErrorText} error=${paged.error ?? exportError} />
  <section class="card" aria-live="polite"><h2>Just now <span class="muted" data-testid="transitions-live-count">${fresh.length ? `${fresh.length} new since this page was loaded` : 'none since this page was loaded'}</span></h2>
    ${fresh.length > 0 && html`<ul class="passages" data-testid="transitions-live">${fresh.map((t) => html`<${PassageLine} t=${t} />`)}</ul>`}</section>
  <div class="row"><${Pager} ...${paged} />
    <span class="muted" data-testid="transitions-page-info">${page ? `${page.rows.length} passages on this page · ${page.ms} ms` : ''}</span></div>
  <${VirtualTable} testid="transitions-table" rows=${page?.rows ?? []} scrollKey=${page}
    head=${html`<tr><th>Crossed</th><th>Direction</th><th>Threshold</th><th>EPC</th><th>Job</th><th class="num">Confidence</th></tr>`}
    row=${(t, n) => html`<tr key=${t.transitionId} data-row=${n} class="clickable" tabindex="0" onClick=${() => { location.hash = itemLink(t.epc); }} onKeyDown=${(e) => { if (e.key === 'Enter') location.hash = itemLink(t.epc); }}>
      <td><${Time} iso=${t.creationTime} /></td><td><${Direction} d=${t.destination} /></td><td>${t.thresholdName} <span class="muted">#${t.thresholdId}</span></td><td><code>${t.epc}</code></td><td><code class="muted">${t.jobId.slice(0, 8)}</code></td><td class="num">${confidence(t.confidence)}</td></tr>`} />`;
}

/** A THRESHOLD job's passages: IN and OUT counts over all of them, the latest ones, kept current from the live stream. */
export function JobPassages({ jobId }) {
  const [state, setState] = useState(null); // {in, out, capped, latest}
  const [error, setError] = useState(null);
  const load = () => allPages(PATH, { jobId }, 'transitions', { limit: JOB_COUNT_LIMIT }).then((all) => {
    setState({
      in: all.filter((t) => t.destination === 'IN').length,
      out: all.filter((t) => t.destination === 'OUT').length,
      capped: all.length >= JOB_COUNT_LIMIT,
      latest: all.slice(-LATEST).reverse(),
    });
    setError(null);
  }, setError);
  useEffect(() => { void load(); }, [jobId]);
  useLive((name, data) => {
    if (name === 'hello' || name === 'gap') return void load();
    if (name !== 'transitions') return;
    const mine = data.transitions.filter((t) => t.jobId === jobId);
    if (!mine.length) return;
    setState((s) => s && {
      ...s,
      in: s.in + mine.filter((t) => t.destination === 'IN').length,
      out: s.out + mine.filter((t) => t.destination === 'OUT').length,
      latest: [...mine.reverse(), ...s.latest].slice(0, LATEST),
    });
  }, [jobId]);
  if (error) return html`<${ErrorText} error=${error} />`;
  if (!state) return html`<p class="muted">Loading passages…</p>`;
  const more = state.capped ? '+' : '';
  return html`<section data-testid="job-passages"><h2>Door passages</h2>
    <p><span class="dir-in" data-testid="job-passages-in">IN ${num(state.in)}${more}</span> · <span class="dir-out" data-testid="job-passages-out">OUT ${num(state.out)}${more}</span> · <a href=${`#/transitions?jobId=${encodeURIComponent(jobId)}`}>all passages of this job</a></p>
    ${state.latest.length === 0 ? html`<p class="muted">No passage yet.</p>` : html`<ul class="passages" data-testid="job-passages-latest">${state.latest.map((t) => html`<${PassageLine} t=${t} />`)}</ul>`}
  </section>`;
}

/** An item's passages through doors, oldest first (the query takes a prefix: only the exact EPC is kept). */
export async function passagesOf(epc, limit) {
  return (await allPages(PATH, { epcPrefix: epc }, 'transitions', { limit })).filter((t) => t.epc === epc);
}
