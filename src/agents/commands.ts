// The agent command channel (docs/agent-protocol.md, Commands): commands the
// service gives a reader's agent (REBOOT, UPGRADE, TIME_SYNC), answered at
// check-in and completed by the agent with DONE or FAILED.
//
//   readerCommands-<reader>   ReaderCommandIssued, ReaderCommandDelivered,
//                             ReaderCommandCompleted
//
// The pending commands of each reader are projected into Redis (part of the
// config projection, projections/config/agent-commands.ts), which check-in reads:
//   <prefix>v1:agents:commands:pending:<reader>    commandId -> JSON PendingCommand
//   <prefix>v1:agents:commands:delivered:<reader>  commandId -> ISO time first answered
//
// Decisions (decideReaderCommand, pure):
// - Issue: the args are checked against the type's codec (400 naming
//   `args.<field>`); issuing an id already issued decides nothing.
// - MarkDelivered (check-in): one ReaderCommandDelivered per command the
//   first time it is answered; never for a completed one.
// - Complete: an unknown command is a 404; completing again with the same
//   result decides nothing (a retry after a lost answer); with another result
//   it is a 409. A command need not have been delivered to be completed.
//
// Producers (support reboot, upgrades) call issueReaderCommand; support reads
// readerCommandsOf for the history with results.
import { randomUUID } from 'node:crypto';
import { isLeft, left, right, type Either } from 'fp-ts/Either';
import * as t from 'io-ts';
import { runCommand, type CommandStream, type Decider } from '../core/command';
import { formatDecodeErrors } from '../core/decode-errors';
import { aggregateStream } from '../core/eventstore';
import { defineEvents, type EventMetadata, type EventOf } from '../core/events';
import { badRequest, conflict, notFound, type ApiError } from '../core/http/errors';
import type { RedisClient } from '../core/redis/connect';
import type { RedisKeys } from '../core/redis/keys';
import { ReadModelGate } from '../core/redis/readiness';
import { decodeStoredOrAbsent } from '../core/stored-json';
import { CONFIG_READ_MODEL } from '../core/resource/readmodel';
import type { ResourceDeps } from '../core/resource/routes';
import { requireReader, IsoTimestamp, NonEmptyString } from '../readerdefinitions';
import { agentKeys } from './events';

export const READER_COMMANDS_STREAM_PREFIX = 'readerCommands-';
export const readerCommandsStream = (reader: string): string => `${READER_COMMANDS_STREAM_PREFIX}${reader}`;

export const ReaderCommandType = t.keyof({ REBOOT: null, UPGRADE: null, TIME_SYNC: null }, 'REBOOT | UPGRADE | TIME_SYNC');
export type ReaderCommandType = t.TypeOf<typeof ReaderCommandType>;
export const READER_COMMAND_TYPES: readonly ReaderCommandType[] = ['REBOOT', 'UPGRADE', 'TIME_SYNC'];

export const CommandResult = t.keyof({ DONE: null, FAILED: null }, 'DONE | FAILED');
export type CommandResult = t.TypeOf<typeof CommandResult>;

/** The args of each command type (exact: unknown fields are dropped). */
export const ReaderCommandArgs = {
  REBOOT: t.exact(t.partial({ reason: t.string }), 'RebootArgs'),
  UPGRADE: t.intersection([t.exact(t.type({ versionIdentifier: NonEmptyString })), t.exact(t.partial({ imageType: t.string, imageName: t.string, imageUrl: t.string, checksum: t.string }))], 'UpgradeArgs'),
  TIME_SYNC: t.exact(t.type({}), 'TimeSyncArgs'),
} as const;
export type ReaderCommandArgsOf<T extends ReaderCommandType> = t.TypeOf<(typeof ReaderCommandArgs)[T]>;

/** `readerCommands-<reader>`. */
export const readerCommandEvents = defineEvents({
  ReaderCommandIssued: t.type(
    { commandId: NonEmptyString, type: ReaderCommandType, args: t.UnknownRecord, issuedAt: IsoTimestamp },
    'ReaderCommandIssued',
  ),
  /** The first check-in answer that carried the command. */
  ReaderCommandDelivered: t.type({ commandId: NonEmptyString, at: IsoTimestamp }, 'ReaderCommandDelivered'),
  ReaderCommandCompleted: t.intersection(
    [t.type({ commandId: NonEmptyString, result: CommandResult, at: IsoTimestamp }), t.partial({ message: t.string })],
    'ReaderCommandCompleted',
  ),
});
export type ReaderCommandEvent = EventOf<typeof readerCommandEvents>;

/** One command of a reader with what became of it. */
export interface ReaderCommandRecord {
  readonly commandId: string;
  readonly type: ReaderCommandType;
  readonly args: Record<string, unknown>;
  readonly issuedAt: string;
  readonly deliveredAt: string | null;
  /** null while pending. */
  readonly result: CommandResult | null;
  readonly message: string | null;
  readonly completedAt: string | null;
}

