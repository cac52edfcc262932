// Projects job events and tag reports into the jobs read model. The state of
// a job is read, evolved and written back with the checkpoint in one MULTI;
// this subscription is the only writer and handles batches one at a time,
// so read-then-write is safe and every event is applied exactly once.
// Counters are not idempotent, so each job's state and its report stats
// remember the last log position applied (projections/applied.ts): replayed
// events change nothing.
import { streamNameFilter, type EventStoreDBClient } from '@eventstore/db-client';
import type { RedisClient } from '../../src/core/redis/connect';
import type { RedisKeys } from '../../src/core/redis/keys';
import type { Logger } from '../../src/core/logger';
import { defineEvents } from '../../src/core/events';
import { TagsReportedEpcs } from '../../src/agents';
import type { RunningSubscription } from '../../src/core/subscriptions';
import { startProjection } from '../projection';
import type { RebuildableReadModel } from '../read-model';
import { AppliedPositions } from '../applied';
import { evolveJob, JOB_STREAM_PREFIX, jobEvents, type JobEvent, initialJobState, type JobState, decodeJobState, jobKeys, JOBS_PROJECTION, JOBS_READ_MODEL } from '../../src/jobs';

/** What this projection needs of a tag report (appended by the agent gateway to `tagReports-<reader>`). */
export const tagReportEvents = defineEvents({
  // Both stored versions (objects per observation, or columns): src/agents/report-columns.ts.
  TagsReported: TagsReportedEpcs,
});
export const TAG_REPORT_STREAM_PREFIX = 'tagReports-';

const codecs = { ...jobEvents, ...tagReportEvents };

export function startJobsProjection(opts: {
  client: EventStoreDBClient;
  redis: RedisClient;
  keys: RedisKeys;
  logger: Logger;
  onApplied?: (events: number) => void;
}): RunningSubscription {
  const k = jobKeys(opts.keys);
  return startProjection({
    ...opts,
    name: JOBS_PROJECTION,
    codecs,
    filter: jobsReadModel.filter,
    apply: async (events, tx) => {
      const jobIds = [
        ...new Set(events.filter((e) => e.streamId.startsWith(JOB_STREAM_PREFIX)).map((e) => e.streamId.slice(JOB_STREAM_PREFIX.length))),
      ];
      const reportJobs = [...new Set(events.flatMap((e) => (e.type === 'TagsReported' ? [e.data.jobId] : [])))];
      const applied = await AppliedPositions.load(opts.redis, k.applied, [...jobIds.map((id) => `state:${id}`), ...reportJobs.map((id) => `reports:${id}`)]);
      const states = new Map<string, JobState>();
      if (jobIds.length > 0) {
        const raws = await opts.redis.hmGet(k.state, jobIds);
        jobIds.forEach((id, i) => {
          const raw = raws[i];
          states.set(id, raw == null ? initialJobState : decodeJobState(id, raw));
        });
      }
      for (const e of events) {
        if (e.type === 'TagsReported') {
          const d = e.data;
          if (!applied.apply(`reports:${d.jobId}`, e.position)) continue;
          tx.hIncrBy(k.stats(d.jobId), 'reports', 1);
          tx.hIncrBy(k.stats(d.jobId), 'observations', d.observations.length);
          tx.hSet(k.stats(d.jobId), 'lastReportTime', d.to);
          if (d.observations.length > 0) tx.pfAdd(k.epcs(d.jobId), d.observations.map((o) => o.epc.toUpperCase()));
        } else {
          const id = e.streamId.slice(JOB_STREAM_PREFIX.length);
          if (!applied.apply(`state:${id}`, e.position)) continue;
          states.set(id, evolveJob(states.get(id) ?? initialJobState, e as JobEvent));
        }
      }
      for (const [id, s] of states) tx.hSet(k.state, id, JSON.stringify(s));
      applied.saveInTransaction(tx, k.applied);
    },
    committed: (events) => opts.onApplied?.(events.length),
  });
}

export const jobsReadModel: RebuildableReadModel = {
  name: JOBS_READ_MODEL,
  projection: JOBS_PROJECTION,
  filter: streamNameFilter({ prefixes: [JOB_STREAM_PREFIX, TAG_REPORT_STREAM_PREFIX] }),
  keyPrefixes: (keys) => [jobKeys(keys).base],
  start: (opts) => startJobsProjection(opts),
};
