// GET /metrics during a simulated run: the counters move by what the
// simulator had accepted, the lags of the engine, the read models and the
// relay return to zero once the run is over, and no label holds an id or a
// secret (route templates, not paths). Served on the API port to Admin and,
// with METRICS_PORT, without credentials on a port of its own.
import { expect } from 'chai';
import { silent } from '../support/logger';
import { parseOptions } from '../../src/simulator/options';
import { runSimulation } from '../../src/simulator/run';
import { startTestApp, type TestApp } from '../support/app';
import { sleep } from '../support/wait';

interface Sample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

/** The samples of a text exposition (comments skipped). */
function parseExposition(text: string): Sample[] {
  return text
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})?\s+(\S+)$/.exec(line);
      if (!m) throw new Error(`not a sample line: ${line}`);
      const labels = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((l) => [l[1]!, l[2]!]));
      return { name: m[1]!, labels, value: Number(m[3]) };
    });
}

const sum = (samples: readonly Sample[], name: string, where: (labels: Readonly<Record<string, string>>) => boolean = () => true): number =>
  samples.filter((s) => s.name === name && where(s.labels)).reduce((a, s) => a + s.value, 0);

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

describe('GET /metrics during a simulated run', function () {
  this.timeout(120_000);
  let app: TestApp;

  before(async () => {
    app = await startTestApp({ METRICS_PORT: '0' });
  });
  after(async () => app?.stop());

  /** Scrapes the unauthenticated listener. */
  async function scrape(): Promise<Sample[]> {
    const res = await fetch(app.metricsUrl!);
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.match(/^text\/plain; version=0\.0\.4/);
    return parseExposition(await res.text());
  }

  /** Polls until `done` holds for a scrape (bounded); returns that scrape. */
  async function scrapeUntil(done: (s: Sample[]) => boolean, what: string, timeoutMs = 30_000): Promise<Sample[]> {
    const deadline = Date.now() + timeoutMs;
    let last = await scrape();
    while (!done(last)) {
      if (Date.now() > deadline) throw new Error(`${what} not reached within ${timeoutMs} ms`);
      await sleep(200);
      last = await scrape();
    }
    return last;
  }

  it('counts what the readers delivered, returns the lags to zero, and labels with names and route templates only', async () => {
    // An item queue (the broker expires it once unused), so the relay has messages to publish.
    const queue = await app.request('PUT', '/data/v1/items/queues', { body: {} });
    expect(queue.status, JSON.stringify(queue.body)).to.equal(200);
    const before = await scrape();
    const options = parseOptions(['--url', app.baseUrl, '--demo', '--start-job', '--readers', '2', '--tags', '20', '--seed', '11', '--duration', '6', '--checkin-seconds', '1', '--progress', 'none']);
    const summary = await runSimulation(options, { log: silent });
    expect(summary.lastErrors, summary.lastErrors.join('\n')).to.deep.equal([]);
    expect(summary.totals.reportsAccepted).to.be.greaterThan(0);
    const readers = Object.keys(summary.perReader);
    const ours = (l: Readonly<Record<string, string>>): boolean => readers.includes(l['reader'] ?? '');
    // A path with an id, so that its route template must show instead.
    const job = await app.request('GET', `/control/v1/jobs/show/${summary.jobId}`);
    expect(job.status).to.equal(200);

    const after = await scrapeUntil(
      (s) =>
        sum(s, 'tagtrail_engine_lag_events') === 0 &&
        sum(s, 'tagtrail_relay_lag_events') === 0 &&
        sum(s, 'tagtrail_relay_confirms_outstanding') === 0 &&
        sum(s, 'tagtrail_projection_lag_events') === 0 &&
        sum(s, 'tagtrail_items_changed_total') > sum(before, 'tagtrail_items_changed_total'),
      'engine, relay and read models caught up',
    );
    const delta = (name: string): number => sum(after, name, ours) - sum(before, name, ours);
    expect(delta('tagtrail_tag_reports_accepted_total')).to.equal(summary.totals.reportsAccepted);
    expect(delta('tagtrail_observations_accepted_total')).to.equal(summary.totals.observations);
    expect(delta('tagtrail_tag_reports_refused_total')).to.equal(summary.totals.reportsRefused);
    expect(sum(after, 'tagtrail_engine_lag_seconds')).to.equal(0);
    expect(sum(after, 'tagtrail_relay_lag_seconds')).to.equal(0);
    // The item queue got messages; every one published was confirmed.
    const published = sum(after, 'tagtrail_relay_messages_published_total', (l) => l['kind'] === 'items') - sum(before, 'tagtrail_relay_messages_published_total', (l) => l['kind'] === 'items');
    expect(published).to.be.greaterThan(0);
    expect(sum(after, 'tagtrail_relay_messages_confirmed_total') - sum(before, 'tagtrail_relay_messages_confirmed_total')).to.equal(published);
    expect(sum(after, 'tagtrail_projection_lag_seconds')).to.equal(0);
    expect(after.filter((s) => s.name === 'tagtrail_projection_ready').map((s) => s.value)).to.not.include(0);

    // Each dependency answers; the readers of the run are counted by state and connection kind.
    for (const dependency of ['eventStore', 'redis', 'amqp']) expect(sum(after, 'tagtrail_dependency_up', (l) => l['dependency'] === dependency), dependency).to.equal(1);
    expect(sum(after, 'tagtrail_readers', (l) => l['connection'] === 'AGENT')).to.be.at.least(readers.length);
    expect(sum(after, 'tagtrail_eventstore_append_duration_seconds_count')).to.be.greaterThan(sum(before, 'tagtrail_eventstore_append_duration_seconds_count'));
    expect(sum(after, 'process_cpu_seconds_total')).to.be.greaterThan(0);
    // One latency sample per engine append that changed items.
    expect(sum(after, 'tagtrail_report_to_item_seconds_count')).to.be.greaterThan(sum(before, 'tagtrail_report_to_item_seconds_count'));

    // HTTP by route template: the report route and the job route, never the job's id.
    const routes = new Set(after.filter((s) => s.name === 'tagtrail_http_request_duration_seconds_count').map((s) => s.labels['route']));
    expect([...routes]).to.include('/itemsense/control/v1/jobs/show/:jobId');
    expect([...routes].some((r) => r?.startsWith('/itemsense/agent/v1/'))).to.equal(true);

    // Every sample carries the roles of the process (other apps of this test process may have left theirs); no label value is an id or a path with one.
    const counted = after.filter((s) => s.name === 'tagtrail_observations_accepted_total' && ours(s.labels));
    expect(counted.map((s) => s.labels['roles'])).to.deep.equal(counted.map(() => 'api,eventstore,engine,projections,relay,jobs,readers'));
    for (const s of after) {
      expect(s.labels['roles'], s.name).to.be.a('string').and.not.equal('');
      for (const [label, value] of Object.entries(s.labels)) {
        expect(UUID.test(value), `${s.name} ${label}="${value}"`).to.equal(false);
        expect(value, `${s.name} ${label}`).to.not.include(summary.jobId!);
      }
    }
  });

  it('on the API port, answers Admin only', async () => {
    const anonymous = await app.request('GET', '/metrics', { auth: null });
    expect(anonymous.status).to.equal(401);
    const admin = await app.request('GET', '/metrics');
    expect(admin.status).to.equal(200);
    expect(admin.headers.get('content-type')).to.match(/^text\/plain/);
    expect(parseExposition(String(admin.body)).some((s) => s.name === 'tagtrail_tag_reports_accepted_total' || s.name === 'process_cpu_seconds_total')).to.equal(true);
  });

  it('the metrics listener serves /metrics only', async () => {
    const res = await fetch(app.metricsUrl!.replace(/\/metrics$/, '/healthz'));
    expect(res.status).to.equal(404);
  });
});
