// A position kept in the event log, for consumers whose effects are seen
// outside tagtrail and must not be repeated after Redis loses its data: the
// AMQP relay (messages the broker confirmed) and the EPCIS capture (documents
// a repository acknowledged). Stream `checkpoint-<name>`, written through its
// decider (./log-checkpoint-decider.ts) with the read revision as expected
// revision, like every command. It is also the fence: a process takes the
// position when it starts (CheckpointTaken names it), and a save by any other
// process is refused (CheckpointFenced), so a process that was paused past
// its lease and resumed cannot move the position while another one runs; it
// learns at its next save and stops.
//
// Positions that cover something the outside party confirmed are written at
// once; positions that cover nothing outside (batches without a message,
// filter checkpoints) at most every `lazyMs`, so an idle consumer does not
// fill the log; they only save re-reading events that produce nothing.
import type { EventStoreDBClient } from '@eventstore/db-client';
import { isLeft } from 'fp-ts/Either';
import { runCommand, type CommandStream } from '../command';
import { aggregateStream } from '../eventstore';
import type { Logger } from '../logger';
import type { CheckpointStore } from './checkpoint-store';
import { CheckpointFenced, isAhead, logCheckpointDecider, logCheckpointEvents, type LogCheckpointCommand, type LogCheckpointState, type LogProgress } from './log-checkpoint-decider';
import { positionToString } from './position';

export { CheckpointFenced, type LogProgress } from './log-checkpoint-decider';

/** Every event holds the whole state: the newest few are all a reader needs. */
const KEEP_EVENTS = 8;
const DEFAULT_LAZY_MS = 5000;
const FLUSH_WITHIN_MS = 2000;

/** Streams of positions: kept by a factory reset, like the read models' checkpoints in Redis. */
export const LOG_CHECKPOINT_STREAM_PREFIX = 'checkpoint-';
export const logCheckpointStream = (name: string): string => `${LOG_CHECKPOINT_STREAM_PREFIX}${name}`;

const onCheckpoint = (name: string): CommandStream<typeof logCheckpointEvents, LogCheckpointCommand, LogCheckpointState, CheckpointFenced> => ({
  stream: logCheckpointStream(name),
  codecs: logCheckpointEvents,
  decider: logCheckpointDecider,
});

/** What the log records for `name` (any holder): for lag probes and tests. */
export async function readLogCheckpoint(client: EventStoreDBClient, name: string): Promise<LogCheckpointState> {
  const { state } = await aggregateStream({ client, stream: logCheckpointStream(name), codecs: logCheckpointEvents, ...logCheckpointDecider });
  return state;
}

/** The consumer `name` was removed: the next one under that name starts from the beginning; a running holder is fenced out. */
export async function clearLogCheckpoint(client: EventStoreDBClient, name: string, by: string): Promise<void> {
  const outcome = await runCommand(client, onCheckpoint(name), { type: 'Clear', by });
  if (isLeft(outcome)) throw outcome.left;
}


export interface LogCheckpointOptions {
  readonly client: EventStoreDBClient;
  readonly name: string;
  /** This process's id (its lease holder id), named in the log. */
  readonly holder: string;
  readonly logger: Logger;
  /** Called once when a save finds the position taken by another process. */
  readonly onFenced?: (err: CheckpointFenced) => void;
  /** Least time between writes of positions that cover nothing outside; default 5 s. */
  readonly lazyMs?: number;
}

/** One process's hold on a position in the log: take() first, then saves. */
export class LogCheckpoint {
  private known: LogProgress = { at: undefined, skip: 0 };
  private written: LogProgress = { at: undefined, skip: 0 };
  private lastWriteAt = 0;
  private chain: Promise<void> = Promise.resolve();
  private fenced: CheckpointFenced | undefined;

  constructor(private readonly opts: LogCheckpointOptions) {}

  /** The newest position known to this process (saved, or pending a lazy write). */
  get progress(): LogProgress {
    return this.known;
  }

  /**
   * Takes the position over (other holders are fenced out from here on) and
   * answers where it stands. `previous`: where a consumer kept its position
   * before it moved to the log, asked only while the log has none.
   */
  async take(previous?: () => Promise<LogProgress | undefined>): Promise<LogProgress> {
    const { client, name, holder } = this.opts;
    const stream = logCheckpointStream(name);
    const outcome = await runCommand(client, onCheckpoint(name), { type: 'Take', holder });
    if (isLeft(outcome)) throw outcome.left;
    // Stream metadata, not an event: how many of its events the store keeps.
    const { metadata } = await client.getStreamMetadata(stream);
    if (metadata?.maxCount !== KEEP_EVENTS) await client.setStreamMetadata(stream, { ...metadata, maxCount: KEEP_EVENTS });
    const { at, skip } = outcome.right.state;
    this.known = this.written = { at, skip };
    this.fenced = undefined;
    const earlier = at === undefined && skip === 0 ? await previous?.() : undefined;
    if (earlier !== undefined) await this.save(earlier, true);
    this.opts.logger.info('checkpoint taken', { name, holder, at: positionToString(this.known.at), skip: this.known.skip, ...(earlier ? { from: 'redis' } : {}) });
    return this.known;
  }

  /**
   * Records `p`: written at once when `confirmed` (it covers effects an
   * outside party confirmed), else at most every lazyMs. Saves are written one
   * at a time, in call order; a save behind a newer one changes nothing.
   * Rejects with CheckpointFenced once another process took the position.
   */
  save(p: LogProgress, confirmed: boolean): Promise<void> {
    if (this.fenced) return Promise.reject(this.fenced);
    if (isAhead(p, this.known)) this.known = p;
    if (!confirmed && Date.now() - this.lastWriteAt < (this.opts.lazyMs ?? DEFAULT_LAZY_MS)) return Promise.resolve();
    const done = this.chain.then(() => this.writeKnown());
    this.chain = done.catch(() => undefined);
    return done;
  }

  /**
   * Writes a lazily kept position (on stop), waiting at most `withinMs`: a
   * stop must not hang on an event store that does not answer; a position
   * not written then is read again after the restart (repeats, no loss).
   */
  async flush(withinMs = FLUSH_WITHIN_MS): Promise<void> {
    if (this.fenced) return;
    const done = this.chain.then(() => this.writeKnown());
    this.chain = done.catch(() => undefined);
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), withinMs)));
    try {
      const outcome = await Promise.race([done.catch(() => undefined), late]);
      if (outcome === 'late') this.opts.logger.warn('checkpoint not written before stopping', { name: this.opts.name, withinMs });
    } finally {
      clearTimeout(timer);
    }
  }

  /** This checkpoint as a subscription's store (`name` must be its own): loads the newest known, saves lazily. */
  asStore(): CheckpointStore {
    return {
      load: () => Promise.resolve(this.known.at),
      save: (_name, position) => this.save({ at: position, skip: 0 }, false),
    };
  }

  private async writeKnown(): Promise<void> {
    if (this.fenced) throw this.fenced;
    const target = this.known;
    if (!isAhead(target, this.written)) return;
    this.lastWriteAt = Date.now();
    const { client, name, holder } = this.opts;
    const outcome = await runCommand(client, onCheckpoint(name), { type: 'Save', holder, at: target.at, skip: target.skip });
    if (isLeft(outcome)) {
      this.fenced = outcome.left;
      this.opts.logger.error('checkpoint taken over by another process; this one stops', { name, holder, current: outcome.left.current });
      this.opts.onFenced?.(outcome.left);
      throw outcome.left;
    }
    if (isAhead(target, this.written)) this.written = target;
  }
}
