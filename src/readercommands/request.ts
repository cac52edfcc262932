// Support operations that are reader commands (Admin): time sync and reader
// reboot. One request gives the same command to several readers through the
// agent command channel (src/agents/commands.ts); its id is the command id in
// every reader's command stream, so the result per reader is read back from
// those streams. The request itself is an event:
//
//   readerCommandRequest-<requestId>   ReaderCommandsRequested
//     {requestId, type, readerNames, args, time}
import * as E from 'fp-ts/Either';
import * as t from 'io-ts';
import type { ReaderCommandRecord } from '../agents';
import { NonEmptyString } from '../core/codecs';
import { defineEvents, type EventOf } from '../core/events';
import { badRequest, type ApiError, type FieldError } from '../core/http/errors';
import type { ReaderDefinition } from '../readerdefinitions';

export const REQUEST_STREAM_PREFIX = 'readerCommandRequest-';
export const requestStream = (id: string): string => `${REQUEST_STREAM_PREFIX}${id}`;

export const SupportCommandType = t.keyof({ TIME_SYNC: null, REBOOT: null });
export type SupportCommandType = t.TypeOf<typeof SupportCommandType>;

export const readerCommandRequestEvents = defineEvents({
  ReaderCommandsRequested: t.type({ requestId: t.string, type: SupportCommandType, readerNames: t.array(t.string), args: t.UnknownRecord, time: t.string }),
});
export type ReaderCommandRequestEvent = EventOf<typeof readerCommandRequestEvents>;
export type RequestState = t.TypeOf<(typeof readerCommandRequestEvents)['ReaderCommandsRequested']> | null;
export const evolveRequest = (_s: RequestState, e: ReaderCommandRequestEvent): RequestState => e.data;

/** Which readers: `readerNames`, or every reader of `facility`, or (time sync only) every reader. */
const targetFields = { readerNames: t.array(NonEmptyString), facility: NonEmptyString };
const Target = t.partial(targetFields);
export const TimeSyncBody = t.exact(Target);
export const RebootBody = t.exact(t.partial({ ...targetFields, reason: t.string }));
export const TIME_SYNC_FIELDS = Object.keys(targetFields);
export const REBOOT_FIELDS = [...TIME_SYNC_FIELDS, 'reason'];
export type TargetBody = t.TypeOf<typeof Target>;

const targetSchema = {
  readerNames: { type: 'array', items: { type: 'string' }, description: 'these readers' },
  facility: { type: 'string', description: 'every reader of this facility' },
};
export const timeSyncBodySchema = { type: 'object', description: 'neither field: every reader', properties: targetSchema };
export const rebootBodySchema = {
  type: 'object',
  description: 'readerNames or facility is required',
  properties: { ...targetSchema, reason: { type: 'string', description: 'reported back by the reader in its LIFECYCLE REBOOT health event' } },
};

/** The readers a request names (sorted), or a 400 naming the field; `all` allows an empty target. */
export function resolveTarget(body: TargetBody, readers: readonly ReaderDefinition[], facilities: readonly string[], all: boolean): E.Either<ApiError, string[]> {
  const errors: FieldError[] = [];
  if (body.readerNames !== undefined && body.facility !== undefined) errors.push({ path: 'body.facility', reason: 'give readerNames or facility, not both' });
  let names: string[];
  if (body.readerNames !== undefined) {
    const known = new Set(readers.map((r) => r.name));
    body.readerNames.forEach((n, i) => {
      if (!known.has(n)) errors.push({ path: `body.readerNames.${i}`, reason: `no reader definition named ${JSON.stringify(n)}` });
    });
    names = [...new Set(body.readerNames)];
  } else if (body.facility !== undefined) {
    if (!facilities.includes(body.facility)) errors.push({ path: 'body.facility', reason: `no facility named ${JSON.stringify(body.facility)}` });
    names = readers.filter((r) => r.facility === body.facility).map((r) => r.name);
  } else if (all) names = readers.map((r) => r.name);
  else return E.left(badRequest('Name the readers', [{ path: 'body.readerNames', reason: 'is required (readerNames or facility)' }]));
  if (errors.length > 0) return E.left(badRequest('Invalid reader command request', errors));
  if (names.length === 0) return E.left(badRequest('No reader to command', [{ path: body.facility !== undefined ? 'body.facility' : 'body.readerNames', reason: 'names no reader' }]));
  return E.right(names.sort());
}

/** PENDING (not taken yet), DELIVERED (a check-in carried it), DONE or FAILED (the agent's result). */
export type ReaderCommandStatus = 'PENDING' | 'DELIVERED' | 'DONE' | 'FAILED';

export function toRequestStatus(req: NonNullable<RequestState>, records: ReadonlyMap<string, ReaderCommandRecord | undefined>) {
  const readers = req.readerNames.map((readerName) => {
    const r = records.get(readerName);
    const status: ReaderCommandStatus = r?.result ?? (r?.deliveredAt ? 'DELIVERED' : 'PENDING');
    return { readerName, status, message: r?.message ?? null, deliveredAt: r?.deliveredAt ?? null, completedAt: r?.completedAt ?? null };
  });
  const done = readers.every((r) => r.status === 'DONE' || r.status === 'FAILED');
  return { requestId: req.requestId, type: req.type, args: req.args, requestedAt: req.time, completed: done, readers };
}
