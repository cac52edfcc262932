// Configuration resources: each as a form with its JSON beside it (two views
// of one draft), a diff before saving, what uses it, the API's validation
// errors on the field they name, and cancel that reverts to what is stored.
// Zone maps are drawn on the floor map; readers are placed by dragging.
import { useEffect, useMemo, useState } from 'preact/hooks';
import { html } from '../html.js';
import { api, get } from '../api.js';
import { lineDiff } from '../diff.js';
import { overlappingZones } from '../geometry.js';
import { MapView } from '../mapview.js';
import { useLoad } from '../live.js';
import { ErrorText } from './common.js';
import { currentZoneMap, facilityNames } from './floor-data.js';

const READER_MODES = ['MAX_THROUGHPUT', 'HYBRID', 'DENSE_READER_M4', 'DENSE_READER_M8', 'MAX_MILLER', 'DENSE_READER_M4_TWO', 'AUTOSET_DENSE_READER', 'MODE_1002', 'MODE_1003', 'MODE_1004'];
const SEARCH_MODES = ['', 'READER_SELECTED', 'SINGLE_TARGET', 'DUAL_TARGET', 'TAG_FOCUS', 'SINGLE_TARGET_BTOA', 'DUAL_TARGET_WITH_BTOASELECT'];

const named = (base) => ({
  list: () => get(`${base}/show`),
  create: (doc) => api('POST', `${base}/create`, { body: doc }),
  replace: (doc) => api('PUT', `${base}/createOrReplace`, { body: doc }),
  destroy: (key) => api('DELETE', `${base}/destroy/${encodeURIComponent(key)}`),
});

/**
 * Fields: path (dotted), label, type text|number|select|list|numbers,
 * options (array or (ctx) => array). `usedBy(doc, ctx)`: names of what uses it.
 */
