// EPCIS capture (role relay, docs/epcis.md "Capture"): one pusher
// (./push.ts) per enabled repository, kept in step with the configuration
// (checked every few seconds: a new, changed, disabled or deleted
// repository starts, restarts or stops its pusher). Only one process pushes:
// the one holding the capture lease (src/core/redis/lease.ts, the relay's
// mechanism under its own key); others stand by and take over when it
// stops or its lease expires. Each repository's checkpoint is in the event
// log and names the process that took it: a process that finds it taken by
// another (it was paused past its lease) stops like one that lost the lease.
import { setTimeout as delay } from 'node:timers/promises';
import type { EventStoreDBClient } from '@eventstore/db-client';
import type { RedisClient } from '../../core/redis/connect';
import type { RedisKeys } from '../../core/redis/keys';
import type { Logger } from '../../core/logger';
import { RedisCheckpointStore } from '../../core/subscriptions';
import { clearLogCheckpoint } from '../../core/subscriptions/log-checkpoint';
import type { ConfigReadModel } from '../../core/resource/readmodel';
import { RedisLease } from '../../core/redis/lease';
import { epcisLocationKind, locationIds } from '../locations';
import { captureSkipKey, captureSubscription, startRepositoryPush, type RunningPush } from './push';
import type { BackoffPolicy } from '../../core/retry';
import type { SecretBox } from '../../core/secret-box';
import { epcisRepositoryKind, type EpcisRepository } from './repository';

export interface CaptureOptions {
  readonly client: EventStoreDBClient;
  readonly redis: RedisClient;
  readonly keys: RedisKeys;
  readonly logger: Logger;
  readonly readModel: ConfigReadModel;
  readonly locationBaseUrl: string;
  /** Opens the repositories' sealed credentials, for the requests to them. */
  readonly secrets: SecretBox;
  /** How often the configuration is compared with what runs (default 2 s). */
  readonly checkEveryMs?: number;
  readonly leaseMs?: number;
  readonly retry?: BackoffPolicy;
}

export const captureLeaseKey = (keys: RedisKeys): string => `${keys.base}v1:epcis-capture:lease`;

/** The pushers that run, one per enabled repository, kept in step with the configuration. */
class RepositoryPushers {
  private readonly running = new Map<string, { config: string; push: RunningPush }>();

  constructor(
    private readonly opts: CaptureOptions,
    /** The capture lease's holder id: also the holder of every repository's checkpoint. */
    private readonly holder: string,
    /** A repository's checkpoint was taken by another process. */
    private readonly onFenced: () => void,
  ) {}

  /** Starts, restarts or stops pushers so that each enabled repository has one with its current configuration. */
  async sync(): Promise<void> {
    const repos: EpcisRepository[] = await this.opts.readModel.list(epcisRepositoryKind);
    const wanted = new Map(repos.filter((r) => r.enabled).map((r) => [r.name, r]));
    for (const [name, r] of this.running) {
      const want = wanted.get(name);
      if (want !== undefined && JSON.stringify(want) === r.config) continue;
      this.running.delete(name);
      await r.push.stop();
      this.opts.logger.info('epcis capture: stopped pushing to repository', { repository: name, reason: want === undefined ? 'disabled or deleted' : 'configuration changed' });
      if (!repos.some((x) => x.name === name)) await this.forget(name);
    }
    for (const [name, repo] of wanted) {
      if (!this.running.has(name)) this.running.set(name, { config: JSON.stringify(repo), push: await this.start(repo) });
    }
  }

  async stopAll(): Promise<void> {
    const all = [...this.running.values()];
    this.running.clear();
    await Promise.all(all.map((r) => r.push.stop().catch((err: unknown) => this.opts.logger.warn('epcis capture: stopping a pusher failed', { err }))));
  }

  private start(repo: EpcisRepository): Promise<RunningPush> {
    const { opts } = this;
    return startRepositoryPush({
      client: opts.client, redis: opts.redis, keys: opts.keys, logger: opts.logger, repository: repo, secrets: opts.secrets, holder: this.holder, onFenced: this.onFenced,
      locations: async () => locationIds(opts.locationBaseUrl, await opts.readModel.list(epcisLocationKind)),
      ...(opts.retry ? { retry: opts.retry } : {}),
    });
  }

  /** Deleted: a repository created later under the same name starts from the beginning of the log. */
  private async forget(name: string): Promise<void> {
    const { client, redis, keys } = this.opts;
    await clearLogCheckpoint(client, captureSubscription(name), this.holder);
    // Where the position was kept before it moved to the log: not to be taken over by the next repository of that name.
    await redis.del([new RedisCheckpointStore(redis, keys.checkpointPrefix).key(captureSubscription(name)), captureSkipKey(keys, name)]);
  }
}

/**
 * While this process holds the lease: syncs the pushers every checkEveryMs
 * until stopped or the lease is lost, then stops them; then waits for the
 * lease again.
 */
async function pushWhileLeased(opts: CaptureOptions, lease: RedisLease, pushers: RepositoryPushers, fence: { lost: boolean }, signal: AbortSignal): Promise<void> {
  const { logger } = opts;
  while (!signal.aborted) {
    await lease.acquire(signal);
    fence.lost = false;
    lease.keep(() => {
      fence.lost = true;
      logger.error('epcis capture: lease lost to another process; stopping and standing by', { holder: lease.holder });
    });
    while (!signal.aborted && !fence.lost) {
      try {
        await pushers.sync();
      } catch (err) {
        logger.warn('epcis capture: could not read the repositories; trying again', { err: err instanceof Error ? err.message : String(err) });
      }
      await delay(opts.checkEveryMs ?? 2000, undefined, { signal }).catch(() => undefined);
    }
    await pushers.stopAll();
    // Fenced while holding the lease: the other process gets it at once.
    await lease.release();
  }
}

export function startEpcisCapture(opts: CaptureOptions): { stop(): Promise<void> } {
  const abort = new AbortController();
  const lease = new RedisLease(opts.redis, captureLeaseKey(opts.keys), opts.leaseMs ?? 10_000, opts.logger, 'epcis capture');
  const fence = { lost: false };
  const pushers = new RepositoryPushers(opts, lease.holder, () => {
    if (fence.lost) return;
    fence.lost = true;
    opts.logger.error('epcis capture: a repository checkpoint was taken by another process; stopping and standing by', { holder: lease.holder });
  });
  const done = pushWhileLeased(opts, lease, pushers, fence, abort.signal).catch((err: unknown) => {
    if (!abort.signal.aborted) opts.logger.error('epcis capture stopped unexpectedly', { err });
  });
  return {
    async stop() {
      abort.abort();
      await done;
      await pushers.stopAll();
      await lease.release();
    },
  };
}
