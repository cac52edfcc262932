// Items: a server-paged table with every filter of the items query and
// epcFormat, CSV export of the filtered set; an item's page with its
// history (zone changes and door passages) as a timeline and its path on the floor map.
import { useEffect, useRef, useState } from 'preact/hooks';
import { html } from '../html.js';
import { allPages, get } from '../api.js';
import { Time, confidence, metres, num } from '../format.js';
import { MapView } from '../mapview.js';
import { ErrorText, PAGE_SIZES, Pager, has, usePagedRows, useWindow, VirtualTable } from './common.js';
import { currentZoneMap, readersOf, thresholdsOf } from './floor-data.js';
import { Direction, passagesOf } from './passages.js';

/** Text filters; facility, zones and job are chosen from what exists (pickers below). */
const FILTERS = [
  { name: 'epcPrefix', label: 'EPC prefix (hex)' },
  { name: 'fromTime', label: 'Modified from', type: 'datetime-local' },
  { name: 'toTime', label: 'Modified before', type: 'datetime-local' },
];
/** Every parameter the console puts in the URL and the items query (the query ignores presenceConfidence: not offered). */
const QUERY_KEYS = ['epcPrefix', 'facility', 'zoneNames', 'jobId', 'fromTime', 'toTime', 'epcFormat'];
const FORMATS = ['', 'PURE_ID', 'TAG', 'RAW', 'UPC12', 'DEFAULT'];
/** Formats in which the query leaves out EPCs that do not decode. */
const DECODING = new Set(['PURE_ID', 'TAG', 'UPC12']);
const COLUMNS = ['epc', 'tagId', 'zone', 'facility', 'floor', 'xLocation', 'yLocation', 'presenceConfidence', 'jobId', 'lastModifiedTime'];
/** Columns of the table, each sortable (within the page: pages come from the server in EPC order). */
const SHOWN = [
  { key: 'epc', label: 'EPC' }, { key: 'zone', label: 'Zone' }, { key: 'facility', label: 'Facility' }, { key: 'floor', label: 'Floor' },
  { key: 'xLocation', label: 'x (m)', num: true }, { key: 'yLocation', label: 'y (m)', num: true }, { key: 'lastModifiedTime', label: 'Last modified' },
];
/** Items counted for totals and pickers at most (a walk of the pages). */
const COUNT_LIMIT = 50_000;

/** The query of the URL's parameters: only those the items query honours; local times already as ISO instants. */
const queryOf = (params) => Object.fromEntries(QUERY_KEYS.map((k) => [k, params.get(k)]).filter(([, v]) => v));

/** The URL of a form: local datetime inputs turned into instants, empty fields left out. */
function hashOf(form) {
  const q = new URLSearchParams();
  for (const k of [...QUERY_KEYS, 'sort', 'dir']) {
    const v = form[k];
    if (!v) continue;
    q.set(k, FILTERS.find((f) => f.name === k)?.type === 'datetime-local' ? new Date(v).toISOString() : v);
  }
  return `#/items${q.size ? `?${q}` : ''}`;
}

/** An ISO instant as the value of a datetime-local input (the browser's zone). */
const localInput = (iso) => {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '' : new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
};
const formOf = (params) => Object.fromEntries([...params.entries()].map(([k, v]) => [k, FILTERS.find((f) => f.name === k)?.type === 'datetime-local' ? localInput(v) : v]));

