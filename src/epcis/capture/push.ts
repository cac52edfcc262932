// Pushes the EPCIS events of the log to one repository (docs/epcis.md,
// "Capture"): a checkpointed subscription to the engine's stream of its own
// (`epcis-capture-<repository>`), EPCISDocuments of at most
// maxEventsPerDocument events POSTed in log order, each retried with
// back-off and jitter until the repository answers 2xx; only then does the
// checkpoint (./progress.ts) move past its events. So a crash resends at
// most the document that was in flight, and skips nothing.
import { streamNameFilter, type EventStoreDBClient } from '@eventstore/db-client';
import type { RedisClient } from '../../core/redis/connect';
import type { RedisKeys } from '../../core/redis/keys';
import type { Logger } from '../../core/logger';
import { redactUrl } from '../../core/url';
import { retry, type BackoffPolicy } from '../../core/retry';
import { addScrapeProbe, ageSeconds, metrics } from '../../core/metrics';
import { behindLog } from '../../core/subscriptions/behind';
import { RedisCheckpointStore, runSubscription, type RunningSubscription } from '../../core/subscriptions';
import { ENGINE_STREAM_PREFIX, isEngineStream, itemEvents } from '../../engine';
import { resetIfLogWasReplaced } from '../../core/subscriptions/log-reset';
import { CBV_VERSION, epcisDocument, EPCIS_VERSION } from '../document';
import type { LocationIds } from '../locations';
import { objectEventOf } from '../mapping';
import { sourcesOf, type EpcisSource } from '../source';
import { advance, chunksOf, unacknowledged, type Acknowledged } from './progress';
import { authorizationOf, type EpcisRepository } from './repository';

/** 0.5 s doubling to a minute, each wait between half and all of it so retries of many pushers spread out. */
export const CAPTURE_BACKOFF: BackoffPolicy = { initialMs: 500, maxMs: 60_000, jitter: 0.5 };
const REQUEST_TIMEOUT_MS = 30_000;

export const captureSubscription = (repository: string): string => `epcis-capture-${repository}`;
export const captureSkipKey = (keys: RedisKeys, repository: string): string => `${keys.base}v1:epcis-capture:${repository}:skip`;

export interface PushOptions {
  readonly client: EventStoreDBClient;
  readonly redis: RedisClient;
  readonly keys: RedisKeys;
  readonly logger: Logger;
  readonly repository: EpcisRepository;
  /** The location identifiers in force (read per batch, so a change applies from the next document). */
  readonly locations: () => Promise<LocationIds>;
  readonly retry?: BackoffPolicy;
}

export interface RunningPush {
  stop(): Promise<void>;
}

/** A document the repository did not take (an HTTP error or no answer): sent again after the back-off. */
class NotAcknowledged extends Error {
  constructor(
    message: string,
    /** The failures metric's label: `network` or `http_<status>`. */
    readonly reason: string,
  ) {
    super(message);
  }
}

