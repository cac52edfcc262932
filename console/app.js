// The console shell: login, navigation by role, hash routes, the live stream.
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { html } from './html.js';
import { api, healthz, loadSession, saveSession, setAuthorization, setOnUnauthorized, version } from './api.js';
import { onWarningsChanged, startLive, stopLive, useLiveState, useReach, useTick } from './live.js';
import { age } from './format.js';
import { Overview } from './screens/overview.js';
import { FloorMap } from './screens/map.js';
import { Items, ItemPage } from './screens/items.js';
import { Jobs } from './screens/jobs.js';
import { Transitions } from './screens/passages.js';
import { ConfigScreen, CONFIG_KINDS } from './screens/config.js';
import { HealthScreen } from './screens/health.js';
import { Software } from './screens/software.js';
import { Queues } from './screens/queues.js';
import { Users } from './screens/users.js';
import { About } from './screens/about.js';

const ANY = ['DataReader', 'JobRunner', 'ConfigManager'];
/** Screens, in menu order, with the roles whose REST calls they need (Admin sees all). */
const SCREENS = [
  { id: 'overview', label: 'Overview', roles: ANY, view: Overview },
  { id: 'map', label: 'Floor map', roles: ANY, view: FloorMap },
  { id: 'items', label: 'Items', roles: ['DataReader'], view: Items },
  { id: 'transitions', label: 'Door passages', roles: ['DataReader'], view: Transitions },
  { id: 'jobs', label: 'Jobs', roles: ['JobRunner'], view: Jobs },
  { id: 'health', label: 'Reader health', roles: ANY, view: HealthScreen },
  { id: 'queues', label: 'Queues', roles: ['DataReader'], view: Queues },
  { group: 'Configuration' },
  ...CONFIG_KINDS.map((k) => ({ id: `config/${k.id}`, label: k.label, roles: ['ConfigManager'], view: ConfigScreen, kind: k })),
  { id: 'software', label: 'Software & upgrades', roles: ['ConfigManager'], view: Software },
  { group: 'Administration' },
  { id: 'users', label: 'Users & tokens', roles: ['Admin'], view: Users },
  { group: 'Help' },
  { id: 'about', label: 'About', roles: ANY, view: About },
];

export const allowed = (session, roles) => !!session && (session.roles.includes('Admin') || roles.some((r) => session.roles.includes(r)));

