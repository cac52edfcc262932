// `npm run replay -- engine`: runs the item engine again over the log into a
// scratch output (nothing is appended anywhere) and compares what it decides
// with what the engine recorded on its output stream: the item changes,
// threshold transitions and item resets, in order. Event boundaries (how the
// changes were cut into ItemsChanged events) and append times are not
// compared: they depend on batching and append timing, not on the log. The replay stops
// at the input the recorded output last claimed. It uses the live run's own
// code (run.ts) with its input read from `$all` instead of a subscription,
// so what it proves is that the engine's output is a function of the log
// (docs/item-processing.md, "Replaying the engine").
import { FORWARDS, NO_STREAM, StreamNotFoundError, type EventStoreDBClient, type Position } from '@eventstore/db-client';
import { isLeft } from 'fp-ts/Either';
import { decodeRecorded } from '../core/events';
import type { Logger } from '../core/logger';
import { matchesFilter } from '../core/subscriptions';
import { scanConfiguration } from './configuration-scan';
import { itemEvents } from './events';
import { INPUT_CODECS, INPUT_FILTER, positionOf, type InputEvent } from './input';
import type { EngineOutput, ItemsChangedData, LastOutput } from './output';
import { logRange } from './log-range';
import { engineStream } from './partitions';
import { EngineRun } from './run';

/** One thing the engine decided, as compared. */
export type Decision = { readonly kind: 'change' | 'transition' | 'reset'; readonly value: unknown };

export interface ReplayDifference {
  /** Index (from 0) of the first decision that differs, counted from where the replay started. */
  readonly index: number;
  readonly recorded: Decision | undefined;
  readonly replayed: Decision | undefined;
}

export interface ReplayResult {
  /** Output revision and input position the replay started after (undefined: the start of the log). */
  readonly from: { readonly revision: string; readonly inputPosition: string } | undefined;
  /** The input position the recorded output last claims: where the replay stopped. */
  readonly until: string | undefined;
  readonly inputEvents: number;
  readonly decisions: number;
  readonly difference: ReplayDifference | undefined;
  readonly seconds: number;
}

export interface ReplayOptions {
  readonly client: EventStoreDBClient;
  readonly logger: Logger;
  readonly partition?: { readonly index: number; readonly count: number };
  /**
   * Start after the last recorded event that claims input at or before this
   * `$all` commit position (its state is rebuilt from the output up to it);
   * default: the start of the output stream as it stands.
   */
  readonly from?: bigint;
  readonly onProgress?: (inputEvents: number, decisions: number) => void;
  /**
   * 'now': every job runs with the configuration as of the end of the
   * recorded output instead of the one of its time, which is what an engine
   * reading the current configuration (a read model) would do. The first
   * difference then shows where a configuration change mattered.
   */
  readonly configuration?: 'log' | 'now';
}

const INPUT_CHUNK = 2000;
const OUTPUT_CHUNK = 200;

function decisionsOf(data: ItemsChangedData): Decision[] {
  const out: Decision[] = [];
  if (data.reset !== undefined) out.push({ kind: 'reset', value: data.reset });
  for (const c of data.changes) out.push({ kind: 'change', value: c });
  for (const t of data.transitions ?? []) out.push({ kind: 'transition', value: t });
  return out;
}

interface RecordedEvent {
  readonly revision: bigint;
  readonly data: ItemsChangedData;
}

/** The recorded output, read in chunks, each read to its end. */
async function* recordedEvents(client: EventStoreDBClient, stream: string, fromRevision: bigint): AsyncGenerator<RecordedEvent> {
  let next = fromRevision;
  for (;;) {
    const chunk: RecordedEvent[] = [];
    let failure: unknown;
    try {
      for await (const resolved of client.readStream(stream, { fromRevision: next, direction: FORWARDS, maxCount: OUTPUT_CHUNK })) {
        const decoded = decodeRecorded(resolved, itemEvents);
        if (isLeft(decoded)) failure ??= decoded.left;
        else chunk.push({ revision: decoded.right.revision, data: decoded.right.data });
      }
    } catch (err) {
      if (err instanceof StreamNotFoundError) return;
      throw err;
    }
    if (failure !== undefined) throw failure;
    yield* chunk;
    const last = chunk[chunk.length - 1];
    if (last === undefined || chunk.length < OUTPUT_CHUNK) return;
    next = last.revision + 1n;
  }
}

/** The recorded output's first and last events, and the last one claiming input at or before `from`. */
async function outputBounds(client: EventStoreDBClient, stream: string, from: bigint | undefined): Promise<{ base: (RecordedEvent & { first: boolean }) | undefined; last: RecordedEvent | undefined }> {
  let base: (RecordedEvent & { first: boolean }) | undefined;
  let last: RecordedEvent | undefined;
  for await (const e of recordedEvents(client, stream, 0n)) {
    const first = last === undefined;
    // An output whose first visible event is not revision 0 starts at a factory reset's fence: replay from there.
    if ((from === undefined && first && e.revision > 0n) || (from !== undefined && BigInt(e.data.inputPosition) <= from)) base = { ...e, first };
    last = e;
  }
  return { base, last };
}

