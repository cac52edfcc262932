// Jobs: start one from a recipe, see each job's readers, counters and
// errors with their times, stop it.
import { useEffect, useRef, useState } from 'preact/hooks';
import { html } from '../html.js';
import { api, get } from '../api.js';
import { StatusPill, Time, num } from '../format.js';
import { useLive, useLoad, useTick } from '../live.js';
import { ErrorText, has } from './common.js';
import { facilityNames } from './floor-data.js';
import { JobPassages } from './passages.js';

const FORM_FIELDS = ['recipeName', 'name', 'facility', 'startDelay', 'durationSeconds', 'readerGroups'];

function StartForm({ onStarted }) {
  const [recipes] = useLoad(() => get('/configuration/v1/recipes/show'));
  const [facilities] = useLoad(() => facilityNames());
  const [form, setForm] = useState({ name: '', recipeName: '', facility: '', startDelay: 'PT0S', durationSeconds: '', readerGroups: '' });
  const [error, setError] = useState(null);
  const set = (k) => (e) => setForm({ ...form, [k]: e.target.value });
  const submit = async (e) => {
    e.preventDefault();
    const body = {
      recipeName: form.recipeName || recipes?.[0]?.name,
      ...(form.name ? { name: form.name } : {}),
      ...(form.facility ? { facility: form.facility } : {}),
      startDelay: form.startDelay || 'PT0S',
      ...(form.durationSeconds ? { durationSeconds: Number(form.durationSeconds) } : {}),
      ...(form.readerGroups ? { readerGroups: form.readerGroups.split(',').map((s) => s.trim()).filter(Boolean) } : {}),
    };
    try {
      const job = await api('POST', '/control/v1/jobs/start', { body });
      setError(null);
      onStarted(job);
    } catch (err) {
      setError(err);
    }
  };
  const fieldError = (k) => error?.errors?.find((x) => x.path === `body.${k}`);
  const field = (k, label, input) => html`<label>${label}${input}${fieldError(k) && html`<span class="field-error">${fieldError(k).reason}</span>`}</label>`;
  return html`<div><form class="filters" onSubmit=${submit} aria-label="Start a job" data-testid="job-start">
    ${field('recipeName', 'Recipe', html`<select name="recipeName" value=${form.recipeName || recipes?.[0]?.name || ""} onChange=${set('recipeName')}>${(recipes ?? []).map((r) => html`<option value=${r.name}>${r.name} (${r.type})</option>`)}</select>`)}
    ${field('name', 'Name', html`<input name="name" value=${form.name} onInput=${set('name')} />`)}
    ${field('facility', 'Facility', html`<select name="facility" value=${form.facility} onChange=${set('facility')}><option value="">(the only one)</option>${(facilities ?? []).map((f) => html`<option>${f}</option>`)}</select>`)}
    ${field('startDelay', 'Start delay', html`<input name="startDelay" value=${form.startDelay} onInput=${set('startDelay')} size="6" />`)}
    ${field('durationSeconds', 'Duration (s, empty: until stopped)', html`<input name="durationSeconds" type="number" min="0" value=${form.durationSeconds} onInput=${set('durationSeconds')} />`)}
    ${field('readerGroups', 'Reader groups', html`<input name="readerGroups" value=${form.readerGroups} onInput=${set('readerGroups')} />`)}
    <button class="primary" type="submit" disabled=${!recipes?.length}>Start job</button>
  </form>
  <${ErrorText} error=${error} except=${(e) => FORM_FIELDS.some((k) => e.path === `body.${k}`)} /></div>`;
}

/** Seconds as "1 h 02 min 05 s". */
const duration = (s) => {
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return `${h ? `${h} h ` : ''}${h || m ? `${String(m).padStart(h ? 2 : 1, '0')} min ` : ''}${String(s % 60).padStart(h || m ? 2 : 1, '0')} s`;
};

/**
 * The job's time running: `activeDuration` is counted by the service up to
 * when it answered; while the job runs the seconds since are added here, so
 * the figure moves every second between answers.
 */
function RunningTime({ job }) {
  useTick(1000);
  const answeredAt = useRef({ job: null, at: 0 });
  if (answeredAt.current.job !== job) answeredAt.current = { job, at: Date.now() };
  const since = job.status === 'RUNNING' ? Math.floor((Date.now() - answeredAt.current.at) / 1000) : 0;
  return html`<span data-testid="job-running-time">${duration(Math.max(0, (job.activeDuration ?? 0) + since))}</span>`;
}

