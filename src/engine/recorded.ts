// What the engine recorded on an output stream, read back as the decisions it
// made (item changes, threshold transitions, item resets, in order), and an
// output that compares what a run decides again with them instead of
// appending. Two users: `npm run replay -- engine` (replay.ts) and a run that
// rebuilds its state by deciding the input since its snapshot again
// (run.ts). Event boundaries and append times are not compared: they depend
// on batching and append timing, not on the log.
import { FORWARDS, StreamNotFoundError, type EventStoreDBClient } from '@eventstore/db-client';
import { isLeft } from 'fp-ts/Either';
import { decodeRecorded } from '../core/events';
import { itemEvents } from './events';
import type { EngineOutput, ItemsChangedData, LastOutput } from './output';

/** One thing the engine decided, as compared. */
export type Decision = { readonly kind: 'change' | 'transition' | 'reset'; readonly value: unknown };

export interface DecisionDifference {
  /** Index (from 0) of the first decision that differs, counted from where the comparison started. */
  readonly index: number;
  readonly recorded: Decision | undefined;
  readonly replayed: Decision | undefined;
}

const OUTPUT_CHUNK = 200;

function decisionsOf(data: ItemsChangedData): Decision[] {
  const out: Decision[] = [];
  if (data.reset !== undefined) out.push({ kind: 'reset', value: data.reset });
  for (const c of data.changes) out.push({ kind: 'change', value: c });
  for (const t of data.transitions ?? []) out.push({ kind: 'transition', value: t });
  return out;
}

export interface RecordedEvent {
  readonly id: string;
  readonly revision: bigint;
  readonly data: ItemsChangedData;
}

/**
 * The recorded output from `fromRevision` on (up to `toRevision`, inclusive,
 * when given), read in chunks, each read to its end before any of it is
 * yielded (a client read left early keeps its gRPC call open), so a caller
 * may stop at any event. Revisions hidden by a soft delete (factory reset)
 * are not returned: the read then starts at the first visible one.
 */
export async function* recordedEvents(client: EventStoreDBClient, stream: string, fromRevision: bigint, toRevision?: bigint): AsyncGenerator<RecordedEvent> {
  let next = fromRevision;
  for (;;) {
    if (toRevision !== undefined && next > toRevision) return;
    const maxCount = toRevision !== undefined && toRevision - next + 1n < BigInt(OUTPUT_CHUNK) ? Number(toRevision - next + 1n) : OUTPUT_CHUNK;
    const chunk: RecordedEvent[] = [];
    let failure: unknown;
    try {
      for await (const resolved of client.readStream(stream, { fromRevision: next, direction: FORWARDS, maxCount })) {
        const decoded = decodeRecorded(resolved, itemEvents);
        if (isLeft(decoded)) failure ??= decoded.left;
        else chunk.push({ id: decoded.right.id, revision: decoded.right.revision, data: decoded.right.data });
      }
    } catch (err) {
      if (err instanceof StreamNotFoundError) return;
      throw err;
    }
    if (failure !== undefined) throw failure;
    for (const e of chunk) {
      if (toRevision !== undefined && e.revision > toRevision) return;
      yield e;
    }
    const last = chunk[chunk.length - 1];
    if (last === undefined || chunk.length < maxCount) return;
    next = last.revision + 1n;
  }
}

/** The recorded decisions from a revision on, one at a time. */
export class RecordedDecisions {
  private buffer: Decision[] = [];
  private readonly events: AsyncGenerator<RecordedEvent>;

  constructor(client: EventStoreDBClient, stream: string, fromRevision: bigint) {
    this.events = recordedEvents(client, stream, fromRevision);
  }

  async next(): Promise<Decision | undefined> {
    while (this.buffer.length === 0) {
      const e = await this.events.next();
      if (e.done === true) return undefined;
      this.buffer = decisionsOf(e.value.data);
    }
    return this.buffer.shift();
  }
}

const same = (a: Decision, b: Decision): boolean => a.kind === b.kind && JSON.stringify(a.value) === JSON.stringify(b.value);

/**
 * An output that appends nothing: each decision is compared with the next
 * recorded one. The first difference is kept and everything after it is
 * ignored (it never throws, so the run deciding again never fails on it);
 * the caller looks at `difference` between batches.
 */
export class ComparingOutput implements EngineOutput {
  revision: bigint;
  flushedInputPosition: string | undefined;
  lastEventId: string | undefined = undefined;
  decisions = 0;
  difference: DecisionDifference | undefined;

  constructor(
    private readonly recorded: RecordedDecisions,
    from: LastOutput,
  ) {
    this.revision = typeof from.revision === 'bigint' ? from.revision : -1n;
    this.flushedInputPosition = from.inputPosition;
  }

  async append(data: ItemsChangedData): Promise<void> {
    if (this.difference === undefined) {
      for (const replayed of decisionsOf(data)) {
        const recorded = await this.recorded.next();
        if (recorded === undefined || !same(recorded, replayed)) {
          this.difference = { index: this.decisions, recorded, replayed };
          break;
        }
        this.decisions++;
      }
    }
    this.revision++;
    this.flushedInputPosition = data.inputPosition;
  }

  /** After the last batch: a recorded decision the run did not make again is a difference too. */
  async finish(): Promise<DecisionDifference | undefined> {
    if (this.difference !== undefined) return this.difference;
    const extra = await this.recorded.next();
    if (extra !== undefined) this.difference = { index: this.decisions, recorded: extra, replayed: undefined };
    return this.difference;
  }
}