/** A reader's commands, oldest first. */
export type ReaderCommandsState = ReadonlyArray<ReaderCommandRecord>;
export const initialReaderCommands: ReaderCommandsState = [];

export type ReaderCommandCommand =
  | { readonly kind: 'Issue'; readonly commandId: string; readonly type: ReaderCommandType; readonly args: unknown }
  | { readonly kind: 'MarkDelivered'; readonly commandIds: readonly string[] }
  | { readonly kind: 'Complete'; readonly commandId: string; readonly result: CommandResult; readonly message?: string | undefined };

const update = (state: ReaderCommandsState, commandId: string, f: (r: ReaderCommandRecord) => ReaderCommandRecord): ReaderCommandsState =>
  state.map((r) => (r.commandId === commandId ? f(r) : r));

export function evolveReaderCommands(state: ReaderCommandsState, event: ReaderCommandEvent): ReaderCommandsState {
  switch (event.type) {
    case 'ReaderCommandIssued': {
      const d = event.data;
      if (state.some((r) => r.commandId === d.commandId)) return state;
      return [...state, { commandId: d.commandId, type: d.type, args: d.args, issuedAt: d.issuedAt, deliveredAt: null, result: null, message: null, completedAt: null }];
    }
    case 'ReaderCommandDelivered':
      return update(state, event.data.commandId, (r) => (r.deliveredAt === null ? { ...r, deliveredAt: event.data.at } : r));
    case 'ReaderCommandCompleted': {
      const d = event.data;
      return update(state, d.commandId, (r) => (r.result === null ? { ...r, result: d.result, message: d.message ?? null, completedAt: d.at } : r));
    }
  }
}

/** The args of `type` decoded (unknown fields dropped), or a 400 naming `args.<field>`. */
export function decodeCommandArgs(type: ReaderCommandType, args: unknown): Either<ApiError, Record<string, unknown>> {
  const decoded = (ReaderCommandArgs[type] as t.Type<Record<string, unknown>, Record<string, unknown>, unknown>).decode(args ?? {});
  if (isLeft(decoded)) return left(badRequest(`Invalid args of a ${type} command`, formatDecodeErrors(decoded.left, 'args')));
  return right(decoded.right);
}

export function decideReaderCommand(command: ReaderCommandCommand, state: ReaderCommandsState, now: Date): Either<ApiError, ReaderCommandEvent[]> {
  const at = now.toISOString();
  const find = (id: string): ReaderCommandRecord | undefined => state.find((r) => r.commandId === id);
  switch (command.kind) {
    case 'Issue': {
      const args = decodeCommandArgs(command.type, command.args);
      if (isLeft(args)) return args;
      if (find(command.commandId) !== undefined) return right([]);
      return right([{ type: 'ReaderCommandIssued', data: { commandId: command.commandId, type: command.type, args: args.right, issuedAt: at } }]);
    }
    case 'MarkDelivered': {
      const events: ReaderCommandEvent[] = [];
      for (const id of new Set(command.commandIds)) {
        const r = find(id);
        if (r !== undefined && r.deliveredAt === null && r.result === null) events.push({ type: 'ReaderCommandDelivered', data: { commandId: id, at } });
      }
      return right(events);
    }
    case 'Complete': {
      const r = find(command.commandId);
      if (r === undefined) return left(notFound(`no command ${JSON.stringify(command.commandId)} was issued to this reader`));
      if (r.result === command.result) return right([]);
      if (r.result !== null) {
        return left(conflict(`command ${command.commandId} was already completed with ${r.result}`, [{ path: 'body.result', reason: `already ${r.result}` }]));
      }
      const message = command.message !== undefined ? { message: command.message } : {};
      return right([{ type: 'ReaderCommandCompleted', data: { commandId: command.commandId, result: command.result, at, ...message } }]);
    }
  }
}

/** Who issues commands when the producer passes no metadata. */
export const SERVICE_METADATA: EventMetadata = { user: 'tagtrail' };

export const readerCommandsDecider: Decider<ReaderCommandCommand, ReaderCommandsState, ReaderCommandEvent, ApiError> = {
  initialState: initialReaderCommands,
  evolve: evolveReaderCommands,
  decide: decideReaderCommand,
};

/** For runCommand: the reader's command stream. */
const onReaderCommands = (reader: string): CommandStream<typeof readerCommandEvents, ReaderCommandCommand, ReaderCommandsState, ApiError> => ({
  stream: readerCommandsStream(reader),
  codecs: readerCommandEvents,
  decider: readerCommandsDecider,
  conflict: `the commands of reader ${JSON.stringify(reader)} changed concurrently; retry`,
});

/**
 * Issues a command to a reader's agent: answered at its next check-ins until
 * it reports DONE or FAILED. 404 for an unknown reader definition, 400 for
 * args that do not fit the type. Waits for the read model, so the next
 * check-in carries it.
 */
