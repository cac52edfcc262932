// Live floor map: the facility's current zone map, its readers, its doors
// with passages crossing them as they happen, and its items moving as the
// live stream reports them; EPC search centres and rings an item; the time
// slider replays the floor as it was at an earlier moment from the as-of query.
import { useEffect, useRef, useState } from 'preact/hooks';
import { html } from '../html.js';
import { allPages } from '../api.js';
import { useLive, useLoad } from '../live.js';
import { MapView } from '../mapview.js';
import { ErrorText, has } from './common.js';
import { currentZoneMap, facilityNames, readersOf, thresholdsOf } from './floor-data.js';
import { findItem } from '../map-layout.js';

const ITEM_LIMIT = 100_000;
const REPLAY_SECONDS = 3600;
const REPLAY_STEP = 1;
/** How long a passage stays drawn on its door after its animation. */
const PASSAGE_SHOWN_MS = 15_000;

const toMapItem = (i) => ({ epc: i.epc, x: i.xLocation, y: i.yLocation, zone: i.zone, facility: i.facility, time: i.lastModifiedTime });

export function FloorMap({ session, params }) {
  const canItems = has(session, 'DataReader');
  const [facilities, facilitiesError] = useLoad(() => facilityNames());
  const [facility, setFacility] = useState(params.get('facility') ?? null);
  const f = facility ?? facilities?.[0] ?? null;
  const [layers, setLayers] = useState({ zones: true, readers: true, items: true, labels: true, doors: true });
  const [floorData, floorError] = useLoad(async () => (f ? { zoneMap: await currentZoneMap(f), readers: await readersOf(f), thresholds: await thresholdsOf(f) } : null), [f]);
  const [passages, setPassages] = useState([]);
  const [search, setSearch] = useState(params.get('epc') ?? '');
  const [focus, setFocus] = useState(params.get('epc') ? { epc: params.get('epc'), seq: 1 } : null);
  const [searchNote, setSearchNote] = useState('');
  const live = useRef(new Map());
  const [version, setVersion] = useState(0);
  const [itemsError, setItemsError] = useState(null);
  const [replay, setReplay] = useState(null); // {secondsAgo, time, items: Map} | null = live
  const [replayBusy, setReplayBusy] = useState(false);
  const loadItems = async () => {
    if (!canItems || !f) return;
    try {
      const items = await allPages('/data/v1/items/show', { facility: f }, 'items', { limit: ITEM_LIMIT });
      live.current = new Map(items.map((i) => [i.epc, toMapItem(i)]));
      setVersion((n) => n + 1);
    } catch (err) {
      setItemsError(err);
    }
  };
  useEffect(() => { void loadItems(); }, [f]);
  // Redraw at most once per animation frame however fast changes arrive.
  const pending = useRef(false);
  useLive((name, data) => {
    if (name === 'hello' || name === 'gap') return void loadItems();
    if (name === 'transitions') {
      const here = data.transitions.filter((t) => t.facility === f);
      if (here.length === 0) return;
      setPassages((ps) => [...ps, ...here].slice(-50));
      setTimeout(() => setPassages((ps) => ps.filter((p) => !here.includes(p))), PASSAGE_SHOWN_MS);
      return;
    }
    if (name !== 'items') return;
    if (data.reset?.facility === f) live.current.clear();
    for (const c of data.changes) {
      if (c.facility === f) live.current.set(c.epc, { epc: c.epc, x: c.x, y: c.y, zone: c.zone, facility: c.facility, time: c.time });
      else live.current.delete(c.epc);
    }
    if (!pending.current) {
      pending.current = true;
      requestAnimationFrame(() => { pending.current = false; setVersion((n) => n + 1); });
    }
  }, [f]);

  // The as-of query scans the engine log: ask once the slider rests, and only keep the latest answer.
  const slideTimer = useRef(null);
  const slideSeq = useRef(0);
  const onSlide = (secondsAgo) => {
    clearTimeout(slideTimer.current);
    if (secondsAgo === 0) return setReplay(null);
    const time = new Date(Date.now() - secondsAgo * 1000).toISOString();
    setReplay({ secondsAgo, time, items: replay?.items ?? new Map() });
    slideTimer.current = setTimeout(async () => {
      const seq = ++slideSeq.current;
      setReplayBusy(true);
      try {
        const items = await allPages('/data/v1/items/show/asOf', { facility: f, time }, 'items', { limit: ITEM_LIMIT });
        if (seq === slideSeq.current) setReplay({ secondsAgo, time, items: new Map(items.map((i) => [i.epc, toMapItem(i)])), loaded: true });
      } catch (err) {
        setItemsError(err);
      } finally {
        if (seq === slideSeq.current) setReplayBusy(false);
      }
    }, 300);
  };

  const zones = floorData?.zoneMap?.zones ?? [];
  const items = replay ? replay.items : live.current;
  const toggle = (k) => setLayers({ ...layers, [k]: !layers[k] });
  const find = (e) => {
    e.preventDefault();
    const found = findItem(items, search);
    setSearchNote(found.note);
    if (found.epc) setFocus({ epc: found.epc, seq: (focus?.seq ?? 0) + 1 });
  };
  const focusedItem = focus && items.get(focus.epc);
  return html`<h1>Floor map</h1>
    <div class="filters">
      <label>Facility<select data-testid="map-facility" value=${f ?? ''} onChange=${(e) => { setFacility(e.target.value); setReplay(null); }}>${(facilities ?? []).map((n) => html`<option value=${n}>${n}</option>`)}</select></label>
      <fieldset class="row" style="border:none;padding:0;margin:0"><legend class="sr-only">Layers</legend>
        ${['zones', 'readers', 'doors', 'items', 'labels'].map((k) => html`<label style="flex-direction:row;align-items:center;gap:.25rem"><input type="checkbox" checked=${layers[k]} onChange=${() => toggle(k)} />${k}</label>`)}
      </fieldset>
      ${canItems && html`<label style="min-width:320px">${replay ? html`Floor as of <span data-testid="replay-time" data-loaded=${replay.loaded ? 'yes' : 'no'} title=${`${replay.time} (UTC)`}>${new Date(replay.time).toLocaleString()}</span>${replayBusy ? ' (loading…)' : ''}` : html`<span data-testid="replay-time">Live</span>`}
        <input type="range" data-testid="time-slider" min="0" max=${REPLAY_SECONDS} step=${REPLAY_STEP} value=${REPLAY_SECONDS - (replay?.secondsAgo ?? 0)} aria-label="Time: right is now, left is up to an hour ago"
          onInput=${(e) => onSlide(REPLAY_SECONDS - Number(e.target.value))} /></label>`}
      ${replay && html`<button onClick=${() => setReplay(null)}>Back to live</button>`}
      ${canItems && html`<form class="row" role="search" onSubmit=${find} style="gap:.3rem;align-items:flex-end">
        <label>Find EPC<input data-testid="map-search" value=${search} onInput=${(e) => setSearch(e.target.value)} placeholder="whole EPC or its end" spellcheck="false" /></label>
        <button type="submit">Find</button></form>`}
      <span class="legend" data-testid="map-count">${items.size} items${floorData && !floorData.zoneMap ? ' · no current zone map' : ''}</span>
    </div>
    ${searchNote && html`<p role="status" data-testid="map-search-note">${searchNote}</p>`}
    ${focusedItem && html`<p data-testid="map-found"><code>${focusedItem.epc}</code> in <strong>${focusedItem.zone}</strong> · <a href=${`#/item/${encodeURIComponent(focusedItem.epc)}`}>open the item</a></p>`}
    <${ErrorText} error=${facilitiesError ?? floorError ?? itemsError} />
    <${MapView} resetKey=${f} zones=${zones} readers=${floorData?.readers ?? []} thresholds=${floorData?.thresholds ?? []} passages=${replay ? [] : passages} focus=${focus} legend=${true}
      items=${canItems ? items : null} layers=${layers} onItem=${(epc) => { location.hash = `#/item/${encodeURIComponent(epc)}`; }} version=${version} />
    <p class="muted">Drag to pan, wheel, pinch or +/− to zoom, 0 to fit; Tab reaches the items and Enter opens one. A number is that many items close together: click it to zoom in. Items a reader places at itself (INVENTORY) or that have no location are spread around their reader or the centre of their zone.</p>`;
}