export async function startRepositoryPush(opts: PushOptions): Promise<RunningPush> {
  const { repository: repo, redis, keys } = opts;
  const name = captureSubscription(repo.name);
  const skipKey = captureSkipKey(keys, repo.name);
  const logger = opts.logger.child(name);
  const checkpoints = new RedisCheckpointStore(redis, keys.checkpointPrefix);
  await resetIfLogWasReplaced({ client: opts.client, redis, keys, projection: name, keyPatterns: [skipKey], logger });
  let acked: Acknowledged = { position: await checkpoints.load(name), skip: Number((await redis.get(skipKey)) ?? '0') };
  const abort = new AbortController();
  const label = { repository: repo.name };
  const facilities = repo.facilities === null ? undefined : new Set(repo.facilities);
  const accept = (s: EpcisSource): boolean => facilities === undefined || (s.facility !== null && facilities.has(s.facility));
  const headers: Record<string, string> = { 'Content-Type': 'application/ld+json', 'GS1-EPCIS-Version': EPCIS_VERSION, 'GS1-CBV-Version': CBV_VERSION };
  const authorization = authorizationOf(repo);
  if (authorization !== undefined) headers['Authorization'] = authorization;

  const save = async (a: Acknowledged): Promise<void> => {
    const tx = redis.multi();
    if (a.position !== undefined) checkpoints.saveInTransaction(tx, name, a.position);
    tx.set(skipKey, String(a.skip));
    await tx.exec();
  };

  /** Resolves once the repository acknowledged `body` (2xx); rejects only when stopped. */
  const post = (body: string, events: number): Promise<void> =>
    retry(async (attempt) => {
      if (attempt > 1) metrics.epcisRetries.inc(label);
      let res: Response;
      try {
        res = await fetch(repo.captureUrl, { method: 'POST', headers, body, signal: AbortSignal.any([abort.signal, AbortSignal.timeout(REQUEST_TIMEOUT_MS)]) });
      } catch (err) {
        if (abort.signal.aborted) throw new Error('epcis capture stopped', { cause: err });
        throw new NotAcknowledged(err instanceof Error ? (err.cause instanceof Error ? `${err.message}: ${err.cause.message}` : err.message) : String(err), 'network');
      }
      await res.arrayBuffer().catch(() => undefined);
      if (!res.ok) throw new NotAcknowledged(`HTTP ${res.status}`, `http_${res.status}`);
      logger.debug('epcis capture: document acknowledged', { status: res.status, events, attempt });
      metrics.epcisDocumentsSent.inc(label);
      metrics.epcisEventsSent.inc(label, events);
    }, {
      backoff: opts.retry ?? CAPTURE_BACKOFF,
      signal: abort.signal,
      retryable: (err) => err instanceof NotAcknowledged,
      onRetry: (err, { attempt, delayMs }) => {
        const { message: failure, reason } = err as NotAcknowledged;
        metrics.epcisFailures.inc({ ...label, reason });
        logger.warn('epcis capture: repository did not acknowledge a document; retrying', { repository: repo.name, url: redactUrl(repo.captureUrl), failure, attempt, delayMs, events });
      },
    });

  const filter = streamNameFilter({ prefixes: [ENGINE_STREAM_PREFIX] });
  const sub: RunningSubscription = runSubscription({
    client: opts.client,
    name,
    codecs: itemEvents,
    filter,
    checkpointStore: checkpoints,
    checkpointMode: 'handler',
    logger,
    handler: async (events, position) => {
      const facts = events.flatMap((e) => (isEngineStream(e.streamId) && e.position !== undefined ? [{ position: e.position, items: sourcesOf({ id: e.id, created: e.created.getTime(), data: e.data }) }] : []));
      const pending = unacknowledged(facts, acked);
      const chunks = chunksOf(pending, accept, repo.maxEventsPerDocument);
      if (chunks.length > 0) {
        const ids = await opts.locations();
        const start = acked;
        for (const chunk of chunks) {
          const doc = epcisDocument(chunk.items.map((s) => objectEventOf(s, ids, { withRecordTime: false })), new Date());
          await post(JSON.stringify(doc), chunk.items.length);
          acked = advance(start, pending, chunk.through);
          await save(acked);
        }
      }
      // Everything of the batch is acknowledged now (facts the filter left out included).
      acked = { position, skip: 0 };
      await save(acked);
    },
  });
  // Lag: the engine events after the last acknowledged checkpoint (what the repository has not surely received).
  const removeProbe = addScrapeProbe(async () => {
    const late = await behindLog(opts.client, filter, acked.position);
    metrics.epcisLagEvents.set(label, late.n);
    metrics.epcisLagSeconds.set(label, ageSeconds(late.oldest));
  });
  logger.info('epcis capture: pushing to repository', { repository: repo.name, url: redactUrl(repo.captureUrl), from: acked.position?.commit.toString() ?? 'start', skip: acked.skip });
  return {
    async stop() {
      removeProbe();
      // Another process (or none) pushes now: this one no longer knows the lag.
      metrics.epcisLagEvents.remove(label);
      metrics.epcisLagSeconds.remove(label);
      abort.abort();
      await sub.stop();
    },
  };
}
