// Form controls shared by screens over a paged query: the EPC format and
// page size choices, and a CSV download of the whole filtered set with its
// progress and a stop button.
import { useState } from 'preact/hooks';
import { html } from '../html.js';
import { exportPagedCsv } from '../csv.js';
import { PAGE_SIZES } from './common.js';

const EPC_FORMATS = ['', 'PURE_ID', 'TAG', 'RAW', 'UPC12', 'DEFAULT'];

/** A labelled select of `options` ([value, text] pairs). */
export const SelectField = ({ label, name, value, options, onChange }) =>
  html`<label>${label}<select name=${name} value=${value} onChange=${(e) => onChange(e.target.value)}>${options.map(([v, text]) => html`<option value=${v}>${text}</option>`)}</select></label>`;

export const EpcFormatField = ({ value, onChange }) =>
  html`<${SelectField} label="EPC format" name="epcFormat" value=${value ?? ''} options=${EPC_FORMATS.map((v) => [v, v || 'raw hex'])} onChange=${onChange} />`;

export const PageSizeField = ({ value, onChange }) =>
  html`<${SelectField} label="Page size" name="pageSize" value=${value} options=${PAGE_SIZES.map((n) => [n, n.toLocaleString()])} onChange=${(v) => onChange(Number(v))} />`;

/**
 * "Download CSV": every page of `fetchPage(marker)` -> {rows, next} into
 * `fileName()` with `columns`; rows so far and Stop while it runs; `onError`
 * gets a failure.
 */
export function CsvDownload({ fileName, columns, fetchPage, onError }) {
  const [running, setRunning] = useState(null); // {n, cancel}
  const start = async () => {
    const cancel = { stop: false };
    onError(null);
    setRunning({ n: 0, cancel });
    try {
      await exportPagedCsv(fileName(), columns, fetchPage, (n) => setRunning({ n, cancel }), cancel);
    } catch (err) {
      onError(err);
    } finally {
      setRunning(null);
    }
  };
  return html`<button type="button" onClick=${start} disabled=${!!running}>Download CSV</button>
    ${running && html`<span>${running.n} rows… <button type="button" onClick=${() => { running.cancel.stop = true; }}>Stop</button></span>`}`;
}
