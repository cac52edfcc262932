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
import { NO_STREAM, type EventStoreDBClient } from '@eventstore/db-client';
import type { Logger } from '../core/logger';
import { malformedSkipped } from '../core/subscriptions';
import { scanConfiguration } from './configuration-scan';
import { inputRange, positionOf } from './input';
import { engineStream } from './partitions';
import { ComparingOutput, RecordedDecisions, recordedEvents, type DecisionDifference, type RecordedEvent } from './recorded';
import { EngineRun } from './run';

export type { Decision } from './recorded';
export type ReplayDifference = DecisionDifference;

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
    (_run, err) => opts.logger.warn('replay: engine run failed', { err: String(err) }),
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
  const compared = (): ComparingOutput => {
    if (output === undefined) throw new Error('replay: the run has no output');
    return output;
  };
  for await (const { batch, end } of inputRange(opts.client, base === undefined ? undefined : positionOf(base.data.inputPosition), until, malformedSkipped(opts.logger))) {
    inputEvents += batch.length;
    await run.handle(batch, end);
    opts.onProgress?.(inputEvents, compared().decisions);
    // Stops at the first difference; the rest of the input cannot make it go away.
    if (compared().difference !== undefined) return result(compared().difference);
  }
  await run.flush();
  // The replay decided everything it did; whatever the recorded output holds beyond is a difference too.
  return result(await compared().finish());
}
