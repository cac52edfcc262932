// The item engine's output is a function of the log: a job run through
// configuration changes (zone map, reader placement, recipe), a Redis loss
// (items expire and reports are placed meanwhile) and two engine restarts, then `npm run replay -- engine` (replayEngine)
// runs the engine again over the log and must find every recorded item
// change identical. The control: the same replay with today's configuration
// for every job (what an engine reading the configuration read model would
// do) must find a difference, or the test could not fail.
import { EventStoreDBClient } from '@eventstore/db-client';
import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readStream } from '../../src/core/eventstore';
import { ENGINE_STREAM, itemEvents } from '../../src/engine';
import { replayEngine } from '../../src/engine/replay';
import { parseReplayArgs, replaySummary } from '../../scripts/replay';
import { startTestApp, waitForCaughtUp, type TestApp } from '../support/app';
import { SkewClock } from '../support/clock';
import { silent } from '../support/logger';
import { startOwnRedis, type OwnRedis } from '../support/redis-server';
import { testRedisPrefix } from '../support/redis-prefix';
import { sleep, waitForValue } from '../support/wait';
import { expectStatus } from '../readerconfigurations/e2e-support';
import { epc, startLiveJob, type LiveJob } from './live-job';

const floor1 = (x: number) => ({ x, y: 5, z: 0, yaw: 0, pitch: 0, roll: 0, floor: '1' });
const box = (name: string, x0: number, x1: number) => ({ name, floor: '1', points: [{ x: x0, y: 0 }, { x: x1, y: 0 }, { x: x1, y: 10 }, { x: x0, y: 10 }] });

