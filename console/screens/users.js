// Users, roles and tokens (Admin). Changing the admin password here ends the default-password warning.
import { useState } from 'preact/hooks';
import { html } from '../html.js';
import { api, get, loadSession } from '../api.js';
import { Time } from '../format.js';
import { onWarningsChanged, useLoad } from '../live.js';
import { ErrorText } from './common.js';

const ROLES = ['Admin', 'ConfigManager', 'DataReader', 'JobRunner'];

// The service's password policy, as far as it can be told without its list
// of common passwords: a hint while typing; the service's answer is the word.
const MIN_PASSWORD = 12;
const MAX_PASSWORD = 256;
const PASSWORD_RULE = `${MIN_PASSWORD} to ${MAX_PASSWORD} characters; not the user name, not a common password. A phrase of a few words is easy to remember.`;

/** What is wrong with a new password as typed so far, or null (an empty one: nothing typed yet). */
function passwordHint(password, name) {
  if (!password) return null;
  const n = [...password].length;
  if (n < MIN_PASSWORD) return `must be at least ${MIN_PASSWORD} characters, ${n} so far`;
  if (n > MAX_PASSWORD) return `must be at most ${MAX_PASSWORD} characters, got ${n}`;
  if (password.toLowerCase() === name.toLowerCase()) return 'must not be the user name';
  return null;
}

function Tokens({ name }) {
  const [tokens, error, reload] = useLoad(() => get(`/authentication/v1/listTokens/${encodeURIComponent(name)}`).catch((e) => (e.status === 404 ? [] : Promise.reject(e))), [name]);
  const [issued, setIssued] = useState(null);
  const issue = async () => { setIssued((await api('PUT', `/authentication/v1/token/${encodeURIComponent(name)}`)).token); await reload(); };
  const revoke = async (token) => {
    // The console's own token: revoking it logs this console out, so it is asked first.
    const own = loadSession()?.authorization === `Token ${JSON.stringify({ token })}`;
    if (own && !confirm('This is the token this console is logged in with. Revoke it and log out?')) return;
    await api('PUT', '/authentication/v1/revokeToken', { body: { token } });
    await reload();
  };
  return html`<div><h2>Tokens of ${name}</h2><${ErrorText} error=${error} />
    <button onClick=${issue}>Issue a token</button> ${issued && html`<span>New token (shown once): <code data-testid="issued-token">${issued}</code></span>`}
    <table><thead><tr><th>Token</th><th>Issued</th><th>Last used</th><th>Valid</th><th></th></tr></thead>
    <tbody>${(tokens ?? []).map((t) => html`<tr><td><code>${t.authenticationToken.token.slice(0, 8)}…</code></td><td><${Time} iso=${t.issued} /></td><td><${Time} iso=${t.lastUsed} /></td><td>${t.valid ? 'yes' : 'revoked'}</td><td>${t.valid && html`<button class="danger" onClick=${() => revoke(t.authenticationToken.token)}>Revoke</button>`}</td></tr>`)}</tbody></table></div>`;
}

export function Users() {
  const [users, error, reload] = useLoad(() => get('/configuration/v1/users/show'));
  const [form, setForm] = useState({ name: '', password: '', roles: [] });
  const [editing, setEditing] = useState(false);
  const [formError, setFormError] = useState(null);
  /** The password the last refused submit sent: the service's reason stands for it, not for one typed since. */
  const [refusedPassword, setRefusedPassword] = useState(null);
  const [tokensOf, setTokensOf] = useState(null);
  const save = async (e) => {
    e.preventDefault();
    try {
      await api(editing ? 'PUT' : 'POST', `/configuration/v1/users/${editing ? 'createOrReplace' : 'create'}`, { body: { name: form.name, roles: form.roles, ...(form.password ? { password: form.password } : {}) } });
      if (form.password) onWarningsChanged.refresh();
      setForm({ name: '', password: '', roles: [] });
      setEditing(false);
      setFormError(null);
      await reload();
    } catch (err) { setRefusedPassword(form.password); setFormError(err); }
  };
  const destroy = async (name) => {
    if (!confirm(`Delete user ${name} and revoke its tokens?`)) return;
    try { await api('DELETE', `/configuration/v1/users/destroy/${encodeURIComponent(name)}`); await reload(); } catch (err) { setFormError(err); }
  };
  const fieldError = (f) => (formError?.errors ?? []).filter((x) => x.path === `body.${f}` || x.path.startsWith(`body.${f}.`));
  // The service's reason (after a submit) until the password is edited, then the hint for what is typed.
  const sent = refusedPassword === form.password ? fieldError('password').map((x) => x.reason) : [];
  const hint = passwordHint(form.password, form.name);
  const passwordErrors = sent.length ? sent : hint ? [hint] : [];
  const toggleRole = (r) => setForm({ ...form, roles: form.roles.includes(r) ? form.roles.filter((x) => x !== r) : [...form.roles, r] });
  return html`<h1>Users, roles and tokens</h1>
  <${ErrorText} error=${error} />
  <form class="filters" onSubmit=${save} data-testid="user-form">
    <label>Name<input name="name" value=${form.name} readOnly=${editing} onInput=${(e) => setForm({ ...form, name: e.target.value })} />${fieldError('name').map((x) => html`<span class="field-error">${x.reason}</span>`)}</label>
    <label>${editing ? 'New password (empty: keep)' : 'Password'}<input name="password" type="password" autocomplete="new-password" value=${form.password} onInput=${(e) => setForm({ ...form, password: e.target.value })} aria-invalid=${passwordErrors.length > 0} aria-describedby="password-rule password-error" />
      <span class="muted field-note" id="password-rule">${PASSWORD_RULE}</span>
      <span class="field-error" id="password-error" data-testid=${passwordErrors.length ? 'error-password' : undefined} aria-live="polite">${passwordErrors.join('; ')}</span></label>
    <fieldset class="row" style="border:none;padding:0"><legend class="sr-only">Roles</legend>${ROLES.map((r) => html`<label style="flex-direction:row;align-items:center;gap:.2rem"><input type="checkbox" name=${`role-${r}`} checked=${form.roles.includes(r)} onChange=${() => toggleRole(r)} />${r}</label>`)}</fieldset>
    <button class="primary" type="submit">${editing ? 'Save user' : 'Create user'}</button>
    ${editing && html`<button type="button" onClick=${() => { setEditing(false); setForm({ name: '', password: '', roles: [] }); setFormError(null); }}>Cancel</button>`}
  </form>
  ${formError && !formError.errors?.length ? html`<p class="error" role="alert">${formError.message}</p>` : ''}
  <table data-testid="users-table"><thead><tr><th>Name</th><th>Roles</th><th></th></tr></thead>
  <tbody>${(users ?? []).map((u) => html`<tr><td>${u.name}</td><td>${u.roles.join(', ') || html`<span class="muted">none</span>`}</td><td>
    <button onClick=${() => { setEditing(true); setForm({ name: u.name, password: '', roles: u.roles }); }}>Edit</button>
    <button onClick=${() => setTokensOf(u.name)}>Tokens</button>
    <button class="danger" onClick=${() => destroy(u.name)}>Delete</button></td></tr>`)}</tbody></table>
  ${tokensOf && html`<${Tokens} name=${tokensOf} key=${tokensOf} />`}`;
}