export const CONFIG_KINDS = [
  {
    id: 'facilities', label: 'Facilities', key: 'name', ...named('/configuration/v1/facilities'),
    template: { name: '' },
    fields: [{ path: 'name', label: 'Name' }],
    usedBy: (d, c) => [...c.readers.filter((r) => r.facility === d.name).map((r) => `reader ${r.name}`), ...c.zoneMaps.filter((z) => z.facility === d.name).map((z) => `zone map ${z.name}`)],
  },
  {
    id: 'zoneMaps', label: 'Zone maps', key: 'name', ...named('/configuration/v1/zoneMaps'),
    template: { name: '', facility: null, zones: [] },
    fields: [{ path: 'name', label: 'Name' }, { path: 'facility', label: 'Facility', type: 'select', options: (c) => ['', ...c.facilities] }],
    usedBy: (d, c) => (c.current[d.facility] === d.name ? [`current zone map of ${d.facility}`] : []),
  },
  {
    id: 'readerDefinitions', label: 'Reader definitions', key: 'name', ...named('/configuration/v1/readerDefinitions'),
    template: { name: '', address: null, type: 'XARRAY', facility: null, groups: [], placement: { x: 0, y: 0, z: 0, yaw: 0, pitch: 0, roll: 0, floor: null }, readerZone: null, antennaZones: null, labels: null },
    fields: [
      { path: 'name', label: 'Name' }, { path: 'address', label: 'Address (host name)' },
      { path: 'type', label: 'Type', type: 'select', options: ['', 'XARRAY', 'XSPAN', 'XPORTAL', 'SPEEDWAY'] },
      { path: 'facility', label: 'Facility', type: 'select', options: (c) => ['', ...c.facilities] },
      { path: 'groups', label: 'Groups (comma-separated)', type: 'list' },
      { path: 'placement.x', label: 'x (m)', type: 'number' }, { path: 'placement.y', label: 'y (m)', type: 'number' },
      { path: 'placement.yaw', label: 'Yaw (°)', type: 'number' }, { path: 'placement.floor', label: 'Floor' },
      { path: 'readerZone', label: 'Reader zone' },
    ],
    usedBy: (d, c) => c.recipes.filter((r) => Object.keys(r.readerConfigurations ?? {}).includes(d.name)).map((r) => `recipe ${r.name}`),
  },
  {
    id: 'readerConfigurations', label: 'Reader configurations', key: 'name', ...named('/configuration/v1/readerConfigurations'),
    template: { name: '', operation: 'LOCATION', configuration: { readerMode: 'MAX_MILLER', session: 2 } },
    fields: [
      { path: 'name', label: 'Name' },
      { path: 'operation', label: 'Operation', type: 'select', options: ['INVENTORY', 'LOCATION', 'THRESHOLD', 'DO_NOTHING'] },
      { path: 'configuration.readerMode', label: 'Reader mode', type: 'select', options: ['', ...READER_MODES] },
      { path: 'configuration.session', label: 'Session', type: 'number' },
      { path: 'configuration.searchMode', label: 'Search mode (INVENTORY)', type: 'select', options: SEARCH_MODES },
      { path: 'configuration.transmitPowerInDbm', label: 'Transmit power (dBm)', type: 'number' },
      { path: 'configuration.antennas', label: 'Antennas (INVENTORY; comma-separated)', type: 'numbers' },
    ],
    usedBy: (d, c) => c.recipes.filter((r) => r.readerConfigurationName === d.name || Object.values(r.readerConfigurations ?? {}).includes(d.name)).map((r) => `recipe ${r.name}`),
  },
  {
    id: 'recipes', label: 'Recipes', key: 'name', ...named('/configuration/v1/recipes'),
    template: { name: '', type: 'LOCATION', readerConfigurationName: null, readerConfigurations: {}, reportingInterval: 5 },
    fields: [
      { path: 'name', label: 'Name' },
      { path: 'type', label: 'Type', type: 'select', options: ['LOCATION', 'INVENTORY', 'THRESHOLD'] },
      { path: 'readerConfigurationName', label: 'Reader configuration', type: 'select', options: (c) => ['', ...c.readerConfigurations.map((r) => r.name)] },
      { path: 'reportingInterval', label: 'Reporting interval (s)', type: 'number' },
      { path: 'computeWindow', label: 'Compute window (s)', type: 'number' },
      { path: 'tagHeartbeatDuration', label: 'Tag heartbeat (ISO 8601, e.g. PT5M)' },
      { path: 'tagExpiryDuration', label: 'Tag expiry (ISO 8601)' },
      { path: 'minimumMovementInMeters', label: 'Minimum movement (m, LOCATION)', type: 'number' },
    ],
    usedBy: (d, c) => c.jobs.filter((j) => j.job.recipeName === d.name).map((j) => `job ${j.job.name ?? j.id.slice(0, 8)} (${j.status})`),
  },
  {
    id: 'thresholds', label: 'Thresholds', key: 'id',
    list: () => get('/configuration/v1/thresholds/show'),
    create: (doc) => api('POST', '/configuration/v1/thresholds/create', { body: doc }),
    replace: (doc) => api('PUT', '/configuration/v1/thresholds/createOrReplace', { body: doc }),
    destroy: (id) => api('DELETE', `/configuration/v1/thresholds/destroy/${id}`),
    template: { name: '', facility: null, readerArrangement: 'SIDE_BY_SIDE', readers: {} },
    fields: [
      { path: 'name', label: 'Name' },
      { path: 'facility', label: 'Facility', type: 'select', options: (c) => ['', ...c.facilities] },
      { path: 'readerArrangement', label: 'Reader arrangement', type: 'select', options: ['SIDE_BY_SIDE', 'OVERHEAD', 'OVERHEAD_OFFSET', 'CUSTOM'] },
    ],
    // Edited in the form too, as rows; its errors show on the row they name.
    formParts: [{ path: 'readers', view: ThresholdReaders }],
    usedBy: (d, c) => c.recipes.filter((r) => (r.thresholdIds ?? []).includes(d.id)).map((r) => `recipe ${r.name}`),
  },
];

