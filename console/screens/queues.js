// AMQP queues: configure an item, health or threshold queue with its filter;
// the answer says where to consume it.
import { useState } from 'preact/hooks';
import { html } from '../html.js';
import { api } from '../api.js';
import { ErrorText } from './common.js';

const KINDS = {
  items: { path: '/data/v1/items/queues', fields: ['fromFacility', 'toFacility', 'fromZone', 'toZone', 'epc', 'jobId', 'distance'] },
  health: { path: '/health/v1/events/queues', fields: ['readerName', 'type', 'code'] },
  threshold: { path: '/data/v1/items/queues/threshold', fields: ['threshold', 'jobId'] },
};

export function Queues() {
  const [kind, setKind] = useState('items');
  const [form, setForm] = useState({});
  const [persistent, setPersistent] = useState(true);
  const [made, setMade] = useState([]);
  const [error, setError] = useState(null);
  const submit = async (e) => {
    e.preventDefault();
    const body = {};
    for (const f of KINDS[kind].fields) if (form[f]) body[f] = f === 'distance' || f === 'threshold' ? Number(form[f]) : form[f];
    if (kind === 'items' && form.allMoves) body.zoneTransitionsOnly = false;
    try {
      const q = await api('PUT', KINDS[kind].path, { body, query: { deliveryMode: persistent ? 'PERSISTENT' : 'NON_PERSISTENT' } });
      setMade([{ kind, body, ...q, at: new Date().toISOString() }, ...made]);
      setError(null);
    } catch (err) { setError(err); }
  };
  const fieldError = (f) => error?.errors?.find((x) => x.path === `body.${f}`);
  return html`<h1>Queues</h1>
  <p class="muted">Each configuration makes a new queue on RabbitMQ; consume it by name at the server URL with your tagtrail user. The service keeps no list of them for clients: note the names below.</p>
  <form class="filters" onSubmit=${submit}>
    <label>Kind<select value=${kind} onChange=${(e) => { setKind(e.target.value); setForm({}); }}>${Object.keys(KINDS).map((k) => html`<option>${k}</option>`)}</select></label>
    ${KINDS[kind].fields.map((f) => html`<label>${f}<input value=${form[f] ?? ''} onInput=${(e) => setForm({ ...form, [f]: e.target.value })} />${fieldError(f) && html`<span class="field-error">${fieldError(f).reason}</span>`}</label>`)}
    ${kind === 'items' && html`<label style="flex-direction:row;align-items:center;gap:.3rem"><input type="checkbox" checked=${!!form.allMoves} onChange=${(e) => setForm({ ...form, allMoves: e.target.checked })} />moves inside zones too</label>`}
    <label style="flex-direction:row;align-items:center;gap:.3rem"><input type="checkbox" checked=${persistent} onChange=${(e) => setPersistent(e.target.checked)} />persistent</label>
    <button class="primary" type="submit">Configure queue</button>
  </form>
  <${ErrorText} error=${error} />
  <table><thead><tr><th>Kind</th><th>Queue</th><th>Server</th><th>Filter</th></tr></thead>
  <tbody>${made.map((q) => html`<tr><td>${q.kind}</td><td><code>${q.queue}</code></td><td><code>${q.serverUrl}</code></td><td class="muted">${JSON.stringify(q.body)}</td></tr>`)}</tbody></table>`;
}