const csvCell = (v) => (v === null || v === undefined ? '' : /[",\n]/.test(String(v)) ? `"${String(v).replace(/"/g, '""')}"` : String(v));

/** Items matching `query`, counted over at most COUNT_LIMIT: `{n, more}`. */
async function countItems(query) {
  let n = 0;
  await allPages('/data/v1/items/show', query, 'items', { limit: COUNT_LIMIT, onPage: (total) => { n = total; } });
  return { n, more: n >= COUNT_LIMIT };
}

/**
 * The total of the filtered items and, in a format that leaves out EPCs that
 * do not decode, how many are left out (the same query in raw hex, less what
 * the format shows).
 */
function useTotals(query) {
  const [totals, setTotals] = useState(null);
  useEffect(() => {
    let gone = false;
    setTotals(null);
    (async () => {
      const { epcFormat, ...raw } = query;
      const all = await countItems(raw);
      const shown = DECODING.has(epcFormat) ? await countItems(query) : all;
      if (!gone) setTotals({ n: shown.n, more: shown.more || all.more, hidden: all.n - shown.n });
    })().catch(() => undefined);
    return () => { gone = true; };
  }, [JSON.stringify(query)]);
  return totals;
}

/** What the pickers offer: facilities, zones and jobs of the items (and of the configuration, where the user may read it). */
function usePickerOptions(session) {
  const [options, setOptions] = useState({ facilities: [], zones: [], jobs: [] });
  useEffect(() => {
    (async () => {
      const facilities = new Set();
      const zones = new Set();
      const jobs = new Map();
      for (const i of await allPages('/data/v1/items/show', {}, 'items', { limit: COUNT_LIMIT })) {
        if (i.facility) facilities.add(i.facility);
        if (i.zone) zones.add(i.zone);
        if (i.jobId) jobs.set(i.jobId, null);
      }
      if (has(session, 'ConfigManager', 'JobRunner')) for (const f of await get('/configuration/v1/facilities/show').catch(() => [])) facilities.add(f.name);
      if (has(session, 'JobRunner')) for (const j of await get('/control/v1/jobs/show', { latest: 100 }).catch(() => [])) jobs.set(j.id, j.job?.name ?? null);
      const sorted = (set) => [...set].sort((a, b) => a.localeCompare(b));
      setOptions({ facilities: sorted(facilities), zones: sorted(zones), jobs: [...jobs].map(([id, name]) => ({ id, name })) });
    })().catch(() => undefined);
  }, []);
  return options;
}

const isHexPrefix = (p) => /^[0-9A-Fa-f]*$/.test(p);

const compare = (key, dir) => (a, b) => {
  const x = a[key];
  const y = b[key];
  const c = x === y ? 0 : x === null || x === undefined ? 1 : y === null || y === undefined ? -1 : typeof x === 'number' ? x - y : String(x).localeCompare(String(y));
  return dir === 'desc' ? -c : c;
};

export function Items({ params, session }) {
  const query = queryOf(params);
  const queryKey = JSON.stringify(query);
  const [form, setForm] = useState(formOf(params));
  useEffect(() => setForm(formOf(params)), [params.toString()]);
  const [pageSize, setPageSize] = useState(100);
  const [exporting, setExporting] = useState(null);
  const [exportError, setExportError] = useState(null);
  const options = usePickerOptions(session);
  const totals = useTotals(query);
  // Pages above the API's 1000 are gathered from several server pages; the table renders only the rows in view.
  const paged = usePagedRows(async (size, m) => {
    const p = await get('/data/v1/items/show', { ...query, pageSize: size, pageMarker: m });
    return { rows: p.items, next: p.nextPageMarker };
  }, pageSize, [queryKey]);
  const { page } = paged;
  const sort = params.get('sort');
  const dir = params.get('dir') === 'desc' ? 'desc' : 'asc';
  // A prefix in the URL the service will refuse: the rows still shown belong to the query before it, not to this one.
  const refusedPrefix = query.epcPrefix !== undefined && !isHexPrefix(query.epcPrefix);
  const rows = page && !refusedPrefix ? (sort ? [...page.rows].sort(compare(sort, dir)) : page.rows) : [];
  // Filters go to the URL (shareable, kept on reload); the URL drives the query.
  const submit = (e) => {
    e.preventDefault();
    location.hash = hashOf(form);
  };
  const sortBy = (key) => { location.hash = hashOf({ ...Object.fromEntries(params), sort: key, dir: sort === key && dir === 'asc' ? 'desc' : 'asc' }); };
  const set = (k) => (e) => setForm({ ...form, [k]: e.target.value });
  const epcProblem = form.epcPrefix && !isHexPrefix(form.epcPrefix) ? 'only hexadecimal digits 0-9, A-F' : null;
  const fieldError = (name) => (name === 'epcPrefix' && epcProblem) || paged.error?.errors?.find((e) => e.path === `query.${name}`)?.reason;
  const exportCsv = async () => {
    const out = [COLUMNS.join(',')];
    let marker;
    let n = 0;
    const cancel = { stop: false };
    setExporting({ n: 0, cancel });
    setExportError(null);
    try {
      do {
        const p = await get('/data/v1/items/show', { ...query, pageSize: 1000, pageMarker: marker });
        for (const i of p.items) out.push(COLUMNS.map((c) => csvCell(i[c])).join(','));
        n += p.items.length;
        setExporting({ n, cancel });
        marker = p.nextPageMarker;
      } while (marker && !cancel.stop);
      const a = document.createElement('a');
      a.href = URL.createObjectURL(new Blob([out.join('\n') + '\n'], { type: 'text/csv' }));
      a.download = `items-${new Date().toISOString().slice(0, 19)}.csv`;
      a.click();
      setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
    } catch (err) {
      setExportError(err);
    } finally {
      setExporting(null);
    }
  };
  const zones = (form.zoneNames ?? '').split(',').filter(Boolean);
  const field = (name, label, control) => html`<label>${label}${control}${fieldError(name) ? html`<span class="field-error" id=${`${name}-error`}>${fieldError(name)}</span>` : ''}</label>`;
  return html`<h1>Items</h1>
  <form class="filters" onSubmit=${submit} aria-label="Item filters">
    ${FILTERS.map((f) => field(f.name, f.label, html`<input name=${f.name} type=${f.type ?? 'text'} value=${form[f.name] ?? ''} onInput=${set(f.name)} aria-invalid=${fieldError(f.name) ? 'true' : undefined} aria-describedby=${fieldError(f.name) ? `${f.name}-error` : undefined} />`))}
    ${field('facility', 'Facility', html`<select name="facility" value=${form.facility ?? ''} onChange=${set('facility')}><option value="">any</option>${[...new Set([...options.facilities, ...(form.facility ? [form.facility] : [])])].map((f) => html`<option value=${f}>${f}</option>`)}</select>`)}
    ${field('zoneNames', 'Zones', html`<select name="zoneNames" multiple size="3" onChange=${(e) => setForm({ ...form, zoneNames: [...e.target.selectedOptions].map((o) => o.value).join(',') })}>${[...new Set([...options.zones, ...zones])].map((z) => html`<option value=${z} selected=${zones.includes(z)}>${z}</option>`)}</select>`)}
    ${field('jobId', 'Job', html`<select name="jobId" value=${form.jobId ?? ''} onChange=${set('jobId')}><option value="">any</option>${[...options.jobs, ...(form.jobId && !options.jobs.some((j) => j.id === form.jobId) ? [{ id: form.jobId, name: null }] : [])].map((j) => html`<option value=${j.id}>${j.name ? `${j.name} (${j.id.slice(0, 8)})` : j.id}</option>`)}</select>`)}
    ${field('epcFormat', 'EPC format', html`<select name="epcFormat" value=${form.epcFormat ?? ''} onChange=${set('epcFormat')}>${FORMATS.map((v) => html`<option value=${v}>${v || 'raw hex'}</option>`)}</select>`)}
    <label>Page size<select name="pageSize" value=${pageSize} onChange=${(e) => setPageSize(Number(e.target.value))}>${PAGE_SIZES.map((n) => html`<option value=${n}>${n.toLocaleString()}</option>`)}</select></label>
    <button class="primary" type="submit" disabled=${!!epcProblem}>Apply</button>
    <a href="#/items">Clear filters</a>
    <button type="button" onClick=${exportCsv} disabled=${!!exporting}>Export CSV</button>
    ${exporting && html`<span>${exporting.n} rows… <button type="button" onClick=${() => { exporting.cancel.stop = true; }}>Stop</button></span>`}
  </form>
  <${ErrorText} error=${paged.error ?? exportError} except=${(e) => QUERY_KEYS.some((k) => e.path === `query.${k}`)} />
  <div class="row"><${Pager} ...${paged} />
    <span class="muted" data-testid="items-page-info">${page ? `${page.rows.length} items on this page · ${page.ms} ms` : ''}</span>
    <span data-testid="items-total">${totals ? `${totals.more ? 'more than ' : ''}${num(totals.n)} item${totals.n === 1 ? '' : 's'} in all` : page ? 'counting…' : ''}</span>
    ${totals?.hidden > 0 ? html`<span class="stale-note" data-testid="items-hidden">${num(totals.hidden)} item${totals.hidden === 1 ? '' : 's'} cannot be shown in this format (their EPCs do not decode as ${query.epcFormat}); choose raw hex to see them.</span>` : ''}</div>
  ${sort ? html`<p class="muted">Sorted by ${SHOWN.find((c) => c.key === sort)?.label ?? sort} within this page; pages come in EPC order.</p>` : ''}
  <${VirtualTable} testid="items-table" rows=${rows} scrollKey=${page}
    head=${html`<tr>${SHOWN.map((c) => html`<th class=${c.num ? 'num' : ''} aria-sort=${sort === c.key ? (dir === 'asc' ? 'ascending' : 'descending') : undefined}><button type="button" class="sort" onClick=${() => sortBy(c.key)}>${c.label}${sort === c.key ? (dir === 'asc' ? ' ▲' : ' ▼') : ''}</button></th>`)}<th>Presence</th></tr>`}
    row=${(i, n) => html`<tr key=${i.epc} data-row=${n} class="clickable" tabindex="0" onClick=${() => { location.hash = `#/item/${encodeURIComponent(i.epc)}`; }} onKeyDown=${(e) => { if (e.key === 'Enter') location.hash = `#/item/${encodeURIComponent(i.epc)}`; }}>
    <td><code>${i.epc}</code></td><td>${i.zone}</td><td>${i.facility ?? '–'}</td><td>${i.floor ?? '–'}</td><td class="num">${metres(i.xLocation)}</td><td class="num">${metres(i.yLocation)}</td><td><${Time} iso=${i.lastModifiedTime} /></td><td>${i.presenceConfidence}</td></tr>`} />`;
}

export function ItemPage({ epc }) {
  const [item, setItem] = useState(null);
  const [history, setHistory] = useState(null);
  const [floor, setFloor] = useState(null); // {facility, zoneMap, readers, thresholds}
  const [error, setError] = useState(null);
  useEffect(() => {
    (async () => {
      // Item and history queries take a hex prefix; keep the exact EPC only.
      const items = (await get('/data/v1/items/show', { epcPrefix: epc, pageSize: 10 })).items.filter((i) => i.epc === epc);
      const records = [];
      let marker;
      do {
        const p = await get('/data/v1/items/show/history', { epcPrefix: epc, pageSize: 1000, pageMarker: marker });
        records.push(...p.history.filter((h) => h.epc === epc));
        marker = p.nextPageMarker;
      } while (marker && records.length < 10_000);
      // Door passages join the zone changes in one timeline, by time (both ISO 8601 UTC, so they sort as text).
      const passages = await passagesOf(epc, 10_000);
      const merged = [...records.map((h) => ({ ...h, at: h.observationTime })), ...passages.map((t) => ({ ...t, passage: true, at: t.creationTime }))]
        .sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
      setItem(items[0] ?? null);
      setHistory(merged);
      const facility = items[0]?.facility ?? records[records.length - 1]?.toFacility;
      // The doors it went through are drawn on its path's map (through their readers, which are not drawn).
      if (facility) setFloor({ facility, zoneMap: await currentZoneMap(facility), readers: await readersOf(facility), thresholds: await thresholdsOf(facility) });
    })().catch(setError);
  }, [epc]);
  const path = [];
  for (const h of history ?? []) if (!h.passage && typeof h.toX === 'number' && typeof h.toY === 'number') path.push({ x: h.toX, y: h.toY, label: `${h.toZone} at ${h.observationTime}` });
  if (item && typeof item.xLocation === 'number') path.push({ x: item.xLocation, y: item.yLocation, label: `now: ${item.zone}` });
  return html`<h1>Item <code>${epc}</code></h1>
  <p><a href="#/items">‹ Items</a>${floor && html` · <a data-testid="item-on-map" href=${`#/map?facility=${encodeURIComponent(floor.facility)}&epc=${encodeURIComponent(epc)}`}>on the floor map</a>`}</p>
  <${ErrorText} error=${error} />
  ${item && html`<p data-testid="item-now">Now in <strong>${item.zone}</strong> (${item.facility ?? '–'}${item.floor ? `, floor ${item.floor}` : ''}) at ${metres(item.xLocation)}, ${metres(item.yLocation)} m · tag id ${item.tagId || '–'} · last modified <${Time} iso=${item.lastModifiedTime} /></p>`}
  <div class="editor">
    <section><h2>History</h2>
      ${history === null ? html`<p class="muted">Loading…</p>` : history.length === 0 ? html`<p class="muted">No zone transition or door passage recorded.</p>` : html`<${Timeline} records=${history} />`}
    </section>
    <section><h2>Path on the floor</h2>
      <${MapView} testid="item-map" zones=${floor?.zoneMap?.zones ?? []} readers=${floor?.readers ?? []} thresholds=${floor?.thresholds ?? []} items=${null} path=${path} layers=${{ zones: true, labels: true, readers: false, items: false, doors: true }} />
    </section>
  </div>`;
}

/** An item's history and door passages, newest first, rendering only the records in view (up to 10,000 of each are loaded). */
function Timeline({ records }) {
  const ref = useRef(null);
  const newest = [...records].reverse();
  const w = useWindow(ref, newest.length, 30);
  return html`<div class="timeline-wrap" ref=${ref} data-testid="item-history-scroll"><ol class="timeline" data-testid="item-history" data-rows=${newest.length}>
    ${w.before > 0 && html`<li class="spacer" aria-hidden="true" style=${`height:${w.before}px`}></li>`}
    ${newest.slice(w.first, w.last).map((h, i) => h.passage
      ? html`<li data-row=${w.first + i} class="passage-record" data-passage=${h.destination}><${Time} iso=${h.creationTime} />: <${Direction} d=${h.destination} /> through door <strong>${h.thresholdName}</strong> <span class="muted">confidence ${confidence(h.confidence)}</span></li>`
      : html`<li data-row=${w.first + i}><${Time} iso=${h.observationTime} />: ${h.fromZone} → <strong>${h.toZone}</strong>${h.toFacility !== h.fromFacility ? html` <span class="muted">(${h.fromFacility ?? '–'} → ${h.toFacility ?? '–'})</span>` : ''}${typeof h.toX === 'number' ? html` <span class="muted">at ${metres(h.toX)}, ${metres(h.toY)} m</span>` : ''}</li>`)}
    ${w.after > 0 && html`<li class="spacer" aria-hidden="true" style=${`height:${w.after}px`}></li>`}
  </ol></div>`;
}
