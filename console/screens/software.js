// Software images and upgrades with per-reader progress.
import { useEffect, useState } from 'preact/hooks';
import { html } from '../html.js';
import { api, get } from '../api.js';
import { StatusPill, Time } from '../format.js';
import { useLoad } from '../live.js';
import { ErrorText } from './common.js';

function UpgradeStatus({ id }) {
  const [status, setStatus] = useState(null);
  const [error, setError] = useState(null);
  useEffect(() => {
    const poll = () => get(`/control/v1/upgrades/show/${id}`).then(setStatus, setError);
    void poll();
    const t = setInterval(poll, 3000);
    return () => clearInterval(t);
  }, [id]);
  if (error) return html`<${ErrorText} error=${error} />`;
  if (!status) return null;
  const stop = () => api('POST', `/control/v1/upgrades/stop/${id}`).catch(setError);
  return html`<section class="card"><div class="row"><strong>${status.version.imageType} ${status.version.version}</strong> <${StatusPill} status=${status.status} /> <span class="muted">${status.target.type} ${status.target.values.join(', ')} · ${status.elapsedTimeSeconds} s</span>
    ${['WAITING', 'IN_PROGRESS'].includes(status.status) && html`<button class="danger" onClick=${stop}>Stop</button>`}</div>
    <table><thead><tr><th>Reader</th><th>Status</th><th>From</th><th class="num">Elapsed s</th><th>Updated</th></tr></thead>
    <tbody>${status.details.readers.map((r) => html`<tr><td>${r.name}</td><td><${StatusPill} status=${r.status} /></td><td>${r.previousVersion?.version ?? '–'}</td><td class="num">${r.elapsedTimeSeconds}</td><td><${Time} iso=${r.lastUpdatedTime} /></td></tr>`)}
    ${(status.details.skippedReaders ?? []).map((r) => html`<tr><td>${r.name}</td><td><span class="pill">SKIPPED</span></td><td colspan="3" class="muted">${r.reason}</td></tr>`)}
    ${(status.details.failedReaders ?? []).map((r) => html`<tr><td>${r.name}</td><td><span class="pill bad">FAILED</span></td><td colspan="3" class="muted">${r.reason}</td></tr>`)}</tbody></table></section>`;
}

export function Software() {
  const [images, imagesError] = useLoad(async () => [...(await get('/configuration/v1/softwareVersions/list/FIRMWARE_READER')), ...(await get('/configuration/v1/softwareVersions/list/CAP_SERVICE'))]);
  const [upgrades, upgradesError, reload] = useLoad(() => get('/control/v1/upgrades/show'));
  const [form, setForm] = useState({ image: '', type: 'FACILITY', values: '', maxParallelReaders: 10 });
  const [error, setError] = useState(null);
  const start = async (e) => {
    e.preventDefault();
    const [imageType, version] = (form.image || `${images?.[0]?.versionInfo.versionIdentifier.imageType}|${images?.[0]?.versionInfo.versionIdentifier.version}`).split('|');
    try {
      await api('POST', '/control/v1/upgrades/start', { body: { target: { type: form.type, values: form.values.split(',').map((s) => s.trim()).filter(Boolean) }, versionIdentifier: { version, imageType }, policy: { maxParallelReaders: Number(form.maxParallelReaders) } } });
      setError(null);
      await reload();
    } catch (err) { setError(err); }
  };
  const set = (k) => (e) => setForm({ ...form, [k]: e.target.value });
  return html`<h1>Software and upgrades</h1>
  <h2>Registered images</h2>
  <${ErrorText} error=${imagesError} />
  <table><thead><tr><th>Type</th><th>Version</th><th>Image</th><th>Description</th><th>Registered</th></tr></thead>
  <tbody>${(images ?? []).map((i) => html`<tr><td>${i.versionInfo.versionIdentifier.imageType}</td><td>${i.versionInfo.versionIdentifier.version}</td><td>${i.versionInfo.imageName}</td><td>${i.description ?? ''}</td><td><${Time} iso=${i.created} /></td></tr>`)}</tbody></table>
  <h2>Start an upgrade</h2>
  <form class="filters" onSubmit=${start}>
    <label>Image<select value=${form.image} onChange=${set('image')}>${(images ?? []).map((i) => { const v = i.versionInfo.versionIdentifier; return html`<option value=${`${v.imageType}|${v.version}`}>${v.imageType} ${v.version}</option>`; })}</select></label>
    <label>Target<select value=${form.type} onChange=${set('type')}><option>FACILITY</option><option>DEVICE</option></select></label>
    <label>${form.type === 'FACILITY' ? 'Facilities' : 'Readers'} (comma-separated)<input value=${form.values} onInput=${set('values')} /></label>
    <label>Readers at once<input type="number" min="1" value=${form.maxParallelReaders} onInput=${set('maxParallelReaders')} /></label>
    <button class="primary" type="submit" disabled=${!images?.length}>Start upgrade</button>
  </form>
  <${ErrorText} error=${error ?? upgradesError} />
  <h2>Upgrades</h2>
  ${(upgrades ?? []).length === 0 ? html`<p class="muted">None yet.</p>` : [...upgrades].reverse().map((u) => html`<${UpgradeStatus} id=${u.id} key=${u.id} />`)}`;
}