describe('engine replay: the output is a function of the log (npm run replay -- engine)', function () {
  this.timeout(300_000);
  const dataDir = mkdtempSync(join(tmpdir(), 'tagtrail-replay-'));
  const clock = new SkewClock();
  let redis: OwnRedis;
  let env: Record<string, string>;
  let app: TestApp | undefined;
  let job: LiveJob;
  let client: EventStoreDBClient | undefined;

  before(async () => {
    redis = await startOwnRedis();
    // Snapshots every few changes: the restarts start from one and replay the output after it.
    env = { DATA_DIR: dataDir, REDIS_URL: redis.url, REDIS_KEY_PREFIX: testRedisPrefix(), JOB_ACK_TIMEOUT_SECONDS: '60', ENGINE_SNAPSHOT_EVERY_CHANGES: '15' };
  });
  after(async () => {
    try {
      await client?.dispose();
      if (!redis.running) await redis.start();
      await app?.stop();
    } finally {
      await redis?.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  const store = (): EventStoreDBClient => {
    if (client === undefined) throw new Error('no store client yet');
    return client;
  };
  const restart = async (): Promise<void> => {
    await client?.dispose();
    await app?.stop({ keepRedis: true });
    app = await startTestApp(env, { clock });
    client = EventStoreDBClient.connectionString(app.eventStoreConnectionString);
  };
  const live = (): TestApp => {
    if (app === undefined) throw new Error('no app');
    return app;
  };
  /** One round: r1 reads EPCs 0-9, r2 EPCs 10-19 (unless told otherwise), then the compute window passes. */
  const round = async (readers: ReadonlyArray<'r1' | 'r2'> = ['r1', 'r2']): Promise<void> => {
    for (const reader of readers) {
      const base = reader === 'r1' ? 0 : 10;
      await job.report(reader, Array.from({ length: 10 }, (_, k) => ({ epc: epc(base + k) })), clock.now(), live());
    }
    clock.advance(1100);
  };
  const changes = async () => (await readStream(store(), ENGINE_STREAM, itemEvents)).events.flatMap((e) => e.data.changes);

  it('zone map changed, reader moved, recipe changed, Redis lost (ingestion and expiry go on), two restarts: the replay finds every decision identical; with today\'s configuration it does not', async () => {
    await restart();
    expectStatus(await live().request('POST', '/configuration/v1/zoneMaps/create', { body: { name: 'hall', zones: [box('WEST', 0, 5), box('EAST', 5, 10)] } }), 200);
    expectStatus(await live().request('POST', '/control/v1/currentZoneMap/select/hall'), 200);
    job = await startLiveJob(live(), {
      type: 'INVENTORY',
      readers: [{ name: 'r1', placement: floor1(2) }, { name: 'r2', placement: floor1(8) }],
      recipe: { reportingInterval: 1, computeWindow: 1 },
    });
    await round();
    await round();

    // The zone map changes: EAST becomes MIDDLE (r2's tags move there from their next read on).
    expectStatus(await live().request('PUT', '/configuration/v1/zoneMaps/createOrReplace', { body: { name: 'hall', zones: [box('WEST', 0, 5), box('MIDDLE', 5, 10)] } }), 200);
    await round();
    await restart(); // engine restart 1 (a snapshot at the stop, the output after it)
    await round();

    // r1 moves next to r2: its tags leave WEST for MIDDLE, at x 8.
    expectStatus(await live().request('PUT', '/configuration/v1/readerDefinitions/createOrReplace', { body: { name: 'r1', placement: floor1(8) } }), 200);
    await round();

    // The recipe gains a 3 s tag expiry: r2's tags, no longer read, expire by the passing of time alone.
    expectStatus(await live().request('PUT', '/configuration/v1/recipes/createOrReplace', { body: { name: 'rec', type: 'INVENTORY', readerConfigurationName: 'rc', reportingInterval: 1, computeWindow: 1, tagExpiryDuration: 'PT3S' } }), 200);
    await round(['r1']);
    await waitForCaughtUp(live());

    // Redis is lost. Ingestion goes on: r1's report sent meanwhile is taken and placed (its tags seen at that
    // report, whether they were still there or had expired already on a slow machine). The engine goes on too
    // (its clock ticks come from the log): once no tag is read for 4 s, r1's tags expire while Redis is away,
    // by the last read of that report.
    await redis.kill();
    const killedAt = clock.now().getTime();
    const seenBefore = (await changes()).length;
    await round(['r1']);
    clock.advance(4000);
    const r1 = new Set(Array.from({ length: 10 }, (_, k) => epc(k)));
    // Last seen at the report sent while Redis was away: expired 3 s after it. (On a slow machine the tags may
    // expire once before that report is placed, by their read before the kill, and come back with it.)
    const expiredMeanwhile = await waitForValue(
      "r1's tags expired while Redis is away, by the report sent meanwhile",
      async () => (await changes()).slice(seenBefore).filter((c) => c.kind === 'EXPIRED' && r1.has(c.epc) && c.observationTime >= killedAt + 3000),
      (c) => new Set(c.map((x) => x.epc)).size >= 10,
      { timeoutMs: 30_000, intervalMs: 200 },
    );
    expect([...new Set(expiredMeanwhile.map((c) => c.epc))].sort()).to.deep.equal([...r1].sort());
    expect(redis.running, 'Redis still away').to.equal(false);
    await redis.start(); // back, empty: the read models are rebuilt from the log
    await restart(); // engine restart 2
    await sleep(200);
    await round(['r1', 'r2']); // r2's tags come back
    await round(['r1']);
    await waitForCaughtUp(live());

    const kinds = new Set((await changes()).map((c) => `${c.kind}:${c.toZone}`));
    for (const k of ['FIRST_SEEN:WEST', 'FIRST_SEEN:EAST', 'ZONE_CHANGE:MIDDLE', 'EXPIRED:ABSENT']) expect([...kinds], k).to.include(k);
    const moved = (await changes()).find((c) => c.epc === epc(0) && c.toZone === 'MIDDLE');
    expect(moved, 'r1 moved: its tags at x 8 in MIDDLE').to.include({ toX: 8, fromZone: 'WEST' });

    const replay = await replayEngine({ client: store(), logger: silent });
    expect(replay.difference, replaySummary(replay)).to.equal(undefined);
    expect(replay.decisions).to.equal((await changes()).length);
    expect(replaySummary(replay)).to.match(/reproduced exactly/);

    const control = await replayEngine({ client: store(), logger: silent, configuration: 'now' });
    expect(control.difference, 'every job with today\'s configuration decides otherwise').to.not.equal(undefined);
    expect(replaySummary(control)).to.match(/FIRST DIFFERENCE at decision \d+/);
  });

  it('the command line: engine, --from, --partition and --configuration-of-now; anything else is a usage error', () => {
    expect(parseReplayArgs(['engine'])).to.deep.equal({ from: undefined, partition: 0, configurationOfNow: false });
    expect(parseReplayArgs(['engine', '--from', '42', '--configuration-of-now', '--partition', '1'])).to.deep.equal({ from: 42n, partition: 1, configurationOfNow: true });
    expect(parseReplayArgs([])).to.be.a('string').and.match(/usage/);
    expect(parseReplayArgs(['engine', '--from', 'x'])).to.match(/--from needs a whole number/);
    expect(parseReplayArgs(['engine', '--bogus', '1'])).to.match(/unknown option/);
  });
});