function JobDetail({ id, onClose, session }) {
  const [job, error, reload] = useLoad(() => get(`/control/v1/jobs/show/${id}`), [id]);
  // A door job's page also shows its passages (they need DataReader, as the transitions query does).
  const [recipe] = useLoad(async () => (job ? get(`/configuration/v1/recipes/show/${encodeURIComponent(job.job.recipeName)}`).catch(() => null) : null), [job?.job.recipeName]);
  const showPassages = recipe?.type === 'THRESHOLD' && has(session, 'DataReader');
  const [stats, setStats] = useState(null);
  const [health, setHealth] = useState([]);
  const [stopError, setStopError] = useState(null);
  useLive((name, data) => { if (name === 'job' && data.jobId === id) void reload(); }, [id]);
  useEffect(() => {
    const poll = () => {
      get(`/control/v1/jobs/stats/${id}`).then(setStats, () => undefined);
      get('/health/v1/readers').then(setHealth, () => undefined);
    };
    poll();
    const t = setInterval(poll, 2000);
    return () => clearInterval(t);
  }, [id]);
  if (error) return html`<${ErrorText} error=${error} />`;
  if (!job) return html`<p class="muted">Loading…</p>`;
  const stop = async (graceful) => {
    // Stopping at once drops what the readers have not reported yet: asked before, not undone after.
    if (!graceful && !confirm(`Stop job ${job.job.name ?? job.id} now? Readers stop at once; reads they have not reported yet are lost. "Stop" instead lets them finish their reports.`)) return;
    try {
      await api('POST', `/control/v1/jobs/stop/${id}`, { query: { graceful } });
      await reload();
    } catch (err) {
      setStopError(err);
    }
  };
  const healthOf = new Map(health.map((h) => [h.readerName, h]));
  return html`<section class="card" data-testid="job-detail">
    <div class="row"><h2 style="margin:0">${job.job.name ?? 'Job'} <code class="muted">${job.id}</code></h2><span class="spacer"></span>
      <${StatusPill} status=${job.status} />
      ${job.status !== 'STOPPED' && html`<button onClick=${() => stop(true)}>Stop</button><button class="danger" onClick=${() => stop(false)}>Stop now</button>`}
      <button onClick=${onClose}>Close</button></div>
    <${ErrorText} error=${stopError} />
    <p>Recipe <strong>${job.job.recipeName}</strong> · facility ${job.job.facility ?? '–'} · created <${Time} iso=${job.creationTime} /> · last activity <${Time} iso=${job.lastActivityTime} /> · running <${RunningTime} job=${job} />${job.stopReason ? ` · stopped: ${job.stopReason}` : ''}</p>
    <p data-testid="job-stats">Reports ${num(stats?.reports)} · observations ${num(stats?.observations)} · items seen ${num(stats?.itemsSeen)} · last report <${Time} iso=${stats?.lastReportTime} /></p>
    <h2>Readers</h2>
    <table><thead><tr><th>Reader</th><th>In this job</th><th>Agent state</th><th>Last check-in</th></tr></thead>
    <tbody>${[...job.readerNames, ...job.failedReaderNames.filter((n) => !job.readerNames.includes(n))].map((n) => html`<tr><td>${n}</td><td><${StatusPill} status=${job.failedReaderNames.includes(n) ? 'FAILED' : job.status} /></td><td><${StatusPill} status=${healthOf.get(n)?.state} /></td><td><${Time} iso=${healthOf.get(n)?.lastCheckin} /></td></tr>`)}</tbody></table>
    ${showPassages && html`<${JobPassages} jobId=${id} />`}
    <h2>Errors</h2>
    ${job.errors.length === 0 ? html`<p class="muted">None.</p>` : html`<ul>${job.errors.map((e) => html`<li><${Time} iso=${e.time} />: ${e.message}</li>`)}</ul>`}
  </section>`;
}

export function Jobs({ params, session }) {
  const [jobs, error, reload] = useLoad(() => get('/control/v1/jobs/show', { latest: 50 }));
  // The URL names the job shown, so a reload, a link or Back shows the same one.
  const selected = params.get('job');
  const setSelected = (id) => { location.hash = id ? `#/jobs?job=${encodeURIComponent(id)}` : '#/jobs'; };
  useLive((name) => { if (name === 'job') void reload(); });
  return html`<h1>Jobs</h1>
  <${StartForm} onStarted=${(job) => { setSelected(job.id); void reload(); }} />
  ${selected && html`<${JobDetail} id=${selected} session=${session} onClose=${() => setSelected(null)} key=${selected} />`}
  <h2>Latest jobs</h2>
  <${ErrorText} error=${error} />
  <table data-testid="jobs-table"><thead><tr><th>Name</th><th>Recipe</th><th>Status</th><th>Readers</th><th>Created</th><th>Last activity</th><th>Errors</th></tr></thead>
  <tbody>${(jobs ?? []).map((j) => html`<tr class="clickable" tabindex="0" aria-selected=${j.id === selected ? 'true' : undefined} onClick=${() => setSelected(j.id)} onKeyDown=${(e) => { if (e.key === 'Enter') setSelected(j.id); }}>
    <td>${j.job.name ?? j.id.slice(0, 8)}</td><td>${j.job.recipeName}</td><td><${StatusPill} status=${j.status} /></td><td>${j.readerNames.join(', ')}</td><td><${Time} iso=${j.creationTime} /></td><td><${Time} iso=${j.lastActivityTime} /></td><td class="num">${j.errors.length}</td></tr>`)}</tbody></table>`;
}
