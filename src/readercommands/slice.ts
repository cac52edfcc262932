// /support/v1 reader commands (Admin): POST timeSync, POST readerReboot, GET
// readerCommands/show/{requestId}. Both POSTs answer 202 with a Location
// header and the request's status (every reader PENDING); the agents take the
// command at their next check-in and report DONE or FAILED, which show
// returns per reader. A rebooted reader reports the request's `reason` in a
// LIFECYCLE REBOOT health event once it is back (docs/agent-protocol.md).
import { randomUUID } from 'node:crypto';
import * as E from 'fp-ts/Either';
import type { Context } from 'koa';
import { issueReaderCommand, readerCommandsOf, type ReaderCommandRecord } from '../agents';
import { runCommand } from '../core/command';
import { aggregateStream } from '../core/eventstore';
import { decodeInput, refuseUnknownFields } from '../core/http/decode';
import { rootPathBefore } from '../core/http/root-path';
import { notFound, type ApiError } from '../core/http/errors';
import { commandMetadata } from '../core/resource/routes';
import type { AppDeps, Slice } from '../slice';
import { facilityKind } from '../facilities';
import { readerDefinitionsOf } from '../readerdefinitions';
import {
  evolveRequest, REBOOT_FIELDS, RebootBody, rebootBodySchema, readerCommandRequestEvents, requestStream, resolveTarget, TIME_SYNC_FIELDS, TimeSyncBody, timeSyncBodySchema, toRequestStatus,
  type ReaderCommandRequestEvent, type RequestState, type SupportCommandType, type TargetBody,
} from './request';

export const SUPPORT_BASE = '/support/v1';
const ROLES = ['Admin'];
const TAG = 'Support';
const STATUS_PATH = `${SUPPORT_BASE}/readerCommands/show`;

const nullableTime = { type: 'string', format: 'date-time', nullable: true };
/** The request status (toRequestStatus): what the POSTs and show answer. */
const REQUEST_STATUS_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['requestId', 'type', 'args', 'requestedAt', 'completed', 'readers'],
  properties: {
    requestId: { type: 'string' },
    type: { type: 'string', enum: ['TIME_SYNC', 'REBOOT'] },
    args: { type: 'object', additionalProperties: true },
    requestedAt: { type: 'string', format: 'date-time' },
    completed: { type: 'boolean', description: 'every reader is DONE or FAILED' },
    readers: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['readerName', 'status', 'message', 'deliveredAt', 'completedAt'],
        properties: {
          readerName: { type: 'string' },
          status: { type: 'string', enum: ['PENDING', 'DELIVERED', 'DONE', 'FAILED'] },
          message: { type: 'string', nullable: true, description: 'what the agent reported with its result' },
          deliveredAt: nullableTime,
          completedAt: nullableTime,
        },
      },
    },
  },
};
const ACCEPTED = { description: 'accepted; header Location: the request status; body: the status (readers PENDING)', schema: REQUEST_STATUS_SCHEMA };

async function statusOf(deps: AppDeps, requestId: string) {
  const { state } = await aggregateStream({ client: deps.client, stream: requestStream(requestId), codecs: readerCommandRequestEvents, initialState: null as RequestState, evolve: evolveRequest });
  if (state === null) return undefined;
  const records = new Map<string, ReaderCommandRecord | undefined>();
  await Promise.all(state.readerNames.map(async (r) => records.set(r, (await readerCommandsOf(deps, r)).find((c) => c.commandId === requestId))));
  return toRequestStatus(state, records);
}

