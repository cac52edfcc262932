// The jobs read model: one hash `<prefix>v1:jobs:state` (job id -> JobState
// JSON), per job a stats hash `v1:jobs:stats:<id>` (reports, observations,
// lastReportTime) and a HyperLogLog `v1:jobs:epcs:<id>` of the EPCs seen
// (items seen is an estimate, standard error 0.81%), and `v1:jobs:applied`
// (`state:<id>` / `reports:<id>` -> last log position applied, for replays).
// Jobs are few (hundreds to thousands), so listings read the whole state hash and filter in memory.
import type { RedisClient } from '../core/redis/connect';
import type { RedisKeys } from '../core/redis/keys';
import { decodeStored } from '../core/stored-json';
import { JobState } from './model';
import { ReadModelGate } from '../core/redis/readiness';

export const JOBS_PROJECTION = 'jobs-v1';
/** The name of the jobs read model (readiness, `npm run rebuild -- jobs`). */
export const JOBS_READ_MODEL = 'jobs';

export const jobKeys = (keys: RedisKeys) => ({
  base: `${keys.base}v1:jobs:`,
  applied: `${keys.base}v1:jobs:applied`,
  state: `${keys.base}v1:jobs:state`,
  stats: (id: string) => `${keys.base}v1:jobs:stats:${id}`,
  epcs: (id: string) => `${keys.base}v1:jobs:epcs:${id}`,
});

export function decodeJobState(id: string, raw: string): JobState {
  return decodeStored(JobState, raw, `jobs read model: job ${id}`);
}

export interface JobStats {
  reports: number;
  observations: number;
  itemsSeen: number;
  lastReportTime: string | null;
}

export class JobsReadModel {
  private readonly k: ReturnType<typeof jobKeys>;
  private readonly gate: ReadModelGate;
  constructor(
    private readonly redis: RedisClient,
    keys: RedisKeys,
  ) {
    this.k = jobKeys(keys);
    this.gate = new ReadModelGate(redis, keys);
  }

  async get(id: string): Promise<JobState | undefined> {
    const raw = await this.gate.read(JOBS_READ_MODEL, () => this.redis.hGet(this.k.state, id));
    return raw == null ? undefined : decodeJobState(id, raw);
  }

  async all(): Promise<JobState[]> {
    const all = await this.gate.read(JOBS_READ_MODEL, () => this.redis.hGetAll(this.k.state));
    return Object.entries(all).map(([id, raw]) => decodeJobState(id, raw));
  }

  async active(): Promise<JobState[]> {
    return (await this.all()).filter((s) => s.status !== 'STOPPED' && s.status !== 'NONE');
  }

  async stats(id: string): Promise<JobStats> {
    const [h, itemsSeen] = await this.gate.read(JOBS_READ_MODEL, () => Promise.all([this.redis.hGetAll(this.k.stats(id)), this.redis.pfCount(this.k.epcs(id))]));
    return {
      reports: Number(h['reports'] ?? 0),
      observations: Number(h['observations'] ?? 0),
      itemsSeen,
      lastReportTime: h['lastReportTime'] ?? null,
    };
  }

  /** Last tag report time per job (the job's heartbeat), for status objects. */
  async lastReportTimes(ids: readonly string[]): Promise<Map<string, string | null>> {
    const out = new Map<string, string | null>();
    await this.gate.read(JOBS_READ_MODEL, () => Promise.all(ids.map(async (id) => out.set(id, (await this.redis.hGet(this.k.stats(id), 'lastReportTime')) ?? null))));
    return out;
  }
}
