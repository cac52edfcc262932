// The retained log lines of a time range, as GET /support/v1/logs exports
// them (a gzipped NDJSON attachment), parsed.
import { expect } from 'chai';
import { gunzipSync } from 'node:zlib';
import { ADMIN, type TestApp } from './app';

/** `query`: the query string, e.g. `?from=...`. */
export async function retainedLogLines(app: TestApp, query: string): Promise<Array<Record<string, unknown>>> {
  const res = await fetch(`${app.baseUrl}/support/v1/logs${query}`, { headers: { Authorization: ADMIN } });
  expect(res.status).to.equal(200);
  expect(res.headers.get('content-type')).to.equal('application/gzip');
  expect(res.headers.get('content-disposition')).to.match(/^attachment; filename="tagtrail-logs-.*\.ndjson\.gz"$/);
  const text = gunzipSync(Buffer.from(await res.arrayBuffer())).toString('utf8');
  return text.split('\n').filter((l) => l.length).map((l) => JSON.parse(l) as Record<string, unknown>);
}
