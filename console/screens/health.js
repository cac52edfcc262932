// Reader health: each reader's statuses and the health events, filtered and paged on the server.
import { useRef, useState } from 'preact/hooks';
import { html } from '../html.js';
import { api, get } from '../api.js';
import { Age, age, ConnectionPill, StatusPill, Time } from '../format.js';
import { useLive, useLoad } from '../live.js';
import { ErrorText, PAGE_SIZES, Pager, usePagedRows, VirtualTable } from './common.js';

const TYPES = ['CONNECTION', 'THROUGHPUT', 'CLOCK_SYNC', 'HARDWARE_FAULT', 'SOFTWARE_FAULT', 'LIFECYCLE', 'UNCLASSIFIED'];
const STATUSES = ['connectionStatus', 'throughputStatus', 'clockSyncStatus', 'hardwareStatus', 'softwareStatus'];

/** What the reader last said of its own temperature, with when it said it; a dash when it never did. */
function Temperature({ t }) {
  if (!t) return html`<span class="muted">–</span>`;
  return html`<span title=${`reported ${new Date(t.at).toLocaleString()}`}>${t.celsius.toFixed(1)} °C</span> <span class="muted">${age(t.at)}</span>`;
}

export function HealthScreen() {
  const [readers, readersError, reloadReaders] = useLoad(() => get('/health/v1/readers'));
  const [form, setForm] = useState({ readerNames: '', types: '', codes: '', fromTime: '', toTime: '', order: 'newest' });
  const [filter, setFilter] = useState({ newestFirst: true });
  const [pageSize, setPageSize] = useState(100);
  // Newest first, the first page is "what is happening now": it is read again as events arrive (at most every 2 s).
  const [fresh, setFresh] = useState(0);
  const lastRefresh = useRef(0);
  const paged = usePagedRows(async (size, m) => {
    const p = await api('POST', '/health/v1/events', { body: { ...filter, pageSize: size, ...(m ? { nextPageMarker: m } : {}) } });
    return { rows: p.events, next: p.nextPageMarker };
  }, pageSize, [filter, fresh]);
  useLive((name) => {
    if (name !== 'health') return;
    void reloadReaders();
    if (filter.newestFirst && paged.markers.length === 0 && Date.now() - lastRefresh.current > 2000) {
      lastRefresh.current = Date.now();
      setFresh((n) => n + 1);
    }
  }, [filter, paged.markers.length]);
  const apply = (e) => {
    e.preventDefault();
    const list = (s) => s.split(',').map((x) => x.trim()).filter(Boolean);
    const f = { newestFirst: form.order === 'newest' };
    if (form.readerNames) f.readerNames = list(form.readerNames);
    if (form.types) f.types = [form.types];
    if (form.codes) f.codes = list(form.codes);
    if (form.fromTime) f.fromTime = new Date(form.fromTime).toISOString();
    if (form.toTime) f.toTime = new Date(form.toTime).toISOString();
    setFilter(f);
  };
  const set = (k) => (e) => setForm({ ...form, [k]: e.target.value });
  return html`<h1>Reader health</h1>
  <${ErrorText} error=${readersError} />
  <div class="table-wrap" tabindex="0" role="region" aria-label="Reader statuses" style="max-height:40vh"><table data-testid="reader-health"><thead><tr><th>Reader</th><th>State</th><th>Last check-in</th>${STATUSES.map((s) => html`<th>${s.replace('Status', '')}</th>`)}<th>Temperature</th><th>Versions</th><th>Last reboot</th></tr></thead>
  <tbody>${(readers ?? []).map((r) => html`<tr><td>${r.readerName}</td><td><${StatusPill} status=${r.state} /></td><td><${Age} iso=${r.lastCheckin} /></td>
    ${STATUSES.map((s) => html`<td>${s === 'connectionStatus' ? html`<${ConnectionPill} reader=${r} />` : html`<${StatusPill} status=${r[s]?.status} />`}${r[s]?.code ? html` <code>${r[s].code}</code>` : ''}</td>`)}
    <td data-testid="temperature"><${Temperature} t=${r.temperature} /></td>
    <td class="muted">${r.version ? Object.entries(r.version).map(([k, v]) => `${k} ${v}`).join(', ') : '–'}</td><td><${Time} iso=${r.lastReboot} />${r.lastRebootReason ? ` (${r.lastRebootReason})` : ''}</td></tr>`)}</tbody></table></div>
  <h2>Events</h2>
  <form class="filters" onSubmit=${apply}>
    <label>Readers<input value=${form.readerNames} onInput=${set('readerNames')} placeholder="comma-separated" /></label>
    <label>Type<select value=${form.types} onChange=${set('types')}><option value="">any</option>${TYPES.map((t) => html`<option>${t}</option>`)}</select></label>
    <label>Codes<input value=${form.codes} onInput=${set('codes')} placeholder="comma-separated" /></label>
    <label>From<input type="datetime-local" value=${form.fromTime} onInput=${set('fromTime')} /></label>
    <label>To<input type="datetime-local" value=${form.toTime} onInput=${set('toTime')} /></label>
    <label>Order<select name="order" value=${form.order} onChange=${set('order')}><option value="newest">newest first (live)</option><option value="oldest">oldest first</option></select></label>
    <label>Page size<select name="pageSize" value=${pageSize} onChange=${(e) => setPageSize(Number(e.target.value))}>${PAGE_SIZES.map((n) => html`<option value=${n}>${n.toLocaleString()}</option>`)}</select></label>
    <button class="primary" type="submit">Apply</button>
  </form>
  <${ErrorText} error=${paged.error} />
  <${Pager} ...${paged} />
  <${VirtualTable} testid="health-events" rows=${paged.page?.rows ?? []} scrollKey=${paged.page}
    head=${html`<tr><th>Time</th><th>Reader</th><th>Type</th><th>Code</th><th>Details</th></tr>`}
    row=${(e, n) => html`<tr data-row=${n}><td><${Time} iso=${e.eventTime} /></td><td>${e.readerName}</td><td>${e.type}</td><td><code>${e.code}</code></td><td class="muted" title=${JSON.stringify(e.args)}>${JSON.stringify(e.args)}</td></tr>`} />`;
}