const getPath = (doc, path) => path.split('.').reduce((o, k) => (o == null ? undefined : o[k]), doc);
function setPath(doc, path, value) {
  const copy = structuredClone(doc);
  const keys = path.split('.');
  let o = copy;
  for (const k of keys.slice(0, -1)) o = o[k] ??= {};
  const last = keys[keys.length - 1];
  if (value === undefined) delete o[last];
  else o[last] = value;
  return copy;
}

function fromInput(field, raw) {
  if (field.type === 'number') return raw === '' ? undefined : Number(raw);
  if (field.type === 'list') return raw.split(',').map((s) => s.trim()).filter(Boolean);
  if (field.type === 'numbers') return raw.trim() === '' ? undefined : raw.split(',').map((s) => Number(s.trim()));
  return raw === '' ? null : raw;
}
const toInput = (field, v) => (v == null ? '' : Array.isArray(v) ? v.join(', ') : String(v));

/** Everything "used by" and the selects need, read once per screen. */
async function loadContext() {
  const safe = (p) => p.catch(() => []);
  const [facilities, zoneMaps, readers, readerConfigurations, recipes, jobs, antennaConfigurations] = await Promise.all([
    safe(facilityNames()), safe(get('/configuration/v1/zoneMaps/show')), safe(get('/configuration/v1/readerDefinitions/show')),
    safe(get('/configuration/v1/readerConfigurations/show')), safe(get('/configuration/v1/recipes/show')), safe(get('/control/v1/jobs/show', { latest: 1000 })),
    safe(get('/configuration/v1/thresholds/antennaConfigurations')),
  ]);
  const current = {};
  await Promise.all(facilities.map(async (f) => { current[f] = (await currentZoneMap(f))?.name ?? null; }));
  return { facilities, zoneMaps, readers, readerConfigurations, recipes, jobs, antennaConfigurations, current };
}

/**
 * A threshold's readers map (reader name -> its antenna configuration) as
 * rows: choose a reader of the facility and an antenna configuration, add,
 * remove. The API's errors on `body.readers.<name>[.antennaConfigurationId]`
 * show on that row. Rows keep the map's order; renaming a reader keeps its row.
 */
function ThresholdReaders({ draft, setDraft, ctx, errors }) {
  const readers = draft.readers ?? {};
  const entries = Object.entries(readers);
  const facility = draft.facility ?? null;
  const choices = ctx.readers.filter((r) => facility === null || r.facility === facility).map((r) => r.name);
  const setEntries = (list) => setDraft({ ...draft, readers: Object.fromEntries(list) });
  const setRow = (i, name, id) => setEntries(entries.map((e, j) => (j === i ? [name, { ...e[1], antennaConfigurationId: id }] : e)));
  const free = choices.find((n) => !(n in readers));
  const rowErrors = (name) => errors.filter((e) => e.path === `body.readers.${name}` || e.path.startsWith(`body.readers.${name}.`));
  const configLabel = (c) => `#${c.id} ${c.name} (${c.side}, ${c.readerType})`;
  return html`<fieldset data-testid="threshold-readers" style="border:1px solid var(--line);border-radius:4px">
    <legend>Readers (reader → antenna configuration)</legend>
    ${entries.length === 0 && html`<p class="muted">No reader yet.</p>`}
    ${entries.map(([name, r], i) => {
      const errs = rowErrors(name);
      const names = [...new Set([name, ...choices])];
      const ids = ctx.antennaConfigurations.map((c) => c.id);
      return html`<div class="kv-row" data-testid=${`threshold-reader-${i}`}>
        <select aria-label=${`Reader ${i + 1}`} name=${`readers.${i}.name`} value=${name} aria-invalid=${errs.length > 0}
          onChange=${(e) => { if (!(e.target.value in readers)) setRow(i, e.target.value, r.antennaConfigurationId); }}>${names.map((n) => html`<option value=${n}>${n}</option>`)}</select>
        <select aria-label=${`Antenna configuration of reader ${i + 1}`} name=${`readers.${i}.antennaConfigurationId`} value=${String(r.antennaConfigurationId)}
          onChange=${(e) => setRow(i, name, Number(e.target.value))}>
          ${!ids.includes(r.antennaConfigurationId) && html`<option value=${String(r.antennaConfigurationId)}>#${r.antennaConfigurationId} (unknown)</option>`}
          ${ctx.antennaConfigurations.map((c) => html`<option value=${String(c.id)}>${configLabel(c)}</option>`)}</select>
        <button type="button" onClick=${() => setEntries(entries.filter((_, j) => j !== i))}>Remove</button>
        ${errs.map((e) => html`<span class="field-error" data-testid=${`error-readers.${name}`}>${e.reason}</span>`)}
      </div>`;
    })}
    <button type="button" data-testid="add-threshold-reader" disabled=${!free || ctx.antennaConfigurations.length === 0}
      onClick=${() => setEntries([...entries, [free, { antennaConfigurationId: ctx.antennaConfigurations[0].id }]])}>Add reader</button>
    ${!free && html` <span class="muted">${choices.length ? 'every reader of the facility is in' : 'no reader definitions in this facility'}</span>`}
  </fieldset>`;
}

