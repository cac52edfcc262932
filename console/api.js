// The console's only way to the service: the public REST interface under
// the API root (from the page), with the credentials of the logged-in user,
// and the live event stream read with fetch (EventSource cannot send an
// Authorization header).
const apiRoot = document.querySelector('meta[name="tagtrail-api-root"]')?.content ?? '/itemsense';
/** The service's root, relative to the console's own address (works behind a path prefix). */
export const serviceBase = new URL('../', location.href);
export const apiBase = new URL(apiRoot.replace(/^\/+/, '').replace(/\/*$/, '/'), serviceBase);
export const version = document.querySelector('meta[name="tagtrail-version"]')?.content ?? '';

const SESSION_KEY = 'tagtrail.session';

/** {name, roles, authorization, defaultPassword} or null. Kept for the tab's life only. */
export function loadSession() {
  try {
    return JSON.parse(sessionStorage.getItem(SESSION_KEY) ?? 'null');
  } catch {
    return null;
  }
}
export function saveSession(s) {
  if (s) sessionStorage.setItem(SESSION_KEY, JSON.stringify(s));
  else sessionStorage.removeItem(SESSION_KEY);
}

export class ApiError extends Error {
  constructor(status, body) {
    super(body?.message ?? `HTTP ${status}`);
    this.status = status;
    this.errors = Array.isArray(body?.errors) ? body.errors : [];
  }
}

/**
 * Whether tagtrail answers: false from the first request that got no answer
 * at all (no connection, DNS, a proxy with nothing behind it) until the next
 * one that gets any answer. `lastAnswer` is when the service last answered,
 * so screens can say how old what they show is.
 */
export const reach = { answering: true, since: null, lastAnswer: Date.now() };
const reachListeners = new Set();
export const onReachChange = (f) => { reachListeners.add(f); return () => reachListeners.delete(f); };
function setAnswering(answering) {
  const now = Date.now();
  if (answering) reach.lastAnswer = now;
  if (answering === reach.answering) return;
  reach.answering = answering;
  reach.since = answering ? null : now;
  for (const f of reachListeners) f(reach);
}
/** The error of a request that got no answer, in the words an operator needs. */
export const NOT_ANSWERING = 'tagtrail is not answering (no connection to the service).';

/** fetch, noting whether the service answered. */
async function reachFetch(input, init) {
  let res;
  try {
    res = await fetch(input, init);
  } catch (err) {
    if (err?.name === 'AbortError') throw err;
    setAnswering(false);
    throw new ApiError(0, { message: NOT_ANSWERING });
  }
  // A gateway answering for a service that is gone is no answer from tagtrail.
  setAnswering(res.status !== 502 && res.status !== 504);
  return res;
}

let authorization = loadSession()?.authorization ?? null;
let onUnauthorized = () => undefined;
export const setAuthorization = (a) => (authorization = a);
export const setOnUnauthorized = (f) => (onUnauthorized = f);

const url = (path, query) => {
  const u = new URL(path.replace(/^\//, ''), apiBase);
  for (const [k, v] of Object.entries(query ?? {})) {
    if (v === undefined || v === null || v === '') continue;
    u.searchParams.set(k, String(v));
  }
  return u;
};

/** One REST call; JSON in and out. Throws ApiError with the API's field errors. */
export async function api(method, path, { body, query, auth, signal } = {}) {
  const headers = { Accept: 'application/json' };
  const a = auth ?? authorization;
  if (a) headers.Authorization = a;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  // credentials 'omit': the console sends its own Authorization header and no
  // cookies; it also keeps the browser from answering the API's Basic
  // challenge (WWW-Authenticate) with its own password dialog.
  const res = await reachFetch(url(path, query), { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal, credentials: 'omit' });
  const text = await res.text();
  let parsed;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = text;
  }
  if (!res.ok) {
    if (res.status === 401 && !auth) onUnauthorized();
    throw new ApiError(res.status, parsed);
  }
  return parsed;
}
export const get = (path, query, opts) => api('GET', path, { ...opts, query });

/** /healthz, outside the API root and unauthenticated; answers 503 with the same body when something is down. */
export async function healthz() {
  const res = await reachFetch(new URL('healthz', serviceBase), { headers: { Accept: 'application/json' }, credentials: 'omit' });
  return res.json();
}

/** Every page of a paged item query (items, history, asOf), up to `limit` records. */
export async function allPages(path, query, key, { limit = Infinity, signal, onPage } = {}) {
  const out = [];
  let marker;
  do {
    const page = await get(path, { ...query, pageSize: 1000, pageMarker: marker }, { signal });
    out.push(...page[key]);
    onPage?.(out.length, page);
    marker = page.nextPageMarker;
  } while (marker && out.length < limit);
  return out;
}

/**
 * The live stream (GET /live/v1/stream) as server-sent events read through
 * fetch, so it carries the same Authorization header as every call.
 * Reconnects after 2 s; `onEvent(name, data)` gets hello (also after each
 * reconnect: reload state then), items, job, health and gap.
 */
export function openLiveStream(query, onEvent, onState = () => undefined) {
  const controller = new AbortController();
  let stopped = false;
  const run = async () => {
    while (!stopped) {
      try {
        const res = await reachFetch(url('/live/v1/stream', query), { headers: { Authorization: authorization ?? '', Accept: 'text/event-stream' }, signal: controller.signal, credentials: 'omit' });
        if (res.status === 401) {
          onUnauthorized();
          return;
        }
        if (!res.ok || !res.body) throw new Error(`HTTP ${res.status}`);
        onState('open');
        const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
        let buffer = '';
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += value;
          let end;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            let name = 'message';
            const data = [];
            for (const line of block.split('\n')) {
              if (line.startsWith('event:')) name = line.slice(6).trim();
              else if (line.startsWith('data:')) data.push(line.slice(5).trimStart());
            }
            if (data.length) onEvent(name, JSON.parse(data.join('\n')));
          }
        }
      } catch (err) {
        if (stopped) return;
        console.warn('live stream', err);
      }
      onState('reconnecting');
      await new Promise((r) => setTimeout(r, 2000));
    }
  };
  void run();
  return () => {
    stopped = true;
    controller.abort();
  };
}
