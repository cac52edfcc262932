// Small pieces several screens share.
import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import { html } from '../html.js';

export const has = (session, ...roles) => session.roles.includes('Admin') || roles.some((r) => session.roles.includes(r));

export function ErrorText({ error }) {
  if (!error) return null;
  return html`<div class="error" role="alert">${error.message}${error.errors?.length ? html`<ul>${error.errors.map((e) => html`<li><code>${e.path}</code>: ${e.reason}</li>`)}</ul>` : null}</div>`;
}

/** A small uPlot line chart; `series`: [{label, values}], x = seconds (epoch). */
export function Spark({ xs, series, height = 120, testid }) {
  const ref = useRef(null);
  const plot = useRef(null);
  useEffect(() => {
    const opts = {
      width: Math.max(200, ref.current.clientWidth), height,
      legend: { show: false }, cursor: { show: false },
      scales: { x: { time: true } },
      axes: [{ space: 60 }, { size: 40 }],
      series: [{}, ...series.map((s, i) => ({ label: s.label, stroke: ['#1b63d6', '#c27a00', '#1a8a4a'][i % 3], width: 1.5 }))],
    };
    plot.current = new uPlot(opts, [xs, ...series.map((s) => s.values)], ref.current);
    return () => plot.current.destroy();
  }, [series.length]);
  useEffect(() => {
    plot.current?.setData([xs, ...series.map((s) => s.values)]);
  });
  const colours = ['#1b63d6', '#c27a00', '#1a8a4a'];
  return html`<div data-testid=${testid}><div ref=${ref}></div>
    <div class="legend">${series.map((s, i) => html`<span style=${`margin-right:1rem;color:${colours[i % 3]}`}>■ ${s.label}: ${Number(s.values[s.values.length - 2] ?? 0).toFixed(1)}</span>`)}</div></div>`;
}

/** Pages of a paged query, forward by marker and back by the markers kept. */
export function Pager({ page, markers, onPrev, onNext, busy }) {
  return html`<div class="row">
    <button onClick=${onPrev} disabled=${busy || markers.length === 0}>‹ Previous</button>
    <span class="muted">page ${markers.length + 1}</span>
    <button onClick=${onNext} disabled=${busy || !page?.nextPageMarker}>Next ›</button>
  </div>`;
}
