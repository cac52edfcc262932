// Items: a server-paged table with every filter of the items query and
// epcFormat, CSV export of the filtered set; an item's page with its
// history (zone changes and door passages) as a timeline and its path on the floor map.
import { useEffect, useRef, useState } from 'preact/hooks';
import { html } from '../html.js';
import { get } from '../api.js';
import { Time, confidence, metres } from '../format.js';
import { MapView } from '../mapview.js';
import { ErrorText, PAGE_SIZES, Pager, usePagedRows, useWindow, VirtualTable } from './common.js';
import { currentZoneMap, readersOf, thresholdsOf } from './floor-data.js';
import { Direction, passagesOf } from './passages.js';

const FILTERS = [
  { name: 'epcPrefix', label: 'EPC prefix (hex)' },
  { name: 'jobId', label: 'Job id' },
  { name: 'zoneNames', label: 'Zones (comma-separated)' },
  { name: 'facility', label: 'Facility' },
  { name: 'fromTime', label: 'Modified from', type: 'datetime-local' },
  { name: 'toTime', label: 'Modified before', type: 'datetime-local' },
];
const FORMATS = ['', 'PURE_ID', 'TAG', 'RAW', 'UPC12', 'DEFAULT'];
const COLUMNS = ['epc', 'tagId', 'zone', 'facility', 'floor', 'xLocation', 'yLocation', 'presenceConfidence', 'jobId', 'lastModifiedTime'];

/** The query parameters of the form: empty fields left out, local times as ISO instants. */
function queryOf(form) {
  const q = {};
  for (const f of [...FILTERS, { name: 'epcFormat' }, { name: 'presenceConfidence' }]) {
    const v = form[f.name];
    if (!v) continue;
    q[f.name] = f.type === 'datetime-local' ? new Date(v).toISOString() : v;
  }
  return q;
}

const csvCell = (v) => (v === null || v === undefined ? '' : /[",\n]/.test(String(v)) ? `"${String(v).replace(/"/g, '""')}"` : String(v));

export function Items({ params }) {
  const [form, setForm] = useState(Object.fromEntries([...params.entries()]));
  const [query, setQuery] = useState(queryOf(form));
  const [pageSize, setPageSize] = useState(100);
  const [exporting, setExporting] = useState(null);
  const [exportError, setExportError] = useState(null);
  // Pages above the API's 1000 are gathered from several server pages; the table renders only the rows in view.
  const paged = usePagedRows(async (size, m) => {
    const p = await get('/data/v1/items/show', { ...query, pageSize: size, pageMarker: m });
    return { rows: p.items, next: p.nextPageMarker };
  }, pageSize, [query]);
  const { page } = paged;
  const submit = (e) => {
    e.preventDefault();
    setQuery(queryOf(form));
  };
  const set = (k) => (e) => setForm({ ...form, [k]: e.target.value });
  const exportCsv = async () => {
    const rows = [COLUMNS.join(',')];
    let marker;
    let n = 0;
    const cancel = { stop: false };
    setExporting({ n: 0, cancel });
    setExportError(null);
    try {
      do {
        const p = await get('/data/v1/items/show', { ...query, pageSize: 1000, pageMarker: marker });
        for (const i of p.items) rows.push(COLUMNS.map((c) => csvCell(i[c])).join(','));
        n += p.items.length;
        setExporting({ n, cancel });
        marker = p.nextPageMarker;
      } while (marker && !cancel.stop);
      const a = document.createElement('a');
      a.href = URL.createObjectURL(new Blob([rows.join('\n') + '\n'], { type: 'text/csv' }));
      a.download = `items-${new Date().toISOString().slice(0, 19)}.csv`;
      a.click();
      setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
    } catch (err) {
      setExportError(err);
    } finally {
      setExporting(null);
    }
  };
  return html`<h1>Items</h1>
  <form class="filters" onSubmit=${submit} aria-label="Item filters">
    ${FILTERS.map((f) => html`<label>${f.label}<input name=${f.name} type=${f.type ?? 'text'} value=${form[f.name] ?? ''} onInput=${set(f.name)} /></label>`)}
    <label>Presence<select name="presenceConfidence" value=${form.presenceConfidence ?? ''} onChange=${set('presenceConfidence')}><option value="">any</option><option>HIGH</option><option>LOW</option></select></label>
    <label>EPC format<select name="epcFormat" value=${form.epcFormat ?? ''} onChange=${set('epcFormat')}>${FORMATS.map((v) => html`<option value=${v}>${v || 'raw hex'}</option>`)}</select></label>
    <label>Page size<select name="pageSize" value=${pageSize} onChange=${(e) => setPageSize(Number(e.target.value))}>${PAGE_SIZES.map((n) => html`<option value=${n}>${n.toLocaleString()}</option>`)}</select></label>
    <button class="primary" type="submit">Apply</button>
    <button type="button" onClick=${exportCsv} disabled=${!!exporting}>Export CSV</button>
    ${exporting && html`<span>${exporting.n} rows… <button type="button" onClick=${() => { exporting.cancel.stop = true; }}>Stop</button></span>`}
  </form>
  <${ErrorText} error=${paged.error ?? exportError} />
  <div class="row"><${Pager} ...${paged} />
    <span class="muted" data-testid="items-page-info">${page ? `${page.rows.length} items on this page · ${page.ms} ms` : ''}</span></div>
  <${VirtualTable} testid="items-table" rows=${page?.rows ?? []} scrollKey=${page}
    head=${html`<tr><th>EPC</th><th>Zone</th><th>Facility</th><th>Floor</th><th class="num">x (m)</th><th class="num">y (m)</th><th>Presence</th><th>Last modified</th></tr>`}
    row=${(i, n) => html`<tr key=${i.epc} data-row=${n} class="clickable" tabindex="0" onClick=${() => { location.hash = `#/item/${encodeURIComponent(i.epc)}`; }} onKeyDown=${(e) => { if (e.key === 'Enter') location.hash = `#/item/${encodeURIComponent(i.epc)}`; }}>
    <td><code>${i.epc}</code></td><td>${i.zone}</td><td>${i.facility ?? '–'}</td><td>${i.floor ?? '–'}</td><td class="num">${metres(i.xLocation)}</td><td class="num">${metres(i.yLocation)}</td><td>${i.presenceConfidence}</td><td><${Time} iso=${i.lastModifiedTime} /></td></tr>`} />`;
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
