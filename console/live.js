// One live stream per logged-in tab, shared by the screens: they subscribe
// to its events; it also counts item changes per second for the rate charts.
import { useEffect, useState } from 'preact/hooks';
import { openLiveStream } from './api.js';

const listeners = new Set();
const stateListeners = new Set();
let close = null;
let state = 'off';
/** Per-second counts of item changes and health events, newest last (10 minutes). */
const WINDOW = 600;
export const rates = { start: Math.floor(Date.now() / 1000), changes: new Array(WINDOW).fill(0), health: new Array(WINDOW).fill(0), observations: new Array(WINDOW).fill(0) };

function bucket(series) {
  const now = Math.floor(Date.now() / 1000);
  const shift = now - (rates.start + WINDOW - 1);
  if (shift > 0) {
    for (const s of [rates.changes, rates.health, rates.observations]) {
      s.splice(0, Math.min(shift, WINDOW));
      while (s.length < WINDOW) s.push(0);
    }
    rates.start += shift;
  }
  return series;
}
export function tickRates() {
  bucket(rates.changes);
}

/** Observations per second of the running jobs (from their stats, polled): fills the seconds since the last poll. */
export function recordObservationRate(perSecond, seconds) {
  const s = bucket(rates.observations);
  for (let i = 1; i <= Math.min(seconds, WINDOW); i++) s[WINDOW - i] = perSecond;
}

function setState(s) {
  state = s;
  for (const f of stateListeners) f(s);
}

export function startLive() {
  stopLive();
  setState('connecting');
  close = openLiveStream({}, (name, data) => {
    if (name === 'items') bucket(rates.changes)[WINDOW - 1] += data.changes.length;
    if (name === 'health') bucket(rates.health)[WINDOW - 1] += 1;
    for (const f of listeners) f(name, data);
  }, setState);
}

export function stopLive() {
  close?.();
  close = null;
  setState('off');
}

/** `fn(name, data)` for every live event while the component is mounted. */
export function useLive(fn, deps = []) {
  useEffect(() => {
    listeners.add(fn);
    return () => listeners.delete(fn);
  }, deps);
}

export function useLiveState() {
  const [s, set] = useState(state);
  useEffect(() => {
    stateListeners.add(set);
    return () => stateListeners.delete(set);
  }, []);
  return s;
}

/** Re-renders every `ms` (ages, live counters). */
export function useTick(ms) {
  const [, set] = useState(0);
  useEffect(() => {
    const t = setInterval(() => set((n) => n + 1), ms);
    return () => clearInterval(t);
  }, [ms]);
}

/** Loads `load()` now, on every `hello` of the stream (a reconnect: events may have been missed) and on `gap`. */
export function useLoad(load, deps = []) {
  const [value, setValue] = useState(undefined);
  const [error, setError] = useState(null);
  const run = () => load().then((v) => { setValue(v); setError(null); }, (e) => setError(e));
  useEffect(() => { void run(); }, deps);
  useLive((name) => { if (name === 'hello' || name === 'gap') void run(); }, deps);
  return [value, error, run, setValue];
}

/** The shell's reload of the service's warnings (/healthz), for screens that may have resolved one (a password change). */
export const onWarningsChanged = { refresh: () => undefined };
