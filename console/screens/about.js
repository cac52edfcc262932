// About: what is running and where it connects (no passwords).
import { html } from '../html.js';
import { get, healthz, version } from '../api.js';
import { Time } from '../format.js';
import { useLoad } from '../live.js';
import { ErrorText } from './common.js';

export function About() {
  const [info, error] = useLoad(() => get('/about/v1/info'));
  const [health] = useLoad(() => healthz());
  const up = info ? `${Math.floor(info.uptimeSeconds / 3600)} h ${Math.floor((info.uptimeSeconds % 3600) / 60)} min` : '';
  return html`<h1>About tagtrail</h1>
  <${ErrorText} error=${error} />
  ${info && html`<table data-testid="about" style="max-width:800px"><tbody>
    <tr><th>Version</th><td>${info.version} (REST interface ${info.apiVersion}; console ${version})</td></tr>
    <tr><th>Commit</th><td><code>${info.commit ?? 'unknown'}</code></td></tr>
    <tr><th>Started</th><td><${Time} iso=${info.startedAt} /> (up ${up})</td></tr>
    <tr><th>Node.js</th><td>${info.node}</td></tr>
    <tr><th>Roles of this process</th><td>${info.roles.join(', ')}</td></tr>
    <tr><th>Data directory</th><td><code>${info.dataDir}</code></td></tr>
    <tr><th>REST root path</th><td><code>${info.rootPath || '/'}</code></td></tr>
    ${Object.entries(info.targets ?? {}).map(([k, v]) => html`<tr><th>${k}</th><td><code>${v}</code> ${health?.[k] ? html`<span class="muted">(${health[k].status})</span>` : ''}</td></tr>`)}
  </tbody></table>`}`;
}
