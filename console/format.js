// Numbers and times as people read them: times in the browser's zone with
// the UTC instant on hover, ages instead of stale words, confidence to 2 decimals.
import { html } from './html.js';

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'short', timeStyle: 'medium' });

export function Time({ iso }) {
  if (!iso) return html`<span class="muted">–</span>`;
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return html`<time datetime=${d.toISOString()} title=${`${d.toISOString()} (UTC)`}>${dateTime.format(d)}</time>`;
}

export function age(iso, now = Date.now()) {
  if (!iso) return 'never';
  const s = Math.max(0, Math.round((now - new Date(iso).getTime()) / 1000));
  if (s < 60) return `${s} s ago`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${s % 60} s ago`;
  if (s < 86400) return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min ago`;
  return `${Math.floor(s / 86400)} d ago`;
}

export function Age({ iso, warnAfter = 30, badAfter = 120 }) {
  const s = iso ? (Date.now() - new Date(iso).getTime()) / 1000 : Infinity;
  const cls = s > badAfter ? 'bad' : s > warnAfter ? 'warn' : 'ok';
  return html`<span class=${`pill ${cls}`} title=${iso ? `${iso} (UTC)` : 'never checked in'}>${age(iso)}</span>`;
}

export const confidence = (v) => (typeof v === 'number' ? v.toFixed(2) : v ?? '–');
export const num = (v) => (typeof v === 'number' ? v.toLocaleString() : '–');
export const metres = (v) => (typeof v === 'number' ? v.toFixed(2) : '–');

// A stop someone asked for (STOPPED) is an end, not a failure: no colour.
export function StatusPill({ status }) {
  const cls = /HEALTHY|RUNNING|COMPLETED|ok|IDLE|ready/.test(status ?? '') ? 'ok' : /WARNING|WAITING|STARTING|STOPPING|INITIALIZING|IN_PROGRESS|AWAITING|rebuilding/.test(status ?? '') ? 'warn' : /FAILED|ERROR|down|NOT_RESPONDING|lost/.test(status ?? '') ? 'bad' : '';
  return html`<span class=${`pill ${cls}`}>${status ?? '–'}</span>`;
}

/**
 * A reader's connection status, which only its check-ins report: for a
 * reader that stopped checking in (NOT_RESPONDING) the last reported status
 * says nothing about now, so it is shown as unknown rather than HEALTHY.
 */
export function ConnectionPill({ reader }) {
  if (reader.state === 'NOT_RESPONDING') return html`<span class="pill" title=${`last reported: ${reader.connectionStatus?.status ?? '–'}`}>unknown (no check-in)</span>`;
  return html`<${StatusPill} status=${reader.connectionStatus?.status} />`;
}
