// Id allocation for antenna configurations and thresholds. Recipes
// (`thresholdIds`) and thresholds (`antennaConfigurationId`) refer to these
// ids, so the service must never hand out an id twice, deleted ids included.
//
// Each kind has a counter stream `thresholdIds-<kind>` whose events
// `IdAllocated {id}` record every id taken. Allocating reads the stream,
// takes one more than the highest id and appends with the read revision as
// expected revision: of two concurrent creates one loses the append, re-reads
// and takes the next id, so both cannot get the same one. A client-chosen id
// (threshold createOrReplace with an `id`) is recorded too when it is above
// the highest, so later allocations skip it.
//
// The counter streams are not projected (no read model needs them): the
// prefix `thresholdIds-` is outside the config projection's filter.
import * as t from 'io-ts';
import { right, type Either } from 'fp-ts/Either';
import type { EventStoreDBClient } from '@eventstore/db-client';
import { runCommand, type CommandStream, type Decider } from '../core/command';
import { defineEvents, type EventMetadata, type EventOf } from '../core/events';
import type { ApiError } from '../core/http/errors';
import { Integer } from '../readerdefinitions';
import { nextId } from './ids';

export const ID_COUNTER_STREAM_PREFIX = 'thresholdIds-';
export const idCounterStream = (kind: string): string => `${ID_COUNTER_STREAM_PREFIX}${kind}`;

export const idCounterEvents = defineEvents({ IdAllocated: t.type({ id: Integer }) });
export type IdCounterEvent = EventOf<typeof idCounterEvents>;

export interface IdCounterState {
  /** The highest id ever allocated or reserved; 0 before the first. */
  readonly highest: number;
}
export const initialIdCounter: IdCounterState = { highest: 0 };

export type IdCounterCommand = { readonly type: 'allocate' } | { readonly type: 'reserve'; readonly id: number };

export const evolveIdCounter = (s: IdCounterState, e: IdCounterEvent): IdCounterState => ({
  highest: Math.max(s.highest, e.data.id),
});

/** allocate: always one new id. reserve: records `id` only when it is above every id so far. */
export function decideIdCounter(cmd: IdCounterCommand, s: IdCounterState): Either<ApiError, IdCounterEvent[]> {
  if (cmd.type === 'allocate') return right([{ type: 'IdAllocated', data: { id: nextId([s.highest]) } }]);
  return right(cmd.id > s.highest ? [{ type: 'IdAllocated', data: { id: cmd.id } }] : []);
}

export const idCounterDecider: Decider<IdCounterCommand, IdCounterState, IdCounterEvent, ApiError> = {
  initialState: initialIdCounter,
  evolve: evolveIdCounter,
  decide: (c, s) => decideIdCounter(c, s),
};

/** For runCommand: the counter stream of `kind`. A creator that loses the append to another re-reads, up to 20 times. */
const onIdCounter = (kind: string): CommandStream<typeof idCounterEvents, IdCounterCommand, IdCounterState, ApiError> => ({
  stream: idCounterStream(kind),
  codecs: idCounterEvents,
  decider: idCounterDecider,
  retries: 20,
  conflict: `too many concurrent creates of ${kind}; retry`,
});

async function run(client: EventStoreDBClient, kind: string, cmd: IdCounterCommand, metadata: EventMetadata): Promise<IdCounterState> {
  const result = await runCommand(client, onIdCounter(kind), cmd, { metadata });
  if (result._tag === 'Left') throw result.left;
  return result.right.state;
}

/** A new id of `kind`, never handed out before. */
export async function allocateId(client: EventStoreDBClient, kind: string, metadata: EventMetadata): Promise<number> {
  return (await run(client, kind, { type: 'allocate' }, metadata)).highest;
}

/** Makes sure later allocations of `kind` never return `id`. */
export async function reserveId(client: EventStoreDBClient, kind: string, id: number, metadata: EventMetadata): Promise<void> {
  await run(client, kind, { type: 'reserve', id }, metadata);
}