function parseHash() {
  const raw = location.hash.replace(/^#\/?/, '');
  const [path, qs] = raw.split('?');
  return { path: path || 'overview', params: new URLSearchParams(qs ?? '') };
}

const utf8Base64 = (s) => btoa(String.fromCharCode(...new TextEncoder().encode(s)));

function Login({ onLogin }) {
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const submit = async (e) => {
    e.preventDefault();
    setBusy(true);
    setError('');
    const basic = `Basic ${utf8Base64(`${name}:${password}`)}`;
    try {
      const me = await api('GET', '/configuration/v1/users/currentUser', { auth: basic });
      let authorization = basic;
      // A token keeps the password out of the browser's storage; the API
      // mints them for every role but DataReader, who keeps Basic credentials.
      if (me.roles.some((r) => r !== 'DataReader')) {
        const { token } = await api('GET', '/authentication/v1/token', { auth: basic });
        authorization = `Token ${JSON.stringify({ token })}`;
      }
      onLogin({ name: me.name, roles: me.roles, authorization, token: authorization.startsWith('Token') });
    } catch (err) {
      setError(err.status === 401 ? 'Unknown user or wrong password.' : err.status === 403 ? 'This user holds no role.' : err.message);
    } finally {
      setBusy(false);
    }
  };
  return html`<form class="login" onSubmit=${submit} aria-labelledby="login-title">
    <h1 id="login-title">tagtrail</h1>
    <div class="form">
      <label>User<input name="username" autocomplete="username" value=${name} onInput=${(e) => setName(e.target.value)} required autofocus /></label>
      <label>Password<input name="password" type="password" autocomplete="current-password" value=${password} onInput=${(e) => setPassword(e.target.value)} required /></label>
      ${error && html`<div class="error" role="alert">${error}</div>`}
      <button class="primary" type="submit" disabled=${busy}>Log in</button>
    </div>
  </form>`;
}

/**
 * The service's warnings in the reader's terms: the default-password warning
 * names what to do for an Admin (a link to change it) and whom to ask for
 * anyone else, rather than quoting an API call.
 */
function Warning({ text, session }) {
  if (!/default password/.test(text)) return html`<div class="banner" role="alert" data-testid="warning">${text}</div>`;
  return html`<div class="banner" role="alert" data-testid="default-password">The <strong>admin</strong> user still has the well-known default password, so anyone can log in as it.
    ${allowed(session, ['Admin']) ? html` <a href="#/users">Change it now</a>.` : ' Ask an administrator to change it.'}</div>`;
}

/** Shown while requests get no answer at all: what is on screen is as old as the last answer. */
function NotAnswering() {
  const r = useReach();
  useTick(1000); // the age of the last answer
  if (r.answering) return null;
  const last = new Date(r.lastAnswer);
  return html`<div class="banner bad" role="alert" data-testid="not-answering"><strong>tagtrail is not answering</strong> (since ${new Date(r.since).toLocaleTimeString()}). What this page shows is from ${last.toLocaleTimeString()} (${age(last.toISOString())}) and is not current; it refreshes by itself once tagtrail answers again.</div>`;
}

function Shell({ session, onLogout }) {
  const [route, setRoute] = useState(parseHash());
  const [menuOpen, setMenuOpen] = useState(false);
  const live = useLiveState();
  // The service's own warnings from /healthz (the built-in admin's default
  // password among them), shown to everyone until they are resolved.
  const [warnings, setWarnings] = useState([]);
  useEffect(() => {
    const load = () => healthz().then((h) => setWarnings(h.warnings ?? []), () => undefined);
    onWarningsChanged.refresh = load;
    void load();
    const t = setInterval(load, 30_000);
    return () => clearInterval(t);
  }, []);
  useEffect(() => {
    const on = () => { setRoute(parseHash()); setMenuOpen(false); };
    addEventListener('hashchange', on);
    return () => removeEventListener('hashchange', on);
  }, []);
  const visible = SCREENS.filter((s) => s.group || allowed(session, s.roles));
  const itemPage = route.path.startsWith('item/');
  const screen = itemPage ? null : visible.find((s) => s.id === route.path);
  const nav = [];
  visible.forEach((s, i) => {
    if (s.group) {
      if (visible[i + 1] && !visible[i + 1].group) nav.push(html`<div class="group">${s.group}</div>`);
      return;
    }
    nav.push(html`<a href=${`#/${s.id}`} aria-current=${route.path === s.id ? 'page' : undefined}>${s.label}</a>`);
  });
  let body;
  if (itemPage && allowed(session, ['DataReader'])) body = html`<${ItemPage} epc=${decodeURIComponent(route.path.slice(5))} session=${session} />`;
  else if (screen) body = html`<${screen.view} session=${session} params=${route.params} kind=${screen.kind} key=${screen.id} />`;
  else body = html`<h1>Not available</h1><p>This screen does not exist or needs a role you do not hold (${session.roles.join(', ') || 'no roles'}).</p>`;
  const current = visible.find((s) => s.id === route.path)?.label ?? (itemPage ? 'Item' : '');
  return html`<div class=${`shell${menuOpen ? ' menu-open' : ''}`}>
    <a class="skip-link" href="#main" onClick=${(e) => { e.preventDefault(); document.getElementById('main')?.focus(); }}>Skip to content</a>
    <header class="top">
      <button class="menu-toggle" aria-expanded=${menuOpen ? 'true' : 'false'} aria-controls="screens-nav" onClick=${() => setMenuOpen(!menuOpen)}>☰ Menu<span class="sr-only">, screen: </span><span class="menu-current"> ${current}</span></button>
      <span class="brand">tagtrail</span>
      <span class="live" aria-live="polite">live: ${live}</span>
      <span class="spacer"></span>
      <span class="whoami" data-testid="whoami">${session.name} (${session.roles.join(', ') || 'no roles'})</span>
      <button onClick=${onLogout}>Log out</button>
    </header>
    <nav class="side" id="screens-nav" aria-label="Screens">${nav}</nav>
    <main id="main" tabindex="-1">
      <${NotAnswering} />
      ${warnings.map((w) => html`<${Warning} text=${w} session=${session} />`)}
      ${body}
    </main>
  </div>`;
}

function App() {
  const [session, setSessionState] = useState(loadSession());
  const setSession = (s) => {
    saveSession(s);
    setAuthorization(s?.authorization ?? null);
    setSessionState(s);
  };
  useEffect(() => {
    setOnUnauthorized(() => setSession(null));
  }, []);
  useEffect(() => {
    if (!session) return undefined;
    startLive(session);
    return () => stopLive();
  }, [session?.authorization]);
  const logout = async () => {
    // An Admin revokes the console's token; other users' tokens stay valid until an Admin revokes them (docs/console.md).
    if (session?.token && session.roles.includes('Admin')) {
      const token = JSON.parse(session.authorization.slice('Token '.length)).token;
      await api('PUT', '/authentication/v1/revokeToken', { body: { token } }).catch(() => undefined);
    }
    setSession(null);
    location.hash = '#/overview';
  };
  if (!session) return html`<${Login} onLogin=${setSession} />`;
  return html`<${Shell} session=${session} onLogout=${logout} />`;
}

document.documentElement.dataset.version = version;
const root = document.getElementById('app');
root.textContent = '';
render(html`<${App} />`, root);