function ZoneEditor({ draft, setDraft, ctx }) {
  const zones = draft.zones ?? [];
  const overlapping = useMemo(() => overlappingZones(zones), [JSON.stringify(zones)]);
  const [floor, setFloor] = useState('');
  const facility = draft.facility ?? ctx.facilities[0];
  const readers = ctx.readers.filter((r) => r.facility === facility);
  const setZone = (i, patch) => setDraft({ ...draft, zones: zones.map((z, j) => (j === i ? { ...z, ...patch } : z)) });
  const add = (r) => setDraft({ ...draft, zones: [...zones, { name: `Zone ${zones.length + 1}`, floor: floor || null, points: [{ x: r.x0, y: r.y0 }, { x: r.x1, y: r.y1 }] }] });
  return html`<section data-testid="zone-editor">
    <h2>Zones</h2>
    <p class="muted">Drag on the map to draw a rectangular zone${floor ? ` on floor ${floor}` : ''}; polygons can be entered in the JSON.
      <label style="display:inline-flex;flex-direction:row;gap:.3rem;align-items:center">Floor of new zones <input size="4" value=${floor} onInput=${(e) => setFloor(e.target.value)} /></label></p>
    ${overlapping.size > 0 && html`<p class="error" role="alert" data-testid="overlap-warning">Overlapping zones (shown in red): ${[...overlapping].map((i) => zones[i].name).join(', ')}. The service will refuse this zone map.</p>`}
    <${MapView} testid="zone-map-editor" zones=${zones} readers=${readers} items=${null} overlapping=${overlapping} onDraw=${add} />
    <table><thead><tr><th>Name</th><th>Floor</th><th>Points</th><th></th></tr></thead>
    <tbody>${zones.map((z, i) => html`<tr>
      <td><input aria-label=${`Name of zone ${i + 1}`} data-testid=${`zone-name-${i}`} value=${z.name} onInput=${(e) => setZone(i, { name: e.target.value })} /></td>
      <td><input aria-label=${`Floor of zone ${i + 1}`} size="4" value=${z.floor ?? ''} onInput=${(e) => setZone(i, { floor: e.target.value || null })} /></td>
      <td class="muted">${z.points.map((p) => `(${p.x}, ${p.y})`).join(' ')}</td>
      <td><button type="button" onClick=${() => setDraft({ ...draft, zones: zones.filter((_, j) => j !== i) })}>Remove</button></td></tr>`)}</tbody></table>
  </section>`;
}

function PlacementEditor({ draft, setDraft, ctx }) {
  const facility = draft.facility ?? ctx.facilities[0];
  const [zoneMap] = useLoad(() => currentZoneMap(facility), [facility]);
  const others = ctx.readers.filter((r) => r.facility === facility && r.name !== draft.name);
  const me = { name: draft.name || '(new reader)', placement: draft.placement ?? { x: 0, y: 0, yaw: 0 } };
  const move = (name, x, y) => { if (name === me.name) setDraft({ ...draft, placement: { ...(draft.placement ?? { z: 0, yaw: 0, pitch: 0, roll: 0, floor: null }), x, y } }); };
  return html`<section><h2>Placement</h2><p class="muted">Drag this reader's square to place it (metres); other readers of the facility are shown too.</p>
    <${MapView} testid="placement-editor" zones=${zoneMap?.zones ?? []} readers=${[...others, me]} items=${null} onReaderMove=${move} /></section>`;
}

