// One live stream per logged-in tab, shared by the screens: they subscribe
// to its events. Also whether the service answers at all (useReach).
import { useEffect, useState } from 'preact/hooks';
import { onReachChange, openLiveStream, reach } from './api.js';

const listeners = new Set();
const stateListeners = new Set();
let close = null;
let state = 'off';
function setState(s) {
  state = s;
  for (const f of stateListeners) f(s);
}

export function startLive() {
  stopLive();
  setState('connecting');
  close = openLiveStream({}, (name, data) => {
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

/** `{answering, since, lastAnswer}` of the service, re-rendering when it stops or starts answering. */
export function useReach() {
  const [, set] = useState(0);
  useEffect(() => onReachChange(() => set((n) => n + 1)), []);
  return reach;
}