/** Records the request, then issues the command (id = request id) to each reader. */
async function request(ctx: Context, deps: AppDeps, type: SupportCommandType, target: TargetBody, args: Record<string, unknown>, all: boolean): Promise<void> {
  const [readers, facilities] = await Promise.all([readerDefinitionsOf(deps.readModel), deps.readModel.list(facilityKind)]);
  const names = resolveTarget(target, readers, facilities.map((f) => f.name), all);
  if (E.isLeft(names)) throw names.left;
  const requestId = randomUUID();
  const metadata = commandMetadata(ctx);
  const recorded = await runCommand(deps.client, {
    stream: requestStream(requestId), codecs: readerCommandRequestEvents,
    decider: {
      initialState: null as RequestState, evolve: evolveRequest,
      decide: (_c: null, _s: RequestState, now: Date): E.Either<ApiError, ReaderCommandRequestEvent[]> =>
        E.right([{ type: 'ReaderCommandsRequested', data: { requestId, type, readerNames: names.right, args, time: now.toISOString() } }]),
    },
  }, null, { metadata });
  if (E.isLeft(recorded)) throw recorded.left;
  for (const reader of names.right) await issueReaderCommand(deps, reader, type, args, { commandId: requestId, metadata });
  const status = await statusOf(deps, requestId);
  ctx.status = 202;
  ctx.set('Location', `${rootPathBefore(ctx, SUPPORT_BASE)}${STATUS_PATH}/${requestId}`);
  ctx.body = status;
}

export const readerCommandsSlice: Slice = {
  name: 'readercommands',
  register(table, deps) {
    table.add(
      {
        method: 'post', operationId: 'timeSync', path: `${SUPPORT_BASE}/timeSync`, roles: ROLES, tag: TAG,
        summary: 'Tell readers to synchronise their clocks (all readers, readerNames, or a facility); result per reader at the Location',
        body: timeSyncBodySchema,
        responses: { 202: ACCEPTED, 400: 'unknown reader or facility, both given, or no reader' },
      },
      async (ctx) => {
        // An unknown (misspelt) field would leave no target: every reader.
        refuseUnknownFields(ctx.request.body, TIME_SYNC_FIELDS, 'target');
        const body = decodeInput(TimeSyncBody, ctx.request.body ?? {}, 'body');
        await request(ctx, deps, 'TIME_SYNC', body, {}, true);
      },
    );
    table.add(
      {
        method: 'post', operationId: 'readerReboot', path: `${SUPPORT_BASE}/readerReboot`, roles: ROLES, tag: TAG,
        summary: 'Reboot readers (readerNames or a facility) through their agents; each reports the reason back as a LIFECYCLE REBOOT health event',
        body: rebootBodySchema,
        responses: { 202: ACCEPTED, 400: 'no readers named, unknown reader or facility' },
      },
      async (ctx) => {
        refuseUnknownFields(ctx.request.body, REBOOT_FIELDS, 'reboot');
        const body = decodeInput(RebootBody, ctx.request.body, 'body');
        const principal = (ctx.state as { principal?: { name: string } }).principal?.name ?? 'an administrator';
        const reason = body.reason !== undefined && body.reason.trim() !== '' ? body.reason : `reboot requested by ${principal} through ${SUPPORT_BASE}/readerReboot`;
        const target: TargetBody = { ...(body.readerNames !== undefined ? { readerNames: body.readerNames } : {}), ...(body.facility !== undefined ? { facility: body.facility } : {}) };
        await request(ctx, deps, 'REBOOT', target, { reason }, false);
      },
    );
    table.add(
      {
        method: 'get', operationId: 'showReaderCommand', path: `${STATUS_PATH}/:requestId`, roles: ROLES, tag: TAG,
        summary: 'A time sync or reboot request with the result per reader (PENDING, DELIVERED, DONE, FAILED)',
        responses: { 200: { description: '{requestId, type, args, requestedAt, completed, readers: [{readerName, status, message, deliveredAt, completedAt}]}', schema: REQUEST_STATUS_SCHEMA }, 404: 'no such request' },
      },
      async (ctx) => {
        const id = String(ctx.params['requestId']);
        const status = await statusOf(deps, id);
        if (status === undefined) throw notFound(`reader command request ${id} not found`);
        ctx.body = status;
      },
    );
  },
};
