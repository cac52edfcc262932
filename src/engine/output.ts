// The engine's output, ENGINE_STREAM, as the run writes it: where it ends
// (readLastOutput), how one cycle's changes are cut into events that each
// stay under the event store's size limit (outputParts), and the fenced
// append (FencedOutput). Fencing is the engine's lease: every append names
// the revision this run last wrote, so a second instance writing the stream
// makes this one's next append fail instead of duplicating history.
import type { EventStoreDBClient } from '@eventstore/db-client';
import { ConcurrencyError, appendEvents, type StreamRevision } from '../core/eventstore';
import { lastEventOf } from '../core/last-event-command';
import { encodeEvent } from '../core/events';
import { ingestion } from '../core/ingestion-summary';
import type { Logger } from '../core/logger';
import { ENGINE_STREAM, itemEvents, type ItemsEvent } from './events';
import type { ThresholdOutput } from './threshold/tracker';
import type { ItemChange } from './types';

// About 450 bytes of JSON per change: 1000 changes stay well under 1 MiB.
export const MAX_CHANGES_PER_EVENT = 1000;
// Threshold transitions and iteration records are about 350 bytes each: 300 of each beside 1000 changes stay under it too.
const MAX_THRESHOLD_RECORDS_PER_EVENT = 300;

export type ItemsChangedData = Extract<ItemsEvent, { type: 'ItemsChanged' }>['data'];

/** Where ENGINE_STREAM ends: its last revision, the input position its last event covers and the engine's time there. */
export interface LastOutput {
  readonly revision: StreamRevision;
  readonly inputPosition: string | undefined;
  readonly at: number | undefined;
}

/** Reads the last ItemsChanged of a partition's output stream (backwards, one event; default ENGINE_STREAM). */
export async function readLastOutput(client: EventStoreDBClient, stream: string = ENGINE_STREAM): Promise<LastOutput> {
  const { revision, event } = await lastEventOf(client, stream, itemEvents);
  return { revision, inputPosition: event?.data.inputPosition, at: event?.data.at };
}

/** One event's share of a cycle's output. */
export interface OutputPart {
  readonly changes: ItemChange[];
  readonly transitions: ThresholdOutput['transitions'];
  readonly iterations: ThresholdOutput['iterations'];
}

/** Cuts a cycle's changes and threshold records into as few events as the size limit allows (at least one). */
export function outputParts(changes: ItemChange[], threshold: ThresholdOutput): OutputPart[] {
  const events = Math.max(
    1,
    Math.ceil(changes.length / MAX_CHANGES_PER_EVENT),
    Math.ceil(threshold.transitions.length / MAX_THRESHOLD_RECORDS_PER_EVENT),
    Math.ceil(threshold.iterations.length / MAX_THRESHOLD_RECORDS_PER_EVENT),
  );
  const parts: OutputPart[] = [];
  for (let k = 0; k < events; k++) {
    const part = <T>(list: T[], max: number): T[] => list.slice(k * max, (k + 1) * max);
    parts.push({
      changes: part(changes, MAX_CHANGES_PER_EVENT),
      transitions: part(threshold.transitions, MAX_THRESHOLD_RECORDS_PER_EVENT),
      iterations: part(threshold.iterations, MAX_THRESHOLD_RECORDS_PER_EVENT),
    });
  }
  return parts;
}

/** Where a run appends its ItemsChanged: the partition's stream (FencedOutput), or a replay's scratch output. */
export interface EngineOutput {
  readonly revision: StreamRevision;
  readonly flushedInputPosition: string | undefined;
  readonly lastEventId: string | undefined;
  append(data: ItemsChangedData): Promise<void>;
}

/** A partition's output stream (ENGINE_STREAM for partition 0) as one run wrote it: appends fenced by the revision it last wrote. */
export class FencedOutput implements EngineOutput {
  private current: StreamRevision;
  private flushed: string | undefined;
  private lastId: string | undefined;

  constructor(
    private readonly client: EventStoreDBClient,
    private readonly log: Logger,
    last: LastOutput,
    private readonly stream: string = ENGINE_STREAM,
  ) {
    this.current = last.revision;
    this.flushed = last.inputPosition;
  }

  /** The revision this run last wrote (or found at its start). */
  get revision(): StreamRevision {
    return this.current;
  }

  /** Input position claimed by the last ItemsChanged appended (or found at the start). */
  get flushedInputPosition(): string | undefined {
    return this.flushed;
  }

  /** Id of the last ItemsChanged this run appended (a snapshot names it). */
  get lastEventId(): string | undefined {
    return this.lastId;
  }

  /** Appends one ItemsChanged; a ConcurrencyError means someone else wrote the stream (fenced). */
  async append(data: ItemsChangedData): Promise<void> {
    const event = encodeEvent(itemEvents, { type: 'ItemsChanged', data });
    try {
      const outcome = await appendEvents(this.client, this.stream, [event], this.current);
      this.current = outcome.nextExpectedRevision;
      ingestion.itemsChanged(data.changes.length);
      this.flushed = data.inputPosition;
      this.lastId = event.id;
    } catch (err) {
      if (err instanceof ConcurrencyError) this.log.warn('engine output stream written by someone else: fenced, resyncing', { stream: this.stream, err: err.message });
      throw err;
    }
  }
}
