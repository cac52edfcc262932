// The engine's input feed: tag reports, job events, item reset requests, the
// configuration events jobs run with (./configuration.ts) and the engine's
// clock ticks (./clock.ts), from `$all` after the input position the output
// last claimed. The output is the only checkpoint: nothing is saved anywhere
// else, and nothing the engine decides comes from anywhere but this feed.
import { streamNameFilter, type EventStoreDBClient, type Position } from '@eventstore/db-client';
import { TAG_REPORTS_STREAM_PREFIX } from '../agents';
import type { MalformedEventError, RecordedDomainEvent } from '../core/events';
import type { Logger } from '../core/logger';
import { matchesFilter, runSubscription, type RunningSubscription } from '../core/subscriptions';
import { readBatch } from '../core/subscriptions/batch';
import type { FeedItem } from '../core/subscriptions/feed';
import { JOB_STREAM_PREFIX, jobEvents, type evolveJob } from '../jobs';
import { ENGINE_CLOCK_STREAM, clockEvents } from './clock';
import { CONFIG_STREAM_PREFIXES, configEvents } from './configuration';
import { ITEM_RESET_STREAM, itemResetEvents, type ItemsResetRequestedData } from './item-reset';
import { logRange } from './log-range';
import { engineReportEvents, type EngineReport } from './report';

// Item reset requests (support) are inputs too: carried out in order with the reports.
// Reports are decoded straight into the engine's columns (report.ts), not into an object per observation.
export const INPUT_CODECS = { ...engineReportEvents, ...jobEvents, ...itemResetEvents, ...configEvents, ...clockEvents };

export type ItemsResetRequest = RecordedDomainEvent<{ type: 'ItemsResetRequested'; data: ItemsResetRequestedData }>;
/** A configuration event: decoded by its kind's codec, folded by configEntryOf. */
export interface ConfigInput {
  type: string;
  data: unknown;
}
export type InputEvent = RecordedDomainEvent<
  | { type: 'TagsReported'; data: EngineReport }
  | { type: 'ItemsResetRequested'; data: ItemsResetRequestedData }
  | { type: 'EngineClockTicked'; data: Record<string, never> }
  | Parameters<typeof evolveJob>[1]
  | ConfigInput
>;

/** What the engine reads from the log. */
export const INPUT_FILTER = streamNameFilter({
  prefixes: [TAG_REPORTS_STREAM_PREFIX, JOB_STREAM_PREFIX, ITEM_RESET_STREAM, ENGINE_CLOCK_STREAM, ...CONFIG_STREAM_PREFIXES],
});

export const positionOf = (commit: string): Position => ({ commit: BigInt(commit), prepare: BigInt(commit) });

export interface InputFeedOptions {
  readonly client: EventStoreDBClient;
  readonly logger: Logger;
  /** The input position the output last claimed; undefined: the start of the log. */
  readonly resumeAfter: string | undefined;
  readonly handler: (events: ReadonlyArray<InputEvent>, position: Position) => Promise<void>;
  readonly onCaughtUp: () => void;
}

/** Subscribes to the engine's input after `resumeAfter`. */
export function subscribeToInput(opts: InputFeedOptions): RunningSubscription {
  const resume = opts.resumeAfter;
  return runSubscription({
    client: opts.client,
    name: 'item-engine',
    codecs: INPUT_CODECS,
    filter: INPUT_FILTER,
    // The engine's own output is its checkpoint: nothing is saved elsewhere.
    checkpointStore: { load: () => Promise.resolve(resume === undefined ? undefined : positionOf(resume)), save: () => Promise.resolve() },
    checkpointMode: 'handler',
    handler: opts.handler,
    logger: opts.logger,
    maxBatchSize: 500,
    onCaughtUp: opts.onCaughtUp,
  });
}

const RANGE_CHUNK = 2000;

/**
 * The input after `after` (default the start of the log) up to the commit
 * position `until` (inclusive), read from `$all` and taken exactly as the
 * subscription takes it (readBatch: events of other types skipped, an event
 * its codec refuses skipped and reported), in batches, each with the
 * position it ends at: what a replay feeds the engine, and what a run
 * decides again to rebuild its state from a snapshot. Anything else would
 * feed a replay other events than the run had, and time moves on every
 * input event.
 */
export async function* inputRange(
  client: EventStoreDBClient,
  after: Position | undefined,
  until: bigint,
  onMalformed: (error: MalformedEventError) => void,
): AsyncGenerator<{ batch: InputEvent[]; end: Position }> {
  for await (const { events, end } of logRange(client, after, until, RANGE_CHUNK)) {
    const items: FeedItem[] = [];
    for (const resolved of events) {
      if (resolved.event !== undefined && matchesFilter(INPUT_FILTER, resolved.event)) items.push({ kind: 'event', resolved, position: resolved.event.position });
    }
    const taken = readBatch(items, undefined, INPUT_CODECS);
    for (const m of taken.malformed) onMalformed(m);
    if (taken.events.length > 0) yield { batch: taken.events as InputEvent[], end };
  }
}
