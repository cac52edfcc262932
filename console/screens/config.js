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
import { ErrorText, fieldLabel } from './common.js';
import { currentZoneMap, facilityNames } from './floor-data.js';

const READER_MODES = ['MAX_THROUGHPUT', 'HYBRID', 'DENSE_READER_M4', 'DENSE_READER_M8', 'MAX_MILLER', 'DENSE_READER_M4_TWO', 'AUTOSET_DENSE_READER', 'MODE_1002', 'MODE_1003', 'MODE_1004'];
const SEARCH_MODES = ['', 'READER_SELECTED', 'SINGLE_TARGET', 'DUAL_TARGET', 'TAG_FOCUS', 'SINGLE_TARGET_BTOA', 'DUAL_TARGET_WITH_BTOASELECT'];

// The service's own rules (docs/api.md), checked as the operator types so the
// field says what is wrong before anything is sent; the service checks again.
const PATH_UNSAFE = /[/\\?#%]/;
function resourceName(v) {
  if (typeof v !== 'string' || v.trim() === '') return 'is required';
  const bad = PATH_UNSAFE.exec(v);
  if (bad) return `must not contain "${bad[0]}" (it does not pass every proxy in a web address)`;
  if (v.trim() !== v) return 'must not start or end with blanks';
  return undefined;
}
const LABEL = /^(?!-)[A-Za-z0-9_-]{1,63}(?<!-)$/;
function hostName(v) {
  if (v === null || v === undefined || v === '') return undefined;
  const ip6 = /^\[?[0-9A-Fa-f:.]+(%\w+)?\]?$/.test(v) && v.includes(':');
  const labels = v.replace(/\.$/, '').split('.');
  if (ip6 || (labels.every((l) => LABEL.test(l)) && (!/^\d+$/.test(labels.at(-1)) || labels.length === 4 && labels.every((l) => /^\d+$/.test(l) && Number(l) <= 255)))) return undefined;
  return 'must be a host name or an IP address: letters, digits, "-" and "." only, no port or "http://"';
}
const between = (min, max, unit) => (v) => (typeof v === 'number' && (v < min || v > max) ? `must be between ${min} and ${max}${unit}, not ${v}${unit}` : undefined);
/** Zones a reader may name: those of its facility's current zone map (any name while it has none), and what it names now. */
function zoneChoices(ctx, draft, current) {
  const facility = draft.facility ?? ctx.facilities[0];
  const names = ctx.zoneNames[facility];
  return names ? ['', ...new Set([...names, ...(current ? [current] : [])])] : null;
}

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
    fields: [{ path: 'name', label: 'Name', check: resourceName }],
    usedBy: (d, c) => [...c.readers.filter((r) => r.facility === d.name).map((r) => `reader ${r.name}`), ...c.zoneMaps.filter((z) => z.facility === d.name).map((z) => `zone map ${z.name}`)],
  },
  {
    id: 'zoneMaps', label: 'Zone maps', key: 'name', ...named('/configuration/v1/zoneMaps'),
    template: { name: '', facility: null, zones: [] },
    fields: [{ path: 'name', label: 'Name', check: resourceName }, { path: 'facility', label: 'Facility', type: 'select', options: (c) => ['', ...c.facilities] }],
    usedBy: (d, c) => (c.current[d.facility] === d.name ? [`current zone map of ${d.facility}`] : []),
  },
  {
    id: 'readerDefinitions', label: 'Reader definitions', key: 'name', ...named('/configuration/v1/readerDefinitions'),
    template: { name: '', address: null, type: 'XARRAY', facility: null, groups: [], placement: { x: 0, y: 0, z: 0, yaw: 0, pitch: 0, roll: 0, floor: null }, readerZone: null, antennaZones: null, labels: null },
    fields: [
      { path: 'name', label: 'Name', check: resourceName }, { path: 'address', label: 'Address (host name or IP)', check: hostName },
      { path: 'type', label: 'Type', type: 'select', options: ['', 'XARRAY', 'XSPAN', 'XPORTAL', 'SPEEDWAY'] },
      { path: 'facility', label: 'Facility', type: 'select', options: (c) => ['', ...c.facilities] },
      { path: 'groups', label: 'Groups (comma-separated)', type: 'list' },
      { path: 'placement.x', label: 'x (m)', type: 'number' }, { path: 'placement.y', label: 'y (m)', type: 'number' },
      { path: 'placement.yaw', label: 'Yaw (°, -360 to 360)', type: 'number', check: between(-360, 360, '°') }, { path: 'placement.floor', label: 'Floor' },
      { path: 'readerZone', label: 'Reader zone', type: 'select', options: (c, d) => zoneChoices(c, d, d.readerZone) },
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
      { path: 'configuration.transmitPowerInDbm', label: 'Transmit power (dBm, 0 to 33)', type: 'number', check: between(0, 33, ' dBm') },
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

/** The value of an input, or `{invalid: reason}` for text that is no value of the field (never NaN in the draft). */
function fromInput(field, raw) {
  if (field.type === 'number') return raw === '' ? undefined : Number.isFinite(Number(raw)) ? Number(raw) : { invalid: 'must be a number' };
  if (field.type === 'list') return raw.split(',').map((s) => s.trim()).filter(Boolean);
  if (field.type === 'numbers') {
    if (raw.trim() === '') return undefined;
    const parts = raw.split(',').map((s) => s.trim());
    const bad = parts.filter((p) => !/^\d+$/.test(p));
    return bad.length ? { invalid: `${bad.map((b) => `"${b}"`).join(', ')} ${bad.length === 1 ? 'is' : 'are'} not a whole number: write numbers separated by commas, e.g. 1, 2, 3` } : parts.map(Number);
  }
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
  const zoneNames = {};
  await Promise.all(facilities.map(async (f) => {
    const map = await currentZoneMap(f);
    current[f] = map?.name ?? null;
    if (map?.name) zoneNames[f] = [...new Set(map.zones.map((z) => z.name))].sort();
  }));
  return { facilities, zoneMaps, readers, readerConfigurations, recipes, jobs, antennaConfigurations, current, zoneNames };
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

function ZoneEditor({ draft, setDraft, ctx, errors }) {
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
    <div class="table-wrap" tabindex="0" role="region" aria-label="Zones"><table><thead><tr><th>#</th><th>Name</th><th>Floor</th><th>Points</th><th></th></tr></thead>
    <tbody>${zones.map((z, i) => {
      // The API counts zones from 0; the row shows its error and counts from 1.
      const errs = errors.filter((e) => e.path === `body.zones.${i}` || e.path.startsWith(`body.zones.${i}.`));
      return html`<tr data-testid=${`zone-row-${i}`}>
      <td>${i + 1}</td>
      <td><input aria-label=${`Name of zone ${i + 1}`} data-testid=${`zone-name-${i}`} value=${z.name} aria-invalid=${errs.length > 0} onInput=${(e) => setZone(i, { name: e.target.value })} />
        ${errs.map((e) => html`<div class="field-error" data-testid=${`zone-error-${i}`}>${fieldLabel(e.path.replace(`body.zones.${i}`, 'zone'))}: ${e.reason}</div>`)}</td>
      <td><input aria-label=${`Floor of zone ${i + 1}`} size="4" value=${z.floor ?? ''} onInput=${(e) => setZone(i, { floor: e.target.value || null })} /></td>
      <td class="muted">${z.points.map((p) => `(${p.x}, ${p.y})`).join(' ')}</td>
      <td><button type="button" onClick=${() => setDraft({ ...draft, zones: zones.filter((_, j) => j !== i) })}>Remove</button></td></tr>`;
    })}</tbody></table></div>
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
  // Text typed into a field that is no value of it ("two" in a number field): kept as typed, with why, out of the draft.
  const [typed, setTyped] = useState({});
  const setDraft = (d) => { setDraftState(d); setText(JSON.stringify(d, null, 2)); setJsonError(null); };
  const cancel = () => { setDraft(base); setTyped({}); setError(null); setReview(false); };
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
  const localErrors = kind.fields.map((f) => typed[f.path]?.reason ?? f.check?.(getPath(draft, f.path))).filter(Boolean);
  const usedBy = isNew ? [] : kind.usedBy(stored, ctx);
  const changed = JSON.stringify(draft) !== JSON.stringify(base);
  const diff = review ? lineDiff(JSON.stringify(base, null, 2), JSON.stringify(draft, null, 2)) : [];
  const form = html`<form class="form" data-testid="resource-form" onSubmit=${(e) => { e.preventDefault(); setReview(true); }}>
    ${kind.fields.map((f) => {
      const errs = fieldErrors(f.path);
      errs.forEach((e) => shown.add(e));
      const local = typed[f.path]?.reason ?? f.check?.(getPath(draft, f.path));
      const reasons = [...(local ? [local] : []), ...errs.map((e) => (e.path === `body.${f.path}` ? e.reason : `${fieldLabel(e.path.slice(`body.${f.path}.`.length))}: ${e.reason}`))];
      const value = typed[f.path]?.text ?? toInput(f, getPath(draft, f.path));
      const onChange = (e) => {
        const v = fromInput(f, e.target.value);
        const rest = Object.fromEntries(Object.entries(typed).filter(([k]) => k !== f.path));
        if (v && typeof v === 'object' && 'invalid' in v) { setTyped({ ...rest, [f.path]: { text: e.target.value, reason: v.invalid } }); return; }
        setTyped(rest);
        setDraft(setPath(draft, f.path, v));
      };
      const options = typeof f.options === 'function' ? f.options(ctx, draft) : f.options;
      const id = `field-${kind.id}-${f.path}`;
      const described = reasons.length ? `${id}-error` : undefined;
      // A number typed as text (type=number would turn "two" into nothing without a word); inputmode keeps the phone's number pad.
      const input = f.type === 'select' && options
        ? html`<select name=${f.path} value=${value} onChange=${onChange} aria-invalid=${reasons.length > 0} aria-describedby=${described}>${options.map((o) => html`<option value=${o}>${o || '(none)'}</option>`)}</select>`
        : html`<input name=${f.path} type="text" inputmode=${f.type === 'number' ? 'decimal' : undefined} value=${value} onInput=${onChange} aria-invalid=${reasons.length > 0} aria-describedby=${described} />`;
      return html`<label>${f.label}${input}<span class="field-error" id=${`${id}-error`} data-testid=${reasons.length ? `error-${f.path}` : undefined}>${reasons.join('; ')}</span></label>`;
    })}
    ${(kind.formParts ?? []).map((part) => {
      const errs = fieldErrors(part.path);
      errs.forEach((e) => shown.add(e));
      return html`<${part.view} draft=${draft} setDraft=${setDraft} ctx=${ctx} errors=${errs} />`;
    })}
    <div class="row">
      <button class="primary" type="submit" disabled=${!changed || !!jsonError || busy || localErrors.length > 0}>Review and save…</button>
      <span class="field-error">${localErrors.length > 0 ? `Fix the ${localErrors.length === 1 ? 'field' : `${localErrors.length} fields`} marked above first.` : ''}</span>
      <button type="button" onClick=${cancel} disabled=${!changed && !error}>Cancel</button>
      ${!isNew && html`<button type="button" class="danger" onClick=${destroy}>Delete</button>`}
    </div>
  </form>`;
  // Zone errors show on their rows in the zone editor.
  if (kind.id === 'zoneMaps') fieldErrors('zones').forEach((e) => shown.add(e));
  return html`<div>
    ${!isNew && html`<p data-testid="used-by"><strong>Used by:</strong> ${usedBy.length ? usedBy.join(', ') : html`<span class="muted">nothing</span>`}</p>`}
    ${error && html`<div data-testid="save-error"><${ErrorText} error=${error} except=${(e) => shown.has(e)} />${error.errors?.length ? html`<p class="muted">${error.errors.length === 1 ? 'The field is marked' : `All ${error.errors.length} problems are listed; each is marked on its field`} where the form has one.</p>` : ''}</div>`}
    ${review && html`<section class="card" data-testid="diff"><h2>Changes to save</h2>
      <div class="diff">${diff.map((d) => html`<div class=${d.op === '+' ? 'add' : d.op === '-' ? 'del' : ''}>${d.op} ${d.line}</div>`)}</div>
      <div class="row" style="margin-top:.5rem"><button class="primary" onClick=${save} disabled=${busy} data-testid="confirm-save">Save</button><button onClick=${() => setReview(false)}>Back to editing</button></div></section>`}
    <div class="editor">
      ${form}
      <label style="display:flex;flex-direction:column">JSON${jsonError && html`<span class="field-error">${jsonError}</span>`}<textarea aria-label="JSON document" data-testid="resource-json" value=${text} onInput=${(e) => onText(e.target.value)} spellcheck="false"></textarea></label>
    </div>
    ${kind.id === 'zoneMaps' && html`<${ZoneEditor} draft=${draft} setDraft=${setDraft} ctx=${ctx} errors=${fieldErrors('zones')} />`}
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
  <div class="row config-layout">
    <section class="card config-list">
      <button class="primary" onClick=${() => setSelected('')} data-testid="new-resource">New</button>
      <ul style="list-style:none;padding:0" data-testid="resource-list">${(list ?? []).map((d) => html`<li><a href="javascript:void 0" onClick=${() => setSelected(String(d[kind.key]))} aria-current=${String(d[kind.key]) === selected ? 'true' : undefined}>${d.name}${kind.key === 'id' ? ` (#${d.id})` : ''}</a>${kind.id === 'zoneMaps' && ctx?.current[d.facility] === d.name ? html` <span class="pill ok">current</span>` : ''}</li>`)}</ul>
    </section>
    <section class="config-detail">
      ${selected === null ? html`<p class="muted">Choose one, or New.</p>` : !ctx ? html`<p class="muted">Loading…</p>` : html`
        ${kind.id === 'zoneMaps' && stored && html`<p><button onClick=${() => makeCurrent(stored)} data-testid="make-current" disabled=${ctx.current[stored.facility] === stored.name}>Make current zone map of ${stored.facility}</button></p>`}
        <${Editor} key=${`${kind.id}:${selected}:${JSON.stringify(stored ?? null).length}`} kind=${kind} stored=${stored ?? null} ctx=${ctx}
          onSaved=${async (saved) => { setMessage(`Saved ${saved.name ?? ''}.`); await reload(); await reloadCtx(); setSelected(String(saved[kind.key])); }}
          onDeleted=${async () => { setMessage('Deleted.'); setSelected(null); await reload(); await reloadCtx(); }} />`}
    </section>
  </div>`;
}