/** The recorded decisions after `base`, one at a time. */
class RecordedDecisions {
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

class StopReplay extends Error {}

/** The scratch output: compares each decision the replay appends with the next recorded one; stops at the first difference. */
class ComparingOutput implements EngineOutput {
  revision: bigint;
  flushedInputPosition: string | undefined;
  lastEventId: string | undefined = undefined;
  decisions = 0;
  difference: ReplayDifference | undefined;

  constructor(
    private readonly recorded: RecordedDecisions,
    last: LastOutput,
  ) {
    this.revision = typeof last.revision === 'bigint' ? last.revision : -1n;
    this.flushedInputPosition = last.inputPosition;
  }

  async append(data: ItemsChangedData): Promise<void> {
    for (const replayed of decisionsOf(data)) {
      const recorded = await this.recorded.next();
      if (recorded === undefined || !same(recorded, replayed)) {
        this.difference = { index: this.decisions, recorded, replayed };
        throw new StopReplay('difference found');
      }
      this.decisions++;
    }
    this.revision++;
    this.flushedInputPosition = data.inputPosition;
  }
}

export async function replayEngine(opts: ReplayOptions): Promise<ReplayResult> {
  const started = Date.now();
  const partition = opts.partition ?? { index: 0, count: 1 };
  const stream = engineStream(partition.index);
  const { base, last } = await outputBounds(opts.client, stream, opts.from);
  const recorded = new RecordedDecisions(opts.client, stream, base === undefined ? 0n : base.revision + 1n);
  const until = last === undefined ? undefined : BigInt(last.data.inputPosition);
  const fixed = opts.configuration === 'now' && until !== undefined ? { fixedConfiguration: await scanConfiguration(opts.client, until) } : {};
  let output: ComparingOutput | undefined;
  const run = new EngineRun(
    {
      client: opts.client,
      logger: opts.logger,
      clock: Date.now,
      cycleMs: 0,
      // Appends after each batch as the live run does (decisions are compared one by one, however they were cut).
      maxChanges: 5000,
      tickMs: 500,
      clockTickMs: 1000,
      snapshots: undefined,
      partition,
      output: (end) => (output = new ComparingOutput(recorded, end)),
      ...fixed,
    },
    (_run, err) => {
      if (!(err instanceof StopReplay)) opts.logger.warn('replay: engine run failed', { err: String(err) });
    },
  );
  await run.restore(base === undefined ? { revision: NO_STREAM, inputPosition: undefined, at: undefined } : { revision: base.revision, inputPosition: base.data.inputPosition, at: base.data.at });
  let inputEvents = 0;
  const result = (difference: ReplayDifference | undefined): ReplayResult => ({
    from: base === undefined ? undefined : { revision: base.revision.toString(), inputPosition: base.data.inputPosition },
    until: until?.toString(),
    inputEvents,
    decisions: output?.decisions ?? 0,
    difference,
    seconds: (Date.now() - started) / 1000,
  });
  if (until === undefined) return result(undefined);
  try {
    await feedInput(opts, base === undefined ? undefined : positionOf(base.data.inputPosition), until, async (batch, position) => {
      inputEvents += batch.length;
      await run.handle(batch, position);
      opts.onProgress?.(inputEvents, output?.decisions ?? 0);
    });
    await run.flush();
  } catch (err) {
    if (err instanceof StopReplay) return result(output?.difference);
    throw err;
  }
  // The replay decided everything it did; whatever the recorded output holds beyond is a difference too.
  const extra = await recorded.next();
  return result(extra === undefined ? undefined : { index: output?.decisions ?? 0, recorded: extra, replayed: undefined });
}

/** The engine's input after `after` up to `until` (inclusive), decoded as the live subscription decodes it, in batches. */
async function feedInput(opts: ReplayOptions, after: Position | undefined, until: bigint, handle: (batch: InputEvent[], position: Position) => Promise<void>): Promise<void> {
  for await (const { events, end } of logRange(opts.client, after, until, INPUT_CHUNK)) {
    const batch: InputEvent[] = [];
    for (const resolved of events) {
      if (resolved.event === undefined || !matchesFilter(INPUT_FILTER, resolved.event)) continue;
      const decoded = decodeRecorded(resolved, INPUT_CODECS);
      if (isLeft(decoded)) throw decoded.left;
      batch.push(decoded.right as InputEvent);
    }
    if (batch.length > 0) await handle(batch, end);
  }
}
