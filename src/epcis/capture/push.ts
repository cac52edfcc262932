// Pushes the EPCIS events of the log to one repository (docs/epcis.md,
// "Capture"): a checkpointed subscription to the engine's stream of its own
// (`epcis-capture-<repository>`), EPCISDocuments of at most
// maxEventsPerDocument events POSTed in log order, each retried with
// back-off and jitter until the repository answers 2xx; only then does the
// checkpoint (./progress.ts) move past its events. The checkpoint is in the
// event log (`checkpoint-epcis-capture-<repository>`,
// src/core/subscriptions/log-checkpoint.ts), written after each
// acknowledgement: so a crash, also after Redis lost its data, resends at most
// the document that was in flight, and skips nothing; a process that another
// one took the repository over from is refused at its next save.
import { streamNameFilter, type EventStoreDBClient, type Filter } from '@eventstore/db-client';
import type { RedisClient } from '../../core/redis/connect';
import type { RedisKeys } from '../../core/redis/keys';
import type { Logger } from '../../core/logger';
import { redactUrl } from '../../core/url';
import { retry, type BackoffPolicy } from '../../core/retry';
import type { SecretBox } from '../../core/secret-box';
import { addScrapeProbe, ageSeconds, metrics } from '../../core/metrics';
import { behindLog } from '../../core/subscriptions/behind';
import { RedisCheckpointStore, runSubscription, type RunningSubscription, type SubscriptionHandler } from '../../core/subscriptions';
import { LogCheckpoint, type CheckpointFenced } from '../../core/subscriptions/log-checkpoint';
import type { EventOf } from '../../core/events';
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
  /** Opens the repository's sealed credentials. */
  readonly secrets: SecretBox;
  /** The location identifiers in force (read per batch, so a change applies from the next document). */
  readonly locations: () => Promise<LocationIds>;
  readonly retry?: BackoffPolicy;
  /** This process's id (the capture lease's holder), named in the checkpoint. */
  readonly holder: string;
  /** Another process took this repository's checkpoint over. */
  readonly onFenced: (err: CheckpointFenced) => void;
}

export interface RunningPush {
  stop(): Promise<void>;
}

/** A document the repository did not take (an HTTP error or no answer): sent again after the back-off. */
class NotAcknowledged extends Error {
  constructor(
    message: string,
    /** The failures metric's label: `network`, `http_<status>` or `credentials`. */
    readonly reason: string,
  ) {
    super(message);
  }
}

/**
 * POSTs documents to one repository, each retried with back-off until the
 * repository acknowledges it (2xx); counts them in the metrics.
 */
class RepositoryPoster {
  private readonly abort = new AbortController();
  private readonly label: { repository: string };
  private readonly headers: Record<string, string> = { 'Content-Type': 'application/ld+json', 'GS1-EPCIS-Version': EPCIS_VERSION, 'GS1-CBV-Version': CBV_VERSION };
  /** Why the stored credentials cannot be used (sealed with another key): every post fails with it, retried, until they are set again. */
  private readonly unusable: string | undefined;

  constructor(
    private readonly repo: EpcisRepository,
    secrets: SecretBox,
    private readonly logger: Logger,
    private readonly backoff: BackoffPolicy,
  ) {
    this.label = { repository: repo.name };
    try {
      const authorization = authorizationOf(repo, secrets);
      if (authorization !== undefined) this.headers['Authorization'] = authorization;
    } catch (err) {
      this.unusable = err instanceof Error ? err.message : String(err);
    }
  }

  /** Resolves once the repository acknowledged `body` (2xx); rejects only when stopped. */
  post(body: string, events: number): Promise<void> {
    const { repo, label, logger } = this;
    return retry((attempt) => this.send(body, events, attempt), {
      backoff: this.backoff,
      signal: this.abort.signal,
      retryable: (err) => err instanceof NotAcknowledged,
      onRetry: (err, { attempt, delayMs }) => {
        const { message: failure, reason } = err as NotAcknowledged;
        metrics.epcisFailures.inc({ ...label, reason });
        logger.warn('epcis capture: repository did not acknowledge a document; retrying', { repository: repo.name, url: redactUrl(repo.captureUrl), failure, attempt, delayMs, events });
      },
    });
  }

  /** Makes a post in flight reject, and any later one. */
  stop(): void {
    this.abort.abort();
  }

  private async send(body: string, events: number, attempt: number): Promise<void> {
    const { label, abort } = this;
    if (attempt > 1) metrics.epcisRetries.inc(label);
    if (this.unusable !== undefined) throw new NotAcknowledged(this.unusable, 'credentials');
    let res: Response;
    try {
      res = await fetch(this.repo.captureUrl, { method: 'POST', headers: this.headers, body, signal: AbortSignal.any([abort.signal, AbortSignal.timeout(REQUEST_TIMEOUT_MS)]) });
    } catch (err) {
      if (abort.signal.aborted) throw new Error('epcis capture stopped', { cause: err });
      throw new NotAcknowledged(err instanceof Error ? (err.cause instanceof Error ? `${err.message}: ${err.cause.message}` : err.message) : String(err), 'network');
    }
    await res.arrayBuffer().catch(() => undefined);
    if (!res.ok) throw new NotAcknowledged(`HTTP ${res.status}`, `http_${res.status}`);
    this.logger.debug('epcis capture: document acknowledged', { status: res.status, events, attempt });
    metrics.epcisDocumentsSent.inc(label);
    metrics.epcisEventsSent.inc(label, events);
  }
}

