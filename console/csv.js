// CSV downloads of a paged query: every server page in turn (until the
// caller's `cancel.stop`), one row per record with the named columns, handed
// to the browser as a file. Nothing is kept on the server.
const cell = (v) => (v === null || v === undefined ? '' : /[",\n]/.test(String(v)) ? `"${String(v).replace(/"/g, '""')}"` : String(v));

/** `fetchPage(marker)` answers `{rows, next}`; `onProgress(n)` after each page. */
export async function exportPagedCsv(fileName, columns, fetchPage, onProgress, cancel) {
  const lines = [columns.join(',')];
  let marker;
  do {
    const { rows, next } = await fetchPage(marker);
    for (const r of rows) lines.push(columns.map((c) => cell(r[c])).join(','));
    onProgress(lines.length - 1);
    marker = next;
  } while (marker && !cancel.stop);
  const a = document.createElement('a');
  a.href = URL.createObjectURL(new Blob([lines.join('\n') + '\n'], { type: 'text/csv' }));
  a.download = fileName;
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
}