function Editor({ kind, stored, ctx, onSaved, onDeleted }) {
  const isNew = stored === null;
  const base = isNew ? kind.template : stored;
  const [draft, setDraftState] = useState(base);
  const [text, setText] = useState(JSON.stringify(base, null, 2));
  const [jsonError, setJsonError] = useState(null);
  const [review, setReview] = useState(false);
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  const setDraft = (d) => { setDraftState(d); setText(JSON.stringify(d, null, 2)); setJsonError(null); };
  const cancel = () => { setDraft(base); setError(null); setReview(false); };
  const onText = (value) => {
    setText(value);
    try { setDraftState(JSON.parse(value)); setJsonError(null); } catch (e) { setJsonError(e.message); }
  };
  const save = async () => {
    setBusy(true);
    try {
      const saved = isNew || (kind.key === 'name' && draft.name !== stored.name) ? await kind.create(draft) : await kind.replace(draft);
      setError(null);
      setReview(false);
      onSaved(saved);
    } catch (err) {
      setError(err);
      setReview(false);
    } finally {
      setBusy(false);
    }
  };
  const destroy = async () => {
    if (!confirm(`Delete ${kind.label.toLowerCase()} ${stored[kind.key]}?`)) return;
    try { await kind.destroy(stored[kind.key]); onDeleted(); } catch (err) { setError(err); }
  };
  const fieldErrors = (path) => (error?.errors ?? []).filter((e) => e.path === `body.${path}` || e.path.startsWith(`body.${path}.`));
  const shown = new Set();
  const usedBy = isNew ? [] : kind.usedBy(stored, ctx);
  const changed = JSON.stringify(draft) !== JSON.stringify(base);
  const diff = review ? lineDiff(JSON.stringify(base, null, 2), JSON.stringify(draft, null, 2)) : [];
  const form = html`<form class="form" data-testid="resource-form" onSubmit=${(e) => { e.preventDefault(); setReview(true); }}>
    ${kind.fields.map((f) => {
      const errs = fieldErrors(f.path);
      errs.forEach((e) => shown.add(e));
      const value = toInput(f, getPath(draft, f.path));
      const onChange = (e) => setDraft(setPath(draft, f.path, fromInput(f, e.target.value)));
      const options = typeof f.options === 'function' ? f.options(ctx) : f.options;
      const input = f.type === 'select'
        ? html`<select name=${f.path} value=${value} onChange=${onChange} aria-invalid=${errs.length > 0}>${options.map((o) => html`<option value=${o}>${o || '(none)'}</option>`)}</select>`
        : html`<input name=${f.path} type=${f.type === 'number' ? 'number' : 'text'} step="any" value=${value} onInput=${onChange} aria-invalid=${errs.length > 0} />`;
      return html`<label>${f.label}${input}${errs.map((e) => html`<span class="field-error" data-testid=${`error-${f.path}`}>${e.reason}</span>`)}</label>`;
    })}
    ${(kind.formParts ?? []).map((part) => {
      const errs = fieldErrors(part.path);
      errs.forEach((e) => shown.add(e));
      return html`<${part.view} draft=${draft} setDraft=${setDraft} ctx=${ctx} errors=${errs} />`;
    })}
    <div class="row">
      <button class="primary" type="submit" disabled=${!changed || !!jsonError || busy}>Review and save…</button>
      <button type="button" onClick=${cancel} disabled=${!changed && !error}>Cancel</button>
      ${!isNew && html`<button type="button" class="danger" onClick=${destroy}>Delete</button>`}
    </div>
  </form>`;
  const rest = (error?.errors ?? []).filter((e) => !shown.has(e));
  return html`<div>
    ${!isNew && html`<p data-testid="used-by"><strong>Used by:</strong> ${usedBy.length ? usedBy.join(', ') : html`<span class="muted">nothing</span>`}</p>`}
    ${error && html`<div class="error" role="alert" data-testid="save-error">${error.message}${rest.length ? html`<ul>${rest.map((e) => html`<li><code>${e.path}</code>: ${e.reason}</li>`)}</ul>` : ''}</div>`}
    ${review && html`<section class="card" data-testid="diff"><h2>Changes to save</h2>
      <div class="diff">${diff.map((d) => html`<div class=${d.op === '+' ? 'add' : d.op === '-' ? 'del' : ''}>${d.op} ${d.line}</div>`)}</div>
      <div class="row" style="margin-top:.5rem"><button class="primary" onClick=${save} disabled=${busy} data-testid="confirm-save">Save</button><button onClick=${() => setReview(false)}>Back to editing</button></div></section>`}
    <div class="editor">
      ${form}
      <label style="display:flex;flex-direction:column">JSON${jsonError && html`<span class="field-error">${jsonError}</span>`}<textarea aria-label="JSON document" data-testid="resource-json" value=${text} onInput=${(e) => onText(e.target.value)} spellcheck="false"></textarea></label>
    </div>
    ${kind.id === 'zoneMaps' && html`<${ZoneEditor} draft=${draft} setDraft=${setDraft} ctx=${ctx} />`}
    ${kind.id === 'readerDefinitions' && html`<${PlacementEditor} draft=${draft} setDraft=${setDraft} ctx=${ctx} />`}
  </div>`;
}

