// Projection writes are fenced on their checkpoint (docs/architecture.md,
// "Projections: one starter, fenced writes"): two jobs projections started
// together on one namespace count every tag report exactly once (their
// counters are not idempotent: two unfenced writers folding the same batch
// would count it twice); a projection whose checkpoint another process moved
// writes nothing on top of it and resumes from the stored checkpoint.
// Embedded event store, real Redis.
import { jsonEvent } from '@eventstore/db-client';
import { expect } from 'chai';
import { loadConfigOrThrow } from '../../src/config';
import { connectRedis, type RedisClient } from '../../src/core/redis/connect';
import { RedisKeys } from '../../src/core/redis/keys';
import { RedisCheckpointStore, type RunningSubscription } from '../../src/core/subscriptions';
import { jobKeys, JOBS_PROJECTION } from '../../src/jobs';
import { startJobsProjection } from '../../projections/jobs/projection';
import { withEventStore, testLogger } from '../support/eventstore';
import { dropKeysAndQuit, recordingLogger, stopInOrder, type LogLine } from '../queues/relay-fixture';
import { waitFor, waitForValue } from '../support/wait';

describe('projection writes fenced on the checkpoint', function () {
  this.timeout(60_000);
  const es = withEventStore();
  const keys = new RedisKeys(`tagtrail-test-${crypto.randomUUID()}:`);
  const k = jobKeys(keys);
  let redis: RedisClient | undefined;
  const running: RunningSubscription[] = [];
  const reader = `r-${crypto.randomUUID()}`;

  before(async () => {
    redis = await connectRedis(loadConfigOrThrow({}).redisUrl, testLogger('redis'), 5000);
  });
  after(async () => {
    await stopInOrder(running);
    await dropKeysAndQuit(redis, keys);
  });

  const start = (lines: LogLine[] = []): RunningSubscription => {
    const sub = startJobsProjection({ client: es.client, redis: redis!, keys, logger: recordingLogger(lines) });
    running.push(sub);
    return sub;
  };
  /** A tag report as the agent gateway records it (the stored shape, written out here). */
  const report = async (jobId: string, epc: string): Promise<void> => {
    const data = { reader, jobId, facility: 'DEFAULT', from: '2026-01-01T00:00:00.000Z', to: '2026-01-01T00:00:01.000Z', observations: [{ epc, antennaPort: 1, peakRssiCdbm: -500, firstSeen: '2026-01-01T00:00:00.500Z' }] };
    await es.client.appendToStream(`tagReports-${reader}`, [jsonEvent({ type: 'TagsReported', data })]);
  };
  const reports = async (jobId: string): Promise<number> => Number((await redis!.hGet(k.stats(jobId), 'reports')) ?? '0');

  it('two projections started together count every report once', async () => {
    const jobId = `job-${crypto.randomUUID()}`;
    const N = 60;
    for (let i = 0; i < N; i++) await report(jobId, `E2800000000000000000${String(i).padStart(4, '0')}`);
    const [a, b] = [start(), start()];
    await Promise.all([a.caughtUp, b.caughtUp]);
    await waitForValue(`${N} reports counted`, () => reports(jobId), (n) => n >= N);
    // More while both run.
    for (let i = N; i < 2 * N; i++) await report(jobId, `E2800000000000000000${String(i).padStart(4, '0')}`);
    const counted = await waitForValue(`${2 * N} reports counted`, () => reports(jobId), (n) => n >= 2 * N);
    expect(counted, 'each report counted once').to.equal(2 * N);
    await stopInOrder(running);
  });

  it('a projection whose checkpoint another process moved writes nothing on top of it and resumes from the stored one', async () => {
    const lines: LogLine[] = [];
    const sub = start(lines);
    await sub.caughtUp;
    const jobId = `job-${crypto.randomUUID()}`;
    await report(jobId, 'E28000000000000000000001');
    await waitForValue('the first report counted', () => reports(jobId), (n) => n === 1);
    // Another process wrote the read model (its checkpoint now past an event this projection does not read).
    const store = new RedisCheckpointStore(redis!, keys.checkpointPrefix);
    const head = (await es.client.appendToStream(`fenceProbe-${crypto.randomUUID()}`, [jsonEvent({ type: 'Probe', data: {} })])).position!;
    await store.save(JOBS_PROJECTION, head);
    await report(jobId, 'E28000000000000000000002');
    await waitFor('the projection to find its checkpoint moved', () => lines.some((l) => l.msg === 'checkpoint moved under this subscription; resuming from the stored one'));
    const counted = await waitForValue('the second report counted', () => reports(jobId), (n) => n >= 2);
    expect(counted, 'counted once, after resuming from the stored checkpoint').to.equal(2);
    const saved = await waitForValue('the checkpoint past the moved one', () => store.load(JOBS_PROJECTION), (p) => p !== undefined && p.commit > head.commit);
    expect(saved!.commit > head.commit).to.equal(true);
  });
});