/** What the repository acknowledged, kept in memory and in the event log (position and skip together). */
class AcknowledgedProgress {
  constructor(private readonly checkpoint: LogCheckpoint) {}

  get acked(): Acknowledged {
    const { at, skip } = this.checkpoint.progress;
    return { position: at, skip };
  }

  /** Takes the checkpoint over; a deployment that kept it in Redis before continues from there (unless that belongs to another log). */
  async take(opts: PushOptions, name: string, skipKey: string, logger: Logger): Promise<void> {
    const { client, redis, keys } = opts;
    await this.checkpoint.take(async () => {
      if (await resetIfLogWasReplaced({ client, redis, keys, projection: name, keyPatterns: [skipKey], logger })) return undefined;
      const at = await new RedisCheckpointStore(redis, keys.checkpointPrefix).load(name);
      const skip = Number((await redis.get(skipKey)) ?? '0');
      return at === undefined && skip === 0 ? undefined : { at, skip };
    });
  }

  /** `acknowledged`: it covers documents the repository took (written at once), not only facts it filtered out. */
  save(a: Acknowledged, acknowledged: boolean): Promise<void> {
    return this.checkpoint.save({ at: a.position, skip: a.skip }, acknowledged);
  }
}

/**
 * The subscription's handler: the batch's events the repository has not
 * acknowledged yet, in documents of at most maxEventsPerDocument, each saved
 * as acknowledged once posted; then the whole batch.
 */
function pushBatches(opts: PushOptions, poster: RepositoryPoster, progress: AcknowledgedProgress): SubscriptionHandler<EventOf<typeof itemEvents>> {
  const { repository: repo } = opts;
  const facilities = repo.facilities === null ? undefined : new Set(repo.facilities);
  const accept = (s: EpcisSource): boolean => facilities === undefined || (s.facility !== null && facilities.has(s.facility));
  return async (events, position) => {
    const facts = events.flatMap((e) => (isEngineStream(e.streamId) && e.position !== undefined ? [{ position: e.position, items: sourcesOf({ id: e.id, created: e.created.getTime(), data: e.data }) }] : []));
    const start = progress.acked;
    const pending = unacknowledged(facts, start);
    const chunks = chunksOf(pending, accept, repo.maxEventsPerDocument);
    if (chunks.length > 0) {
      const ids = await opts.locations();
      for (const chunk of chunks) {
        const doc = epcisDocument(chunk.items.map((s) => objectEventOf(s, ids, { withRecordTime: false })), new Date());
        await poster.post(JSON.stringify(doc), chunk.items.length);
        await progress.save(advance(start, pending, chunk.through), true);
      }
    }
    // Everything of the batch is acknowledged now (facts the filter left out included).
    await progress.save({ position, skip: 0 }, chunks.length > 0);
  };
}

/** Lag: the engine events after the last acknowledged checkpoint (what the repository has not surely received). */
function addLagProbe(client: EventStoreDBClient, filter: Filter, label: { repository: string }, progress: AcknowledgedProgress): () => void {
  return addScrapeProbe(async () => {
    const late = await behindLog(client, filter, progress.acked.position);
    metrics.epcisLagEvents.set(label, late.n);
    metrics.epcisLagSeconds.set(label, ageSeconds(late.oldest));
  });
}

export async function startRepositoryPush(opts: PushOptions): Promise<RunningPush> {
  const { repository: repo, keys } = opts;
  const name = captureSubscription(repo.name);
  const skipKey = captureSkipKey(keys, repo.name);
  const logger = opts.logger.child(name);
  const checkpoint = new LogCheckpoint({ client: opts.client, name, holder: opts.holder, logger, onFenced: opts.onFenced });
  const progress = new AcknowledgedProgress(checkpoint);
  await progress.take(opts, name, skipKey, logger);
  const label = { repository: repo.name };
  const poster = new RepositoryPoster(repo, opts.secrets, logger, opts.retry ?? CAPTURE_BACKOFF);
  const filter = streamNameFilter({ prefixes: [ENGINE_STREAM_PREFIX] });
  const sub: RunningSubscription = runSubscription({
    client: opts.client,
    name,
    codecs: itemEvents,
    filter,
    checkpointStore: checkpoint.asStore(),
    checkpointMode: 'handler',
    logger,
    handler: pushBatches(opts, poster, progress),
  });
  const removeProbe = addLagProbe(opts.client, filter, label, progress);
  const { acked } = progress;
  logger.info('epcis capture: pushing to repository', { repository: repo.name, url: redactUrl(repo.captureUrl), from: acked.position?.commit.toString() ?? 'start', skip: acked.skip });
  return {
    async stop() {
      removeProbe();
      // Another process (or none) pushes now: this one no longer knows the lag.
      metrics.epcisLagEvents.remove(label);
      metrics.epcisLagSeconds.remove(label);
      poster.stop();
      await sub.stop();
      await checkpoint.flush().catch(() => undefined);
    },
  };
}
