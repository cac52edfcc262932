// The decisions about a position kept in the event log (./log-checkpoint.ts):
// who may move it (the holder that took it last), and that it never goes
// back. Every event carries the whole state, so the stream may keep only its
// newest events ($maxCount) without losing the position. Pure.
import type { Position } from '@eventstore/db-client';
import * as t from 'io-ts';
import { left, right, type Either } from 'fp-ts/Either';
import { NonNegativeInteger, NonEmptyString, nullable, assertNever } from '../codecs';
import { defineEvents, type EventOf } from '../events';
import type { Decider } from '../command';
import { comparePositions } from './position';

/** A 64-bit log position part: stored as a decimal string, never as a JS number. */
const DecimalBigInt = new t.Type<bigint, string, unknown>(
  'decimal integer string',
  (u): u is bigint => typeof u === 'bigint',
  (u, c) => (typeof u === 'string' && /^\d{1,20}$/.test(u) ? t.success(BigInt(u)) : t.failure(u, c, 'must be a decimal integer string')),
  (b) => b.toString(),
);
const PositionData = t.type({ commit: DecimalBigInt, prepare: DecimalBigInt });
const Progress = {
  holder: NonEmptyString,
  /** Every effect of the events up to here (inclusive) is confirmed; null: none yet. */
  at: nullable(PositionData),
  /** ...and this many effects of the event after it (a consumer that splits one event over several requests). */
  skip: NonNegativeInteger,
};

export const logCheckpointEvents = defineEvents({
  /** A process took the position over: from now on only it may move it. */
  CheckpointTaken: t.type(Progress),
  /** The holder's effects up to `at` (and `skip`) were confirmed by the outside party. */
  CheckpointSaved: t.type(Progress),
  /** The consumer was removed: a new one under the same name starts from the beginning of the log. */
  CheckpointCleared: t.type({ by: NonEmptyString }),
});
export type LogCheckpointEvent = EventOf<typeof logCheckpointEvents>;

export interface LogCheckpointState {
  /** Who may save; undefined: nobody took it since it was created or cleared. */
  readonly holder: string | undefined;
  readonly at: Position | undefined;
  readonly skip: number;
}

export type LogCheckpointCommand =
  | { readonly type: 'Take'; readonly holder: string }
  | { readonly type: 'Save'; readonly holder: string; readonly at: Position | undefined; readonly skip: number }
  | { readonly type: 'Clear'; readonly by: string };

/** A save by a process that no longer holds the position: another one took it over (it runs, this one must stop). */
export class CheckpointFenced extends Error {
  override readonly name = 'CheckpointFenced';
  constructor(
    readonly holder: string,
    readonly current: string | undefined,
  ) {
    super(`the position is held by ${current ?? 'nobody'}, not by ${holder}`);
  }
}

export const initialLogCheckpoint: LogCheckpointState = { holder: undefined, at: undefined, skip: 0 };

function evolve(_state: LogCheckpointState, event: LogCheckpointEvent): LogCheckpointState {
  switch (event.type) {
    case 'CheckpointTaken':
    case 'CheckpointSaved':
      return { holder: event.data.holder, at: event.data.at ?? undefined, skip: event.data.skip };
    case 'CheckpointCleared':
      return initialLogCheckpoint;
    default:
      return assertNever(event);
  }
}

/** How far a consumer got: every effect of the events up to `at`, and `skip` effects of the next. */
export interface LogProgress {
  readonly at: Position | undefined;
  readonly skip: number;
}

/** Whether progress `a` lies beyond `b`. */
export function isAhead(a: LogProgress, b: LogProgress): boolean {
  if (a.at === undefined) return b.at === undefined && a.skip > b.skip;
  if (b.at === undefined) return true;
  const order = comparePositions(a.at, b.at);
  return order > 0 || (order === 0 && a.skip > b.skip);
}

function decide(command: LogCheckpointCommand, state: LogCheckpointState): Either<CheckpointFenced, LogCheckpointEvent[]> {
  switch (command.type) {
    case 'Take':
      if (state.holder === command.holder) return right([]);
      return right([{ type: 'CheckpointTaken', data: { holder: command.holder, at: state.at ?? null, skip: state.skip } }]);
    case 'Save':
      if (state.holder !== command.holder) return left(new CheckpointFenced(command.holder, state.holder));
      // Never back: a late save of an older position changes nothing.
      if (!isAhead(command, state)) return right([]);
      return right([{ type: 'CheckpointSaved', data: { holder: command.holder, at: command.at ?? null, skip: command.skip } }]);
    case 'Clear':
      return right(state.holder === undefined && state.at === undefined ? [] : [{ type: 'CheckpointCleared', data: { by: command.by } }]);
    default:
      return assertNever(command);
  }
}

export const logCheckpointDecider: Decider<LogCheckpointCommand, LogCheckpointState, LogCheckpointEvent, CheckpointFenced> = {
  initialState: initialLogCheckpoint,
  evolve,
  decide: (command, state) => decide(command, state),
};
