// Software images and upgrades: register an image (its checksum computed
// from the chosen file in the browser: the registry keeps no image bytes),
// start an upgrade of a facility's or chosen readers, and follow each
// upgrade's per-reader progress until it finishes; stop.
import { useEffect, useState } from 'preact/hooks';
import { html } from '../html.js';
import { api, get } from '../api.js';
import { StatusPill, Time } from '../format.js';
import { useLoad } from '../live.js';
import { fileSha256 } from '../sha256.js';
import { ErrorText } from './common.js';

const IMAGE_TYPES = ['FIRMWARE_READER', 'CAP_SERVICE'];
const FINISHED = ['COMPLETED', 'FAILED'];

function UpgradeStatus({ id }) {
  const [status, setStatus] = useState(null);
  const [error, setError] = useState(null);
  useEffect(() => {
    let timer;
    let stopped = false;
    // Polled every 2 s until the upgrade has finished.
    const poll = () => get(`/control/v1/upgrades/show/${id}`).then((s) => {
      setStatus(s);
      setError(null);
      if (!stopped && !FINISHED.includes(s.status)) timer = setTimeout(poll, 2000);
    }, (err) => {
      setError(err);
      if (!stopped) timer = setTimeout(poll, 5000);
    });
    void poll();
    return () => { stopped = true; clearTimeout(timer); };
  }, [id]);
  if (!status) return error ? html`<${ErrorText} error=${error} />` : null;
  const stop = () => api('POST', `/control/v1/upgrades/stop/${id}`).catch(setError);
  const readers = status.details.readers;
  const done = readers.filter((r) => FINISHED.includes(r.status)).length;
  return html`<section class="card" data-testid="upgrade" data-upgrade=${id} data-status=${status.status} style="margin-bottom:.8rem">
    <div class="row"><strong>${status.version.imageType} ${status.version.version}</strong> <${StatusPill} status=${status.status} />
      <span class="muted">${status.target.type === 'FACILITY' ? 'facility' : 'readers'} ${status.target.values.join(', ')} · ${status.elapsedTimeSeconds} s</span>
      ${!FINISHED.includes(status.status) && html`<button class="danger" onClick=${stop}>Stop</button>`}</div>
    <div class="row" style="margin:.4rem 0"><progress max=${readers.length || 1} value=${done} aria-label="Readers finished"></progress>
      <span data-testid="upgrade-progress">${done} of ${readers.length} readers finished</span></div>
    <${ErrorText} error=${error} />
    <table><thead><tr><th>Reader</th><th>Status</th><th>From</th><th class="num">Elapsed s</th><th>Updated</th></tr></thead>
    <tbody>${readers.map((r) => html`<tr data-reader=${r.name}><td>${r.name}</td><td><${StatusPill} status=${r.status} /></td><td>${r.previousVersion?.version ?? '–'}</td><td class="num">${r.elapsedTimeSeconds}</td><td><${Time} iso=${r.lastUpdatedTime} /></td></tr>`)}
    ${(status.details.skippedReaders ?? []).map((r) => html`<tr><td>${r.name}</td><td><span class="pill">SKIPPED</span></td><td colspan="3" class="muted">${r.reason}</td></tr>`)}
    ${(status.details.failedReaders ?? []).map((r) => html`<tr><td>${r.name}</td><td><span class="pill bad">FAILED</span></td><td colspan="3" class="muted">${r.reason}</td></tr>`)}</tbody></table></section>`;
}

/** Admin: register an image. Choosing the file fills its name and SHA-256 checksum; nothing is uploaded. */
function RegisterImage({ onRegistered }) {
  const [form, setForm] = useState({ imageType: 'FIRMWARE_READER', version: '', imageName: '', checksum: '', description: '' });
  const [hashing, setHashing] = useState(false);
  const [error, setError] = useState(null);
  const set = (k) => (e) => setForm({ ...form, [k]: e.target.value });
  const choose = async (e) => {
    const file = e.target.files?.[0];
    if (!file) return;
    setHashing(true);
    try {
      const checksum = await fileSha256(file);
      setForm((f) => ({ ...f, imageName: file.name, checksum, version: f.version || (/(\d+(?:\.\d+)+)/.exec(file.name)?.[1] ?? '') }));
    } catch (err) { setError(err); } finally { setHashing(false); }
  };
  const submit = async (e) => {
    e.preventDefault();
    try {
      await api('POST', '/configuration/v1/softwareVersions/create', { body: {
        versionInfo: { versionIdentifier: { version: form.version, imageType: form.imageType }, imageName: form.imageName, checksum: form.checksum },
        ...(form.description ? { description: form.description } : {}),
      } });
      setError(null);
      onRegistered(`${form.imageType}|${form.version}`);
      setForm({ ...form, version: '', imageName: '', checksum: '', description: '' });
    } catch (err) { setError(err); }
  };
  const fieldError = (suffix) => error?.errors?.filter((x) => x.path.endsWith(suffix)).map((x) => html`<span class="field-error" data-testid=${`error-${suffix}`}>${x.reason}</span>`);
  return html`<form class="filters" onSubmit=${submit} data-testid="register-image">
    <label>Image file<input type="file" name="file" onChange=${choose} /></label>
    <label>Type<select name="imageType" value=${form.imageType} onChange=${set('imageType')}>${IMAGE_TYPES.map((t) => html`<option>${t}</option>`)}</select></label>
    <label>Version<input name="version" value=${form.version} onInput=${set('version')} required />${fieldError('version')}</label>
    <label>Image name<input name="imageName" value=${form.imageName} onInput=${set('imageName')} required />${fieldError('imageName')}</label>
    <label>SHA-256${hashing ? ' (computing…)' : ''}<input name="checksum" size="40" value=${form.checksum} onInput=${set('checksum')} required />${fieldError('checksum')}</label>
    <label>Description<input name="description" value=${form.description} onInput=${set('description')} /></label>
    <button class="primary" type="submit" disabled=${hashing}>Register image</button>
    <${ErrorText} error=${error && !error.errors?.length ? error : null} />
  </form>`;
}