export async function issueReaderCommand<T extends ReaderCommandType>(
  deps: ResourceDeps,
  readerName: string,
  type: T,
  args: ReaderCommandArgsOf<T>,
  opts: { metadata?: EventMetadata; now?: Date; commandId?: string } = {},
): Promise<{ commandId: string }> {
  await requireReader(deps, readerName);
  const commandId = opts.commandId ?? randomUUID();
  const metadata = opts.metadata ?? SERVICE_METADATA;
  const issue: ReaderCommandCommand = { kind: 'Issue', commandId, type, args };
  const issued = await runCommand(deps.client, onReaderCommands(readerName), issue, { metadata, waiter: deps.waiter, ...(opts.now ? { now: opts.now } : {}) });
  if (isLeft(issued)) throw issued.left;
  return { commandId };
}

/**
 * The agent's report on a command: 404 unknown (to this reader), 409
 * completed already with the other result; a repeat is fine. Waits for the
 * read model, so the next check-in no longer carries it.
 */
export async function completeReaderCommand(
  deps: ResourceDeps,
  reader: string,
  commandId: string,
  result: CommandResult,
  message: string | undefined,
  metadata: EventMetadata,
  now?: Date,
): Promise<ReaderCommandRecord> {
  const complete: ReaderCommandCommand = { kind: 'Complete', commandId, result, message };
  const completed = await runCommand(deps.client, onReaderCommands(reader), complete, { metadata, waiter: deps.waiter, ...(now ? { now } : {}) });
  if (isLeft(completed)) throw completed.left;
  const record = completed.right.state.find((r) => r.commandId === commandId);
  if (record === undefined) throw new Error(`command ${commandId} vanished after completing`);
  return record;
}

/** Records that check-in answered these commands (the first time only); does not wait for the read model. */
export async function markCommandsDelivered(deps: ResourceDeps, reader: string, commandIds: readonly string[], metadata: EventMetadata, now?: Date): Promise<void> {
  if (commandIds.length === 0) return;
  const marked = await runCommand(deps.client, onReaderCommands(reader), { kind: 'MarkDelivered', commandIds }, { metadata, ...(now ? { now } : {}) });
  if (isLeft(marked)) throw marked.left;
}

/** Every command issued to the reader with what became of it, oldest first (from the event store). */
export async function readerCommandsOf(deps: Pick<ResourceDeps, 'client'>, reader: string): Promise<ReaderCommandRecord[]> {
  const { state } = await aggregateStream({ client: deps.client, stream: readerCommandsStream(reader), codecs: readerCommandEvents, ...readerCommandsDecider });
  return [...state];
}

// --- read model -------------------------------------------------------------

/** What the read model keeps of a pending command. */
const PendingCommand = t.readonly(
  t.type({
    id: t.string,
    type: ReaderCommandType,
    args: t.UnknownRecord,
    issuedAt: t.string,
    /** Stream revision of ReaderCommandIssued: the order commands were issued in. */
    seq: t.number,
  }),
);
export type PendingCommand = t.TypeOf<typeof PendingCommand>;

export function commandKeys(keys: RedisKeys) {
  const base = agentKeys(keys).commandsBase;
  return {
    /** Hash commandId -> JSON PendingCommand, for commands not completed. */
    pending: (reader: string): string => `${base}pending:${reader}`,
    /** Hash commandId -> ISO time of ReaderCommandDelivered, for commands not completed. */
    delivered: (reader: string): string => `${base}delivered:${reader}`,
  };
}

/** The reader's pending commands, oldest first, and which were delivered already. */
export async function pendingCommandsOf(
  deps: { redis: RedisClient; keys: RedisKeys },
  reader: string,
): Promise<{ commands: PendingCommand[]; delivered: Set<string> }> {
  const k = commandKeys(deps.keys);
  const [pending, delivered] = await new ReadModelGate(deps.redis, deps.keys).read(CONFIG_READ_MODEL, () =>
    Promise.all([deps.redis.hGetAll(k.pending(reader)), deps.redis.hKeys(k.delivered(reader))]),
  );
  return { commands: decodePending(pending), delivered: new Set(delivered) };
}

/**
 * The pending commands of each of `readers`, in one look (one readiness
 * check, the hashes read together): the readers role asks for all the
 * readers it holds a connection to every scan.
 */
export async function pendingCommandsOfEach(deps: { redis: RedisClient; keys: RedisKeys }, readers: readonly string[]): Promise<Map<string, PendingCommand[]>> {
  if (readers.length === 0) return new Map();
  const k = commandKeys(deps.keys);
  const all = await new ReadModelGate(deps.redis, deps.keys).read(CONFIG_READ_MODEL, () => Promise.all(readers.map((r) => deps.redis.hGetAll(k.pending(r)))));
  return new Map(readers.map((r, i) => [r, decodePending(all[i] ?? {})]));
}

/** The stored pending commands in issue order; a value this version did not write is skipped (the reader is not refused its check-in for it). */
function decodePending(pending: Record<string, string>): PendingCommand[] {
  const commands: PendingCommand[] = [];
  for (const raw of Object.values(pending)) {
    const command = decodeStoredOrAbsent(PendingCommand, raw);
    if (command !== undefined) commands.push(command);
  }
  return commands.sort((a, b) => a.seq - b.seq);
}
