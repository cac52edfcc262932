// Live floor map: the facility's current zone map, its readers and its items
// moving as the live stream reports them; the time slider replays the floor
// as it was at an earlier moment from the as-of query.
import { useEffect, useRef, useState } from 'preact/hooks';
import { html } from '../html.js';
import { allPages } from '../api.js';
import { useLive, useLoad } from '../live.js';
import { MapView } from '../mapview.js';
import { ErrorText, has } from './common.js';
import { currentZoneMap, facilityNames, readersOf } from './floor-data.js';

const ITEM_LIMIT = 100_000;
const REPLAY_SECONDS = 3600;
const REPLAY_STEP = 1;

const toMapItem = (i) => ({ epc: i.epc, x: i.xLocation, y: i.yLocation, zone: i.zone, facility: i.facility, time: i.lastModifiedTime });

export function FloorMap({ session, params }) {
  const canItems = has(session, 'DataReader');
  const [facilities, facilitiesError] = useLoad(() => facilityNames());
  const [facility, setFacility] = useState(params.get('facility') ?? null);
  const f = facility ?? facilities?.[0] ?? null;
  const [layers, setLayers] = useState({ zones: true, readers: true, items: true, labels: true });
  const [floorData, floorError] = useLoad(async () => (f ? { zoneMap: await currentZoneMap(f), readers: await readersOf(f) } : null), [f]);
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
  return html`<h1>Floor map</h1>
    <div class="filters">
      <label>Facility<select data-testid="map-facility" value=${f ?? ''} onChange=${(e) => { setFacility(e.target.value); setReplay(null); }}>${(facilities ?? []).map((n) => html`<option value=${n}>${n}</option>`)}</select></label>
      <fieldset class="row" style="border:none;padding:0;margin:0"><legend class="sr-only">Layers</legend>
        ${['zones', 'readers', 'items', 'labels'].map((k) => html`<label style="flex-direction:row;align-items:center;gap:.25rem"><input type="checkbox" checked=${layers[k]} onChange=${() => toggle(k)} />${k}</label>`)}
      </fieldset>
      ${canItems && html`<label style="min-width:320px">${replay ? html`Floor as of <span data-testid="replay-time" data-loaded=${replay.loaded ? 'yes' : 'no'} title=${`${replay.time} (UTC)`}>${new Date(replay.time).toLocaleString()}</span>${replayBusy ? ' (loading…)' : ''}` : html`<span data-testid="replay-time">Live</span>`}
        <input type="range" data-testid="time-slider" min="0" max=${REPLAY_SECONDS} step=${REPLAY_STEP} value=${REPLAY_SECONDS - (replay?.secondsAgo ?? 0)} aria-label="Time: right is now, left is up to an hour ago"
          onInput=${(e) => onSlide(REPLAY_SECONDS - Number(e.target.value))} /></label>`}
      ${replay && html`<button onClick=${() => setReplay(null)}>Back to live</button>`}
      <span class="legend" data-testid="map-count">${items.size} items${floorData && !floorData.zoneMap ? ' · no current zone map' : ''}</span>
    </div>
    <${ErrorText} error=${facilitiesError ?? floorError ?? itemsError} />
    <${MapView} resetKey=${f} zones=${zones} readers=${floorData?.readers ?? []} items=${canItems ? items : null} layers=${layers} onItem=${(epc) => { location.hash = `#/item/${encodeURIComponent(epc)}`; }} version=${version} />
    <p class="muted">Drag to pan, wheel or +/− to zoom, 0 to fit. Items without a location are drawn near the centre of their zone.</p>`;
}
