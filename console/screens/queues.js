// AMQP queues: configure an item, health or threshold queue with its filter;
// the configured queues with their filter and what the broker says of each
// (messages waiting, consumers), refreshed every 5 s; delete.
import { useEffect, useState } from 'preact/hooks';
import { html } from '../html.js';
import { api, get } from '../api.js';
import { num, Time } from '../format.js';
import { useLoad } from '../live.js';
import { ErrorText } from './common.js';

const KINDS = {
  items: { path: '/data/v1/items/queues', fields: ['fromFacility', 'toFacility', 'fromZone', 'toZone', 'epc', 'jobId', 'distance'] },
  health: { path: '/health/v1/events/queues', fields: ['readerName', 'type', 'code'] },
  threshold: { path: '/data/v1/items/queues/threshold', fields: ['threshold', 'jobId'] },
};

const filterText = (f) => Object.entries(f).map(([k, v]) => `${k}=${v}`).join(', ') || 'everything';

export function Queues({ session }) {
  const [kind, setKind] = useState('items');
  const [form, setForm] = useState({});
  const [persistent, setPersistent] = useState(true);
  const [error, setError] = useState(null);
  const [message, setMessage] = useState('');
  const [queues, listError, reload] = useLoad(() => get('/queues/v1/show'));
  useEffect(() => {
    const t = setInterval(() => void reload(), 5000);
    return () => clearInterval(t);
  }, []);
  const submit = async (e) => {
    e.preventDefault();
    const body = {};
    for (const f of KINDS[kind].fields) if (form[f]) body[f] = f === 'distance' ? Number(form[f]) : form[f];
    if (kind === 'items' && form.allMoves) body.zoneTransitionsOnly = false;
    try {
      const q = await api('PUT', KINDS[kind].path, { body, query: { deliveryMode: persistent ? 'PERSISTENT' : 'NON_PERSISTENT' } });
      setMessage(`Configured ${q.queue}: consume it at ${q.serverUrl}.`);
      setError(null);
      setForm({});
      await reload();
    } catch (err) { setError(err); }
  };
  const destroy = async (q) => {
    if (!confirm(`Delete queue ${q.queue}? Its consumers are cancelled and its messages dropped.`)) return;
    try {
      await api('DELETE', `/queues/v1/destroy/${encodeURIComponent(q.queue)}`);
      setMessage(`Deleted ${q.queue}.`);
      setError(null);
      await reload();
    } catch (err) { setError(err); }
  };
  const fieldError = (f) => error?.errors?.find((x) => x.path === `body.${f}`);
  const admin = session.roles.includes('Admin');
  return html`<h1>Queues</h1>
  <p class="muted">Each configuration makes a new queue on RabbitMQ; consume it by name at the server URL with your tagtrail user.</p>
  <form class="filters" onSubmit=${submit} data-testid="queue-form">
    <label>Kind<select name="kind" value=${kind} onChange=${(e) => { setKind(e.target.value); setForm({}); }}>${Object.keys(KINDS).map((k) => html`<option>${k}</option>`)}</select></label>
    ${KINDS[kind].fields.map((f) => html`<label>${f}<input name=${f} value=${form[f] ?? ''} onInput=${(e) => setForm({ ...form, [f]: e.target.value })} aria-invalid=${!!fieldError(f)} />${fieldError(f) && html`<span class="field-error" data-testid=${`error-${f}`}>${fieldError(f).reason}</span>`}</label>`)}
    ${kind === 'items' && html`<label style="flex-direction:row;align-items:center;gap:.3rem"><input type="checkbox" checked=${!!form.allMoves} onChange=${(e) => setForm({ ...form, allMoves: e.target.checked })} />moves inside zones too</label>`}
    <label style="flex-direction:row;align-items:center;gap:.3rem"><input type="checkbox" checked=${persistent} onChange=${(e) => setPersistent(e.target.checked)} />persistent</label>
    <button class="primary" type="submit">Configure queue</button>
  </form>
  <${ErrorText} error=${error} />
  ${message && html`<p role="status">${message}</p>`}
  <h2>Configured queues ${admin ? '(every user\'s)' : '(yours)'}</h2>
  <${ErrorText} error=${listError} />
  ${queues && queues.length === 0 ? html`<p class="muted">None.</p>` : html`<div class="table-wrap" tabindex="0" role="region" aria-label="Configured queues"><table data-testid="queues-table"><thead><tr><th>Queue</th><th>Kind</th><th>Filter</th><th>Delivery</th><th>Configured</th><th>Broker</th><th class="num">Messages</th><th class="num">Consumers</th><th></th></tr></thead>
  <tbody>${(queues ?? []).map((q) => html`<tr data-queue=${q.queue}>
    <td style="white-space:normal;word-break:break-all;min-width:12rem;max-width:18rem"><code title=${q.serverUrl}>${q.queue}</code></td><td>${q.kind}</td><td class="muted" style="white-space:normal">${filterText(q.filter)}</td>
    <td>${q.deliveryMode === 'PERSISTENT' ? 'persistent' : 'non-persistent'}</td>
    <td><${Time} iso=${q.configuredAt} /><br /><span class="muted">by ${q.user}</span></td>
    <td><span class=${`pill ${q.broker === 'DECLARED' ? 'ok' : q.broker === 'ABSENT' ? 'warn' : 'bad'}`} title=${q.broker === 'ABSENT' ? 'expired unused; declared again by the next matching message' : ''}>${q.broker.toLowerCase()}</span></td>
    <td class="num" data-testid="messages">${num(q.messageCount)}</td><td class="num" data-testid="consumers">${num(q.consumerCount)}</td>
    <td><button class="danger" onClick=${() => destroy(q)} aria-label=${`Delete ${q.queue}`}>Delete</button></td></tr>`)}</tbody></table></div>`}`;
}
