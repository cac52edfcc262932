// The decisions on one client queue (stream `queue-<uuid>`): configured once,
// retired at most once, by its owner (or an Admin) through the API or by the
// relay after it had no consumer. Decided on the queue's own stream, never on
// the queue list in Redis. Pure.
import { left, right, type Either } from 'fp-ts/Either';
import { assertNever } from '../core/codecs';
import type { Decider, CommandStream } from '../core/command';
import { conflict, notFound, type ApiError } from '../core/http/errors';
import { queueEvents, type QueueConfiguredData, type QueueEvent, type QueueRetiredData } from './events';
import { visibleQueues } from './listing';
import { queueStream } from './model';

export interface QueueState {
  readonly configured: QueueConfiguredData | undefined;
  readonly retired: boolean;
}

export type QueueCommand =
  | { readonly type: 'Configure'; readonly data: QueueConfiguredData }
  /** `by`: the user deleting it (visibility is checked), or absent for the relay's retirement. */
  | { readonly type: 'Retire'; readonly data: QueueRetiredData; readonly by?: { readonly name: string; readonly roles: readonly string[] } };

const evolve = (state: QueueState, event: QueueEvent): QueueState => {
  switch (event.type) {
    case 'QueueConfigured':
      return { ...state, configured: event.data };
    case 'QueueRetired':
      return { ...state, retired: true };
    default:
      return assertNever(event);
  }
};

function decide(command: QueueCommand, state: QueueState): Either<ApiError, QueueEvent[]> {
  switch (command.type) {
    case 'Configure':
      if (state.configured !== undefined) return left(conflict(`queue ${command.data.queue} exists already`));
      return right([{ type: 'QueueConfigured', data: command.data }]);
    case 'Retire': {
      const q = state.configured;
      const visible = q !== undefined && (command.by === undefined || visibleQueues([q], command.by).length > 0);
      if (!visible || state.retired) return left(notFound(`queue ${command.data.queue} not found`));
      return right([{ type: 'QueueRetired', data: command.data }]);
    }
    default:
      return assertNever(command);
  }
}

export const queueDecider: Decider<QueueCommand, QueueState, QueueEvent, ApiError> = {
  initialState: { configured: undefined, retired: false },
  evolve,
  decide: (command, state) => decide(command, state),
};

export const onQueue = (id: string): CommandStream<typeof queueEvents, QueueCommand, QueueState, ApiError> => ({
  stream: queueStream(id),
  codecs: queueEvents,
  decider: queueDecider,
  conflict: `queue ${id} was changed concurrently; retry`,
});
