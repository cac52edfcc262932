// Overview: readers by state with the age of their last check-in, running
// jobs with live counters, items by zone, rates, and the health of the
// service's dependencies and read models from /healthz.
import { useEffect, useRef, useState } from 'preact/hooks';
import { html } from '../html.js';
import { get, healthz, allPages } from '../api.js';
import { Age, ConnectionPill, StatusPill, num, Time } from '../format.js';
import { useLive, useLoad, useTick } from '../live.js';
import { Pending, Spark, StaleNote, has } from './common.js';

const ITEM_LIMIT = 50_000;
/** The rate chart's window, in seconds. */
const RATE_SECONDS = 300;

/**
 * Observations per second of the running jobs, sampled from their counters
 * while the overview is open ({t: seconds, v}); the only rate without a
 * per-second index on the server, so it starts when the page does.
 */
const observationSamples = [];
function recordObservations(v) {
  const t = Date.now() / 1000;
  observationSamples.push({ t, v });
  while (observationSamples.length && observationSamples[0].t < t - RATE_SECONDS) observationSamples.shift();
}

function Readers() {
  const [readers, error, reload] = useLoad(() => get('/health/v1/readers'));
  useTick(1000);
  useEffect(() => {
    const t = setInterval(reload, 5000);
    return () => clearInterval(t);
  }, []);
  useLive((name) => { if (name === 'health') void reload(); });
  if (!readers) return html`<${Pending} error=${error} />`;
  const byState = {};
  for (const r of readers) byState[r.state] = (byState[r.state] ?? 0) + 1;
  return html`<div>
    <${StaleNote} error=${error} />
    <p>${Object.entries(byState).map(([s, n]) => html`<span style="margin-right:.6rem"><${StatusPill} status=${s} /> ${n}</span>`)}${readers.length === 0 ? html`<span class="muted">No reader defined.</span>` : ''}</p>
    <table data-testid="readers-table"><thead><tr><th>Reader</th><th>State</th><th>Connection</th><th>Last check-in</th></tr></thead>
    <tbody>${readers.map((r) => html`<tr><td>${r.readerName}</td><td><${StatusPill} status=${r.state} /></td><td><${ConnectionPill} reader=${r} /></td><td><${Age} iso=${r.lastCheckin} /></td></tr>`)}</tbody></table>
  </div>`;
}

function RunningJobs() {
  const [jobs, error, reload] = useLoad(() => get('/control/v1/jobs/show', { status: 'WAITING,INITIALIZING,STARTING,RUNNING,RESTARTING_RDE,STOPPING', latest: 100 }));
  const [stats, setStats] = useState({});
  const previous = useRef({});
  useLive((name) => { if (name === 'job') void reload(); });
  useEffect(() => {
    if (!jobs?.length) return undefined;
    const poll = async () => {
      const next = {};
      for (const j of jobs) {
        const s = await get(`/control/v1/jobs/stats/${j.id}`).catch(() => null);
        if (!s) continue;
        const prev = previous.current[j.id];
        const now = Date.now();
        s.rate = prev ? ((s.observations - prev.observations) * 1000) / (now - prev.at) : null;
        previous.current[j.id] = { observations: s.observations, at: now };
        next[j.id] = s;
      }
      const known = Object.values(next).filter((s) => s.rate != null);
      if (known.length) recordObservations(known.reduce((sum, s) => sum + s.rate, 0));
      setStats(next);
    };
    void poll();
    const t = setInterval(poll, 2000);
    return () => clearInterval(t);
  }, [jobs]);
  if (!jobs) return html`<${Pending} error=${error} />`;
  if (jobs.length === 0) return html`<div><${StaleNote} error=${error} /><p class="muted">No job is running. <a href="#/jobs">Start one</a>.</p></div>`;
  return html`<div><${StaleNote} error=${error} /><table data-testid="running-jobs"><thead><tr><th>Job</th><th>Status</th><th class="num">Reports</th><th class="num">Observations</th><th class="num">Obs/s</th><th class="num">Items seen</th><th>Last report</th></tr></thead>
  <tbody>${jobs.map((j) => {
    const s = stats[j.id];
    return html`<tr><td><a href=${`#/jobs?job=${j.id}`}>${j.job.name ?? j.id.slice(0, 8)}</a></td><td><${StatusPill} status=${j.status} /></td><td class="num">${num(s?.reports)}</td><td class="num">${num(s?.observations)}</td><td class="num">${s?.rate == null ? '–' : s.rate.toFixed(1)}</td><td class="num">${num(s?.itemsSeen)}</td><td><${Time} iso=${s?.lastReportTime} /></td></tr>`;
  })}</tbody></table></div>`;
}