export function ConfigScreen({ kind }) {
  const [list, error, reload] = useLoad(() => kind.list(), [kind.id]);
  const [ctx, , reloadCtx] = useLoad(loadContext, [kind.id]);
  const [selected, setSelected] = useState(null); // key, or '' for a new one
  const [message, setMessage] = useState('');
  useEffect(() => setSelected(null), [kind.id]);
  const stored = selected === '' ? null : list?.find((d) => String(d[kind.key]) === String(selected));
  const makeCurrent = async (doc) => {
    try {
      await api('POST', `/control/v1/currentZoneMap/select/${encodeURIComponent(doc.name)}`);
      setMessage(`${doc.name} is now the current zone map of ${doc.facility}.`);
      await reloadCtx();
    } catch (err) {
      setMessage(err.message);
    }
  };
  return html`<h1>${kind.label}</h1>
  <${ErrorText} error=${error} />
  ${message && html`<p role="status">${message}</p>`}
  <div class="row" style="align-items:flex-start">
    <section class="card" style="min-width:200px;max-width:260px">
      <button class="primary" onClick=${() => setSelected('')} data-testid="new-resource">New</button>
      <ul style="list-style:none;padding:0" data-testid="resource-list">${(list ?? []).map((d) => html`<li><a href="javascript:void 0" onClick=${() => setSelected(String(d[kind.key]))} aria-current=${String(d[kind.key]) === selected ? 'true' : undefined}>${d.name}${kind.key === 'id' ? ` (#${d.id})` : ''}</a>${kind.id === 'zoneMaps' && ctx?.current[d.facility] === d.name ? html` <span class="pill ok">current</span>` : ''}</li>`)}</ul>
    </section>
    <section style="flex:1;min-width:0">
      ${selected === null ? html`<p class="muted">Choose one, or New.</p>` : !ctx ? html`<p class="muted">Loading…</p>` : html`
        ${kind.id === 'zoneMaps' && stored && html`<p><button onClick=${() => makeCurrent(stored)} data-testid="make-current" disabled=${ctx.current[stored.facility] === stored.name}>Make current zone map of ${stored.facility}</button></p>`}
        <${Editor} key=${`${kind.id}:${selected}:${JSON.stringify(stored ?? null).length}`} kind=${kind} stored=${stored ?? null} ctx=${ctx}
          onSaved=${async (saved) => { setMessage(`Saved ${saved.name ?? ''}.`); await reload(); await reloadCtx(); setSelected(String(saved[kind.key])); }}
          onDeleted=${async () => { setMessage('Deleted.'); setSelected(null); await reload(); await reloadCtx(); }} />`}
    </section>
  </div>`;
}
