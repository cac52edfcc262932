// EPCIS capture (role relay, docs/epcis.md "Capture"): one pusher
// (./push.ts) per enabled repository, kept in step with the configuration
// (checked every few seconds: a new, changed, disabled or deleted
// repository starts, restarts or stops its pusher). Only one process pushes:
// the one holding the capture lease (src/core/redis/lease.ts, the relay's
// mechanism under its own key); others stand by and take over when it
// stops or its lease expires.
import { setTimeout as delay } from 'node:timers/promises';
import type { EventStoreDBClient } from '@eventstore/db-client';
import type { RedisClient } from '../../core/redis/connect';
import type { RedisKeys } from '../../core/redis/keys';
import type { Logger } from '../../core/logger';
import { RedisCheckpointStore } from '../../core/subscriptions';
import type { ConfigReadModel } from '../../core/resource/readmodel';
import { RedisLease } from '../../core/redis/lease';
import { epcisLocationKind, locationIds } from '../locations';
import { captureSkipKey, captureSubscription, startRepositoryPush, type RunningPush } from './push';
import type { BackoffPolicy } from '../../core/retry';
import { epcisRepositoryKind, type EpcisRepository } from './repository';

export interface CaptureOptions {
  readonly client: EventStoreDBClient;
  readonly redis: RedisClient;
  readonly keys: RedisKeys;
  readonly logger: Logger;
  readonly readModel: ConfigReadModel;
  readonly locationBaseUrl: string;
  /** How often the configuration is compared with what runs (default 2 s). */
  readonly checkEveryMs?: number;
  readonly leaseMs?: number;
  readonly retry?: BackoffPolicy;
}

export const captureLeaseKey = (keys: RedisKeys): string => `${keys.base}v1:epcis-capture:lease`;

export function startEpcisCapture(opts: CaptureOptions): { stop(): Promise<void> } {
  const { logger } = opts;
  const abort = new AbortController();
  const lease = new RedisLease(opts.redis, captureLeaseKey(opts.keys), opts.leaseMs ?? 10_000, logger, 'epcis capture');
  const running = new Map<string, { config: string; push: RunningPush }>();
  let lost = false;

  const stopAll = async (): Promise<void> => {
    const all = [...running.values()];
    running.clear();
    await Promise.all(all.map((r) => r.push.stop().catch((err: unknown) => logger.warn('epcis capture: stopping a pusher failed', { err }))));
  };

  const sync = async (): Promise<void> => {
    const repos: EpcisRepository[] = await opts.readModel.list(epcisRepositoryKind);
    const wanted = new Map(repos.filter((r) => r.enabled).map((r) => [r.name, r]));
    for (const [name, r] of running) {
      const want = wanted.get(name);
      if (want !== undefined && JSON.stringify(want) === r.config) continue;
      running.delete(name);
      await r.push.stop();
      logger.info('epcis capture: stopped pushing to repository', { repository: name, reason: want === undefined ? 'disabled or deleted' : 'configuration changed' });
      if (!repos.some((x) => x.name === name)) {
        // Deleted: a repository created later under the same name starts from the beginning of the log.
        await opts.redis.del([new RedisCheckpointStore(opts.redis, opts.keys.checkpointPrefix).key(captureSubscription(name)), captureSkipKey(opts.keys, name)]);
      }
    }
    for (const [name, repo] of wanted) {
      if (running.has(name)) continue;
      const push = await startRepositoryPush({
        client: opts.client, redis: opts.redis, keys: opts.keys, logger, repository: repo,
        locations: async () => locationIds(opts.locationBaseUrl, await opts.readModel.list(epcisLocationKind)),
        ...(opts.retry ? { retry: opts.retry } : {}),
      });
      running.set(name, { config: JSON.stringify(repo), push });
    }
  };

  const run = async (): Promise<void> => {
    while (!abort.signal.aborted) {
      await lease.acquire(abort.signal);
      lost = false;
      lease.keep(() => {
        lost = true;
        logger.error('epcis capture: lease lost to another process; stopping and standing by', { holder: lease.holder });
      });
      while (!abort.signal.aborted && !lost) {
        try {
          await sync();
        } catch (err) {
          logger.warn('epcis capture: could not read the repositories; trying again', { err: err instanceof Error ? err.message : String(err) });
        }
        await delay(opts.checkEveryMs ?? 2000, undefined, { signal: abort.signal }).catch(() => undefined);
      }
      await stopAll();
    }
  };
  const done = run().catch((err: unknown) => {
    if (!abort.signal.aborted) logger.error('epcis capture stopped unexpectedly', { err });
  });

  return {
    async stop() {
      abort.abort();
      await done;
      await stopAll();
      await lease.release();
    },
  };
}