function ItemsByZone() {
  const zones = useRef(new Map());
  const [state, setState] = useState({ loaded: false, truncated: false, total: 0 });
  const [, setVersion] = useState(0);
  const load = async () => {
    const epcZone = new Map();
    const items = await allPages('/data/v1/items/show', {}, 'items', { limit: ITEM_LIMIT });
    for (const i of items) epcZone.set(i.epc, `${i.facility ?? '–'} / ${i.zone}`);
    zones.current = epcZone;
    setState({ loaded: true, truncated: items.length >= ITEM_LIMIT, total: items.length });
  };
  const [, error] = useLoad(load);
  useLive((name, data) => {
    if (name !== 'items') return;
    for (const c of data.changes) zones.current.set(c.epc, `${c.facility ?? '–'} / ${c.zone}`);
    setVersion((v) => v + 1);
  });
  if (!state.loaded) return html`<${Pending} error=${error} />`;
  const counts = new Map();
  for (const z of zones.current.values()) counts.set(z, (counts.get(z) ?? 0) + 1);
  const rows = [...counts.entries()].sort((a, b) => b[1] - a[1]);
  return html`<div>
    <${StaleNote} error=${error} />
    ${state.truncated ? html`<p class="muted">Counted over the first ${num(ITEM_LIMIT)} items.</p>` : ''}
    <table data-testid="items-by-zone"><thead><tr><th>Facility / zone</th><th class="num">Items</th></tr></thead>
    <tbody>${rows.map(([z, n]) => html`<tr><td>${z}</td><td class="num">${num(n)}</td></tr>`)}</tbody></table>
    ${rows.length === 0 ? html`<p class="muted">No item yet.</p>` : ''}
  </div>`;
}

/**
 * Item changes and health events per second over the last 5 minutes, as the
 * server counted them (its read models' time indexes), so the chart is true
 * from the first second; observations from the running jobs' counters.
 */
function Rates({ session }) {
  const [rates, setRates] = useState(null);
  const [error, setError] = useState(null);
  useEffect(() => {
    const poll = () => Promise.all([
      has(session, 'DataReader') ? get('/data/v1/items/show/rates', { seconds: RATE_SECONDS }) : null,
      get('/health/v1/events/rates', { seconds: RATE_SECONDS }),
    ]).then(([items, health]) => { setRates({ items, health }); setError(null); }, setError);
    void poll();
    const t = setInterval(poll, 2000);
    return () => clearInterval(t);
  }, []);
  if (!rates) return html`<${Pending} error=${error} />`;
  // Each count is plotted at the end of its second; the axis ends at the server's last whole second.
  const end = Date.parse(rates.health.to) / 1000;
  const xs = Array.from({ length: RATE_SECONDS }, (_, i) => end - RATE_SECONDS + i + 1);
  const observed = xs.map((x) => observationSamples.findLast((o) => o.t <= x && o.t > x - 4)?.v ?? null);
  const series = [
    ...(rates.items ? [{ label: 'item changes/s', values: rates.items.perSecond }] : []),
    { label: 'health events/s', values: rates.health.perSecond },
    ...(has(session, 'JobRunner') ? [{ label: 'observations/s', values: observed }] : []),
  ];
  return html`<div><${StaleNote} error=${error} /><${Spark} testid="rates" xs=${xs} series=${series} />
  <p class="muted">Per second over the last 5 minutes, as the server recorded them (item changes by observation time, health events by event time); observations from the running jobs' counters since this page opened. Figures beside the legend: the mean of the last 10 seconds.</p></div>`;
}

function Dependencies() {
  const [report, setReport] = useState(null);
  const [error, setError] = useState(null);
  useEffect(() => {
    const poll = () => healthz().then((r) => { setReport(r); setError(null); }, setError);
    void poll();
    const t = setInterval(poll, 5000);
    return () => clearInterval(t);
  }, []);
  if (!report) return html`<${Pending} error=${error} />`;
  const rows = [];
  // Every component /healthz reports, with nested parts (read models, projections) flattened.
  const walk = (prefix, v) => {
    if (v && typeof v === 'object' && 'status' in v && typeof v.status === 'string') {
      // Whatever else a component reports (a read model's lag, checkpoint, …) is shown as it is.
      const details = Object.entries(v).filter(([k, x]) => !['status', 'latencyMs', 'error'].includes(k) && x !== null && typeof x !== 'object').map(([k, x]) => `${k} ${x}`).join(', ');
      rows.push({ name: prefix, status: v.status, latency: v.latencyMs, details, error: v.error });
    }
    if (v && typeof v === 'object') for (const [k, c] of Object.entries(v)) if (c && typeof c === 'object') walk(prefix ? `${prefix}.${k}` : k, c);
  };
  walk('', report);
  return html`<div><${StaleNote} error=${error} /><table data-testid="dependencies"><thead><tr><th>Component</th><th>Status</th><th class="num">Latency ms</th><th>Details</th><th>Error</th></tr></thead>
  <tbody>${rows.map((r) => html`<tr><td>${r.name || 'service'}</td><td><${StatusPill} status=${r.status} /></td><td class="num">${r.latency ?? '–'}</td><td>${r.details}</td><td>${r.error ?? ''}</td></tr>`)}</tbody></table></div>`;
}

/**
 * A card; its content scrolls sideways when wider than a phone, so it is a
 * named region keyboard users can reach and scroll too.
 */
const Card = ({ title, wide, children }) => html`<section class=${`card${wide ? ' wide' : ''}`} tabindex="0" aria-label=${title}><h2>${title}</h2>${children}</section>`;

export function Overview({ session }) {
  return html`<h1>Overview</h1>
  <div class="cards">
    <${Card} title="Readers"><${Readers} /></${Card}>
    ${has(session, 'JobRunner') && html`<${Card} title="Running jobs"><${RunningJobs} /></${Card}>`}
    ${has(session, 'DataReader') && html`<${Card} title="Items by zone"><${ItemsByZone} /></${Card}>`}
    <${Card} title="Rates"><${Rates} session=${session} /></${Card}>
    <${Card} title="Service health" wide=${true}><${Dependencies} /></${Card}>
  </div>`;
}
