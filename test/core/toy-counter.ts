// A toy aggregate (a named counter) that exercises the event store access
// layer the way a real slice does: codecs, pure evolve, pure decide with
// time passed in, and an exhaustiveness check on every switch.
import * as t from 'io-ts';
import { left, right, type Either } from 'fp-ts/Either';
import type { CommandStream, Decider } from '../../src/core/command';
import { defineEvents, type EventOf } from '../../src/core/events';

const DateFromISOString = new t.Type<Date, string, unknown>(
  'DateFromISOString',
  (u): u is Date => u instanceof Date,
  (u, c) => {
    if (typeof u !== 'string') return t.failure(u, c);
    const d = new Date(u);
    return Number.isNaN(d.getTime()) ? t.failure(u, c) : t.success(d);
  },
  (d) => d.toISOString(),
);

export const counterEvents = defineEvents({
  CounterOpened: t.type({ name: t.string, openedAt: DateFromISOString }),
  CounterIncremented: t.type({ by: t.number }),
  CounterClosed: t.type({ reason: t.string }),
});
export type CounterEvent = EventOf<typeof counterEvents>;

export type CounterState =
  | { status: 'none' }
  | { status: 'open'; name: string; value: number; openedAt: Date }
  | { status: 'closed'; name: string; value: number };

export const initialCounter: CounterState = { status: 'none' };

export type CounterCommand =
  | { type: 'OpenCounter'; name: string }
  | { type: 'Increment'; by: number }
  | { type: 'CloseCounter'; reason: string };

export type CounterError = { code: 'ALREADY_EXISTS' } | { code: 'NOT_FOUND' } | { code: 'CLOSED' } | { code: 'INVALID'; message: string };

function assertNever(x: never): never {
  throw new Error(`unexpected ${JSON.stringify(x)}`);
}

export function evolveCounter(state: CounterState, event: CounterEvent): CounterState {
  switch (event.type) {
    case 'CounterOpened':
      return { status: 'open', name: event.data.name, value: 0, openedAt: event.data.openedAt };
    case 'CounterIncremented':
      return state.status === 'open' ? { ...state, value: state.value + event.data.by } : state;
    case 'CounterClosed':
      return state.status === 'open' ? { status: 'closed', name: state.name, value: state.value } : state;
    default:
      return assertNever(event);
  }
}

export function decideCounter(
  command: CounterCommand,
  state: CounterState,
  now: Date,
): Either<CounterError, CounterEvent[]> {
  switch (command.type) {
    case 'OpenCounter':
      if (state.status !== 'none') return left({ code: 'ALREADY_EXISTS' });
      return right([{ type: 'CounterOpened', data: { name: command.name, openedAt: now } }]);
    case 'Increment':
      if (state.status === 'none') return left({ code: 'NOT_FOUND' });
      if (state.status === 'closed') return left({ code: 'CLOSED' });
      if (command.by === 0) return right([]);
      if (!Number.isInteger(command.by)) return left({ code: 'INVALID', message: 'by must be an integer' });
      return right([{ type: 'CounterIncremented', data: { by: command.by } }]);
    case 'CloseCounter':
      if (state.status === 'none') return left({ code: 'NOT_FOUND' });
      if (state.status === 'closed') return right([]);
      return right([{ type: 'CounterClosed', data: { reason: command.reason } }]);
    default:
      return assertNever(command);
  }
}

export const counter: Decider<CounterCommand, CounterState, CounterEvent, CounterError> = { initialState: initialCounter, evolve: evolveCounter, decide: decideCounter };

/** For runCommand: a counter on `stream`. */
export const onCounter = (
  stream: string,
  opts: { retries?: number; conflict?: string } = {},
): CommandStream<typeof counterEvents, CounterCommand, CounterState, CounterError> => ({ stream, codecs: counterEvents, decider: counter, ...opts });
