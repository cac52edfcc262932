// Factory reset (POST /support/v1/factoryReset): configuration and data back
// to the first-start state, without losing the log (docs/support.md):
//   1. a FactoryReset marker on `support-factoryReset` (audit; the epoch P);
//   2. every other stream written before P is soft-deleted: aggregates and
//      read-your-writes see nothing of it, while the events stay in $all;
//      not the positions of the relay and the EPCIS capture (`checkpoint-*`):
//      like the read models' checkpoints, they go on from where they are;
//   3. the item engine's output stream, deleted with the others, then gets an
//      empty ItemsChanged covering the input up to P. That append fences the
//      running engine, which then resyncs from its stream (now only that
//      event): empty state, input resumed after P, so nothing before the
//      reset comes back, also after a restart;
//   4. every Redis key of the namespace but the checkpoints, the generation
//      marker and the read model states (src/core/redis/readiness.ts) is
//      dropped: the
//      running projections go on from where they are onto empty read models,
//      and a restart resumes at their checkpoints (never replaying the
//      deleted streams' events still in $all);
//   5. the first-start bootstrap runs again (admin with ADMIN_PASSWORD or
//      admindefault, the DEFAULT facility).
// Refused (409) while a job is active: the job runner and the engine hold
// running jobs in memory.
import { StreamNotFoundError, type EventStoreDBClient, type Position } from '@eventstore/db-client';
import { appendEvents } from '../core/eventstore';
import { encodeEvent } from '../core/events';
import { conflict } from '../core/http/errors';
import { LOG_CHECKPOINT_STREAM_PREFIX } from '../core/subscriptions/log-checkpoint';
import type { AppDeps } from '../slice';
import { engineStreams, itemEvents } from '../engine';
import { JobsReadModel } from '../jobs';
import { FACTORY_RESET_STREAM, SUPPORT_STREAM_PREFIX, supportEvents } from './events';

export interface FactoryResetResult {
  readonly deletedStreams: number;
  readonly at: string;
}

/** Streams with an event at or before `upTo`, but system streams, the support streams and the positions kept in the log. */
export async function streamsToDelete(client: EventStoreDBClient, upTo: Position): Promise<string[]> {
  const streams = new Set<string>();
  // Read to the end (never leave a client read early).
  for await (const e of client.readAll()) {
    const ev = e.event;
    if (ev === undefined || ev.position === undefined || ev.position.commit > upTo.commit) continue;
    const s = ev.streamId;
    if (s.startsWith('$') || s.startsWith(SUPPORT_STREAM_PREFIX) || s.startsWith(LOG_CHECKPOINT_STREAM_PREFIX)) continue;
    streams.add(s);
  }
  return [...streams];
}

async function softDelete(client: EventStoreDBClient, stream: string): Promise<boolean> {
  try {
    await client.deleteStream(stream);
    return true;
  } catch (err) {
    if (err instanceof StreamNotFoundError) return false;
    throw err;
  }
}

async function dropReadModels(deps: AppDeps): Promise<number> {
  let dropped = 0;
  for await (const keys of deps.redis.scanIterator({ MATCH: `${deps.keys.base}*`, COUNT: 500 })) {
    // The read models stay ready (empty is now the truth) in their generation.
    const kept = new Set([deps.keys.generation, deps.keys.readModelStates]);
    const doomed = keys.filter((k) => !k.startsWith(deps.keys.checkpointPrefix) && !kept.has(k));
    if (doomed.length) dropped += await deps.redis.del(doomed);
  }
  return dropped;
}

export async function factoryReset(deps: AppDeps, opts: { user: string | null; now: Date; bootstrap: () => Promise<void> }): Promise<FactoryResetResult> {
  const active = await new JobsReadModel(deps.redis, deps.keys).active();
  if (active.length) {
    throw conflict(`A factory reset needs every job stopped; active: ${active.map((j) => `JobId=${j.id}`).join(', ')}`);
  }
  const at = opts.now.toISOString();
  const log = deps.logger.child('factory-reset');
  log.warn('factory reset started', { user: opts.user });
  // The marker is the epoch every reader of the log compares with: written whatever was before it.
  const marker = await appendEvents(deps.client, FACTORY_RESET_STREAM, [encodeEvent(supportEvents, { type: 'FactoryReset', data: { at, user: opts.user } }, opts.user ? { user: opts.user } : {})], 'any');
  if (marker.position === undefined) throw new Error('the event store did not report the position of the reset marker');
  let deletedStreams = 0;
  for (const stream of await streamsToDelete(deps.client, marker.position)) {
    if (await softDelete(deps.client, stream)) deletedStreams++;
  }
  // Every partition's engine resumes after the marker: a fence on each output stream. The configuration
  // streams are deleted too, so the engine's configuration there is empty (what the bootstrap creates comes after).
  for (const stream of engineStreams(deps.config.enginePartitions.count)) {
    const data = { inputPosition: marker.position.commit.toString(), at: opts.now.getTime(), changes: [], configuration: [], configurationComplete: true };
    const fence = encodeEvent(itemEvents, { type: 'ItemsChanged', data }, { user: 'factory-reset' });
    // 'any' on purpose: this append is what fences the running engine (its next append names the old revision).
    await appendEvents(deps.client, stream, [fence], 'any');
  }
  const droppedKeys = await dropReadModels(deps);
  await opts.bootstrap();
  log.warn('factory reset done', { user: opts.user, deletedStreams, droppedKeys });
  return { deletedStreams, at };
}