export function Software({ session }) {
  const [images, imagesError, reloadImages] = useLoad(async () => (await Promise.all(IMAGE_TYPES.map((t) => get(`/configuration/v1/softwareVersions/list/${t}`)))).flat());
  const [upgrades, upgradesError, reload] = useLoad(() => get('/control/v1/upgrades/show'));
  const [targets] = useLoad(async () => ({ facilities: (await get('/configuration/v1/facilities/show')).map((f) => f.name), readers: await get('/configuration/v1/readerDefinitions/show') }));
  const [form, setForm] = useState({ image: '', type: 'FACILITY', facility: '', readers: [], maxParallelReaders: 10 });
  const [error, setError] = useState(null);
  const imageKey = (i) => `${i.versionInfo.versionIdentifier.imageType}|${i.versionInfo.versionIdentifier.version}`;
  const chosenImage = form.image || (images?.[0] ? imageKey(images[0]) : '');
  const facility = form.facility || targets?.facilities[0] || '';
  const start = async (e) => {
    e.preventDefault();
    const [imageType, version] = chosenImage.split('|');
    const values = form.type === 'FACILITY' ? [facility] : form.readers;
    // A facility's upgrade reaches every reader in it, each restarting: asked first.
    if (form.type === 'FACILITY' && !confirm(`Upgrade every reader of facility ${facility} to ${version}? Each reader restarts while it upgrades.`)) return;
    try {
      await api('POST', '/control/v1/upgrades/start', { body: { target: { type: form.type, values }, versionIdentifier: { version, imageType }, policy: { maxParallelReaders: Number(form.maxParallelReaders) } } });
      setError(null);
      await reload();
    } catch (err) { setError(err); }
  };
  const set = (k) => (e) => setForm({ ...form, [k]: e.target.value });
  const toggleReader = (name) => setForm({ ...form, readers: form.readers.includes(name) ? form.readers.filter((r) => r !== name) : [...form.readers, name] });
  const targetError = error?.errors?.filter((x) => x.path.startsWith('body.target')) ?? [];
  return html`<h1>Software and upgrades</h1>
  <h2>Registered images</h2>
  <${ErrorText} error=${imagesError} />
  <table data-testid="images"><thead><tr><th>Type</th><th>Version</th><th>Image</th><th>SHA-256</th><th>Description</th><th>Registered</th></tr></thead>
  <tbody>${(images ?? []).map((i) => html`<tr><td>${i.versionInfo.versionIdentifier.imageType}</td><td>${i.versionInfo.versionIdentifier.version}</td><td>${i.versionInfo.imageName}</td><td><code title=${i.versionInfo.checksum}>${i.versionInfo.checksum.slice(0, 12)}…</code></td><td>${i.description ?? ''}</td><td><${Time} iso=${i.created} /></td></tr>`)}</tbody></table>
  ${session.roles.includes('Admin') && html`<h2>Register an image</h2><${RegisterImage} onRegistered=${async (key) => { await reloadImages(); setForm((f) => ({ ...f, image: key })); }} />`}
  <h2>Start an upgrade</h2>
  <form class="filters" onSubmit=${start} data-testid="upgrade-start">
    <label>Image<select name="image" value=${chosenImage} onChange=${set('image')}>${(images ?? []).map((i) => html`<option value=${imageKey(i)}>${i.versionInfo.versionIdentifier.imageType} ${i.versionInfo.versionIdentifier.version}</option>`)}</select></label>
    <label>Target<select name="targetType" value=${form.type} onChange=${set('type')}><option value="FACILITY">a facility</option><option value="DEVICE">chosen readers</option></select></label>
    ${form.type === 'FACILITY'
      ? html`<label>Facility<select name="facility" value=${facility} onChange=${set('facility')}>${(targets?.facilities ?? []).map((f) => html`<option>${f}</option>`)}</select></label>`
      : html`<fieldset data-testid="upgrade-readers" style="border:1px solid var(--line);border-radius:4px;max-height:9rem;overflow:auto"><legend>Readers</legend>${(targets?.readers ?? []).map((r) => html`<label style="flex-direction:row;gap:.3rem;align-items:center"><input type="checkbox" name=${`reader-${r.name}`} checked=${form.readers.includes(r.name)} onChange=${() => toggleReader(r.name)} />${r.name} <span class="muted">${r.facility ?? ''} ${r.type ?? ''}</span></label>`)}</fieldset>`}
    <label>Readers at once<input type="number" name="maxParallelReaders" min="1" value=${form.maxParallelReaders} onInput=${set('maxParallelReaders')} /></label>
    <button class="primary" type="submit" disabled=${!images?.length}>Start upgrade</button>
  </form>
  ${targetError.map((x) => html`<div class="field-error" data-testid="error-target">${x.path.replace(/^body\./, '')}: ${x.reason}</div>`)}
  <${ErrorText} error=${targetError.length ? null : error ?? upgradesError} />
  <h2>Upgrades</h2>
  ${(upgrades ?? []).length === 0 ? html`<p class="muted">None yet.</p>` : [...upgrades].reverse().map((u) => html`<${UpgradeStatus} id=${u.id} key=${u.id} />`)}`;
}
