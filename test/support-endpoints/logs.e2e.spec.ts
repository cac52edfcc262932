// Support: log export of a time range from the retained log file, and the
// (for now empty) iteration data; bad parameters are 400s naming them.
import { expect } from 'chai';
import { startTestApp, type TestApp } from '../support/app';
import { retainedLogLines } from '../support/retained-log';

const logLines = retainedLogLines;

describe('support: logs and iteration data', function () {
  this.timeout(60_000);
  let app: TestApp;
  before(async () => {
    app = await startTestApp();
  });
  after(async () => app?.stop());

  it('exports the retained structured log lines of a range, oldest first', async () => {
    const start = new Date(Date.now() - 60_000).toISOString();
    const facility = `logs-${Math.random().toString(36).slice(2, 8)}`;
    expect((await app.request('POST', '/configuration/v1/facilities/create', { body: { name: facility } })).status).to.equal(200);
    await app.request('GET', '/configuration/v1/facilities/show');
    const lines = await logLines(app, `?from=${encodeURIComponent(start)}`);
    expect(lines.some((l) => l['msg'] === 'starting')).to.equal(true);
    // What changed is logged at info (with who did it); the requests themselves are debug, so not retained here.
    expect(lines.find((l) => l['msg'] === 'configuration changed' && l['stream'] === `facility-${facility}`)).to.include({ level: 'info', user: 'admin' });
    expect(lines.some((l) => l['msg'] === 'request')).to.equal(false);
    const times = lines.map((l) => String(l['time']));
    expect([...times].sort()).to.deep.equal(times);
    expect(lines.every((l) => l['level'] !== 'debug')).to.equal(true);
    const future = new Date(Date.now() + 3_600_000).toISOString();
    expect(await logLines(app, `?from=${encodeURIComponent(future)}&to=${encodeURIComponent(future)}&extended=true`)).to.deep.equal([]);
  });

  it('answers 400 naming from, to or extended when they are bad', async () => {
    const bad = await app.request('GET', '/support/v1/logs?from=yesterday&extended=maybe');
    expect(bad.status).to.equal(400);
    expect(bad.body.errors.map((e: { path: string }) => e.path)).to.deep.equal(['query.from', 'query.extended']);
    const reversed = await app.request('GET', '/support/v1/logs?from=2026-01-02T00:00:00Z&to=2026-01-01T00:00:00Z');
    expect(reversed.status).to.equal(400);
    expect(reversed.body.errors[0]).to.include({ path: 'query.from' });
  });

  it('iteration data is empty until threshold processing records iterations; bad times are 400', async () => {
    const res = await app.request('GET', '/support/v1/iterationData?jobId=j1&fromTime=2026-01-01T00:00:00Z');
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({ iterations: [] });
    const bad = await app.request('GET', '/support/v1/iterationData?toTime=soon');
    expect(bad.status).to.equal(400);
    expect(bad.body.errors[0]).to.include({ path: 'query.toTime' });
  });
});
