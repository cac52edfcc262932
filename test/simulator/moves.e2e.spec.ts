// Tags moving between the zones of two location readers, through the whole
// service: the simulator plays examples/scenarios/moves.json (xArrays on one
// floor, xSpans on the other; zones side by side, and zones with unzoned
// floor between them) with a LOCATION job, at 4x. Every move must be one
// zone change, from the zone the tag left to the zone it went to, in the
// history and in an item queue: never FACILITY or another zone on the way,
// where the tag never was (docs/item-processing.md, "LOCATION").
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { silent } from '../support/logger';
import { parseOptions } from '../../src/simulator/options';
import { runSimulation } from '../../src/simulator/run';
import { parseScenario } from '../../src/simulator/scenario';
import { startTestApp, waitForCaughtUp, type TestApp } from '../support/app';
import { consume, type Consumer } from '../queues/support';

const FILE = join(__dirname, '..', '..', 'examples', 'scenarios', 'moves.json');
const scenario = parseScenario(readFileSync(FILE, 'utf8'));

/** Per tag, the zones it stands in, in order: what its history must show. */
const truth = new Map<string, string[]>();
for (const m of [...scenario.moves].sort((a, b) => a.at - b.at)) {
  const zones = truth.get(m.epc) ?? [];
  if (m.zone !== undefined && zones.at(-1) !== m.zone) zones.push(m.zone);
  truth.set(m.epc, zones);
}
const moves = [...truth.values()].reduce((n, zones) => n + zones.length - 1, 0);

interface Transition {
  readonly epc: string;
  readonly fromZone: string;
  readonly toZone: string;
}

/** The tags whose transitions, in order, are not ABSENT > first zone, then one per move: epc -> what they were. */
function mismatches(records: readonly Transition[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [epc, zones] of truth) {
    const got = records.filter((r) => r.epc === epc).map((r) => `${r.fromZone}>${r.toZone}`);
    const expected = zones.map((z, i) => `${i === 0 ? 'ABSENT' : zones[i - 1]}>${z}`);
    if (got.join(' ') !== expected.join(' ')) out[epc] = `expected ${expected.join(' ')}, got ${got.join(' ')}`;
  }
  return out;
}

const SETTINGS: ReadonlyArray<readonly [string, readonly string[]]> = [
  ['default settings', []],
  ['noisy settings (lost answers, dropped reads, clock offsets)', ['--faults', 'network=0.3,dropped-reads=0.2,ntp=0.1']],
];

describe('LOCATION: moves between readers\' zones, simulated end to end', function () {
  this.timeout(120_000);
  let app: TestApp | undefined;
  let queue: Consumer | undefined;
  afterEach(async () => {
    await queue?.close();
    await app?.stop();
  });

  it('the scenario moves tags between neighbouring zones and across unzoned floor, on both reader families', () => {
    expect(moves).to.be.at.least(80);
    expect(new Set(scenario.layout.readers.map((r) => r.family))).to.deep.equal(new Set(['XARRAY', 'XSPAN']));
  });

  for (const [label, extra] of SETTINGS) {
    it(`${moves} moves between readers (xArray and xSpan), ${label}: one zone change each in the history and the item queue, nothing between`, async () => {
      app = await startTestApp();
      const configured = await app.request('PUT', '/data/v1/items/queues', { body: {} });
      expect(configured.status, JSON.stringify(configured.body)).to.equal(200);
      queue = await consume(configured.body.queue as string);
      const args = ['--url', app.baseUrl, '--demo', '--scenario', FILE, '--start-job', '--recipe', 'sim-location', '--time-scale', '4', '--checkin-seconds', '1', '--progress', 'none', '--seed', '5', ...extra];
      const summary = await runSimulation(parseOptions(args), { log: silent });
      expect(summary.lastErrors, summary.lastErrors.join('\n')).to.deep.equal([]);
      expect(summary.totals.reportsAccepted).to.be.greaterThan(6 * 10);

      await waitForCaughtUp(app);
      const res = await app.request('GET', `/data/v1/items/show/history?jobId=${summary.jobId}&pageSize=1000`);
      expect(res.status).to.equal(200);
      expect(res.body.nextPageMarker).to.equal(null);
      const history = res.body.history as Transition[];
      expect(mismatches(history), 'history').to.deep.equal({});

      const received = await queue.until(history.length);
      expect(mismatches(received.map((m) => m.body as Transition)), 'item queue').to.deep.equal({});
    });
  }
});
