// Threshold definitions under /configuration/v1/thresholds (docs/interface.md), in the two path
// styles clients use, one handler behind both:
// - verb style: create, createOrReplace, destroy/{id}, show, show/{id};
// - REST style: GET|POST the collection, GET|PUT|DELETE /{id}.
// The gets accept `embed=antennaConfiguration`.
//
// The REST `/{id}` routes are registered last: the router tries routes in
// registration order, and `/{id}` would otherwise take `show`,
// `createOrReplace` and `antennaConfigurations`.
import { isLeft, left, map, right, type Either } from 'fp-ts/Either';
import type { Context } from 'koa';
import { decodeAndCheck, decodeInput } from '../core/http/decode';
import { badRequest, notFound, type ApiError } from '../core/http/errors';
import { formatDecodeErrors } from '../core/decode-errors';
import type { EventMetadata } from '../core/events';
import type { RouteTable } from '../core/http/routes';
import { commandMetadata, runResourceCommand, type ResourceDeps } from '../core/resource/routes';
import { THRESHOLD_ROLES, THRESHOLDS_BASE } from './antenna-routes';
import { createWithNewId } from './create';
import { reserveId } from './id-allocator';
import { nameOfId, thresholdKind } from './kind';
import { listAntennaConfigurations, listThresholds, thresholdContext } from './readmodel';
import { thresholdToResponse, type ThresholdResponse } from './response';
import { thresholdBodySchema, thresholdResponseSchema } from './schema';
import {
  ThresholdBody,
  ThresholdParams,
  ThresholdShowQuery,
  validateThresholdCreate,
  validateThresholdCreateOrReplace,
  type Threshold,
  type ThresholdContext,
} from './threshold';

export const THRESHOLDS_TAG = 'Thresholds';

const EMBED_PARAM = {
  name: 'embed',
  description: '`antennaConfiguration`: each reader entry also carries its antenna configuration (null if it no longer exists)',
  schema: { type: 'string', enum: ['antennaConfiguration'] },
};

async function respond(ctx: Context, deps: ResourceDeps, thresholds: readonly Threshold[]): Promise<ThresholdResponse[]> {
  const { embed } = decodeInput(ThresholdShowQuery, { ...ctx.query }, 'query');
  const configs = embed === 'antennaConfiguration' ? await listAntennaConfigurations(deps.readModel) : undefined;
  return thresholds.map((th) => thresholdToResponse(th, configs));
}

/** Replaces the threshold `id`, or creates it under that id. */
async function replaceThreshold(deps: ResourceDeps, id: number, doc: Threshold, metadata: EventMetadata): Promise<ThresholdResponse> {
  // Recorded before the threshold is written: allocation never hands it out again.
  await reserveId(deps.client, thresholdKind.kind, id, metadata);
  const name = nameOfId(id);
  const state = await runResourceCommand(deps, thresholdKind, name, () => right({ type: 'createOrReplace', name, resource: doc }), metadata);
  if (state.resource === undefined) throw new Error(`threshold ${id} missing after createOrReplace`);
  return thresholdToResponse(state.resource);
}

const WRITE_RESPONSES = {
  200: { description: 'the stored threshold', schema: thresholdResponseSchema },
  400: 'invalid input, or an unknown or omitted (with several facilities) facility',
  422: 'unknown reader definitions or antenna configurations, or readers of another facility',
};
const SHOW_ONE_RESPONSES = {
  200: { description: 'threshold', schema: thresholdResponseSchema },
  400: 'the id is not an integer, or an unknown embed',
  404: 'no such threshold',
};
const SHOW_ALL_RESPONSES = { 200: { description: 'array of threshold', schema: { type: 'array', items: thresholdResponseSchema } }, 400: 'an unknown embed' };
const DELETE_RESPONSES = { 204: 'deleted', 400: 'the id is not an integer', 404: 'no such threshold' };
const CREATE_SUMMARY = 'Create a threshold; the service assigns its id (an id in the body is ignored)';

type Handler = (ctx: Context) => Promise<void>;
/** One handler per operation, shared by both path styles. */
interface ThresholdHandlers {
  readonly create: Handler;
  readonly createOrReplace: Handler;
  readonly replaceAtPath: Handler;
  readonly destroy: Handler;
  readonly showOne: Handler;
  readonly showAll: Handler;
}

export function registerThresholdRoutes(table: RouteTable, deps: ResourceDeps): void {
  const handlers: ThresholdHandlers = {
    create: async (ctx) => createThreshold(deps, ctx),
    createOrReplace: async (ctx) => createOrReplaceThreshold(deps, ctx),
    replaceAtPath: async (ctx) => replaceThresholdAtPath(deps, ctx),
    destroy: async (ctx) => destroyThreshold(deps, ctx),
    showOne: async (ctx) => showThreshold(deps, ctx),
    showAll: async (ctx) => {
      ctx.body = await respond(ctx, deps, await listThresholds(deps.readModel));
    },
  };
  registerVerbStyleRoutes(table, handlers);
  registerRestStyleRoutes(table, handlers);
}

/** create, createOrReplace, destroy/{id}, show, show/{id}. */
function registerVerbStyleRoutes(table: RouteTable, { create, createOrReplace, destroy, showOne, showAll }: ThresholdHandlers): void {
  const tag = THRESHOLDS_TAG;
  const roles = THRESHOLD_ROLES;
  table.add({ method: 'post', operationId: 'createThreshold', path: `${THRESHOLDS_BASE}/create`, roles, tag, summary: CREATE_SUMMARY, body: thresholdBodySchema, responses: WRITE_RESPONSES }, create);
  table.add(
    {
      method: 'put', operationId: 'createOrReplaceThreshold', path: `${THRESHOLDS_BASE}/createOrReplace`, roles, tag,
      summary: 'Replace the threshold of the body id, or create it under that id; without an id, create one with a new id',
      body: thresholdBodySchema,
      responses: WRITE_RESPONSES,
    },
    createOrReplace,
  );
  table.add({ method: 'delete', operationId: 'destroyThreshold', path: `${THRESHOLDS_BASE}/destroy/:id`, roles, tag, summary: 'Delete a threshold', responses: DELETE_RESPONSES }, destroy);
  table.add({ method: 'get', operationId: 'showThreshold', path: `${THRESHOLDS_BASE}/show/:id`, roles, tag, summary: 'Show one threshold', query: [EMBED_PARAM], responses: SHOW_ONE_RESPONSES }, showOne);
  table.add({ method: 'get', operationId: 'showThresholds', path: `${THRESHOLDS_BASE}/show`, roles, tag, summary: 'Show every threshold, in id order', query: [EMBED_PARAM], responses: SHOW_ALL_RESPONSES }, showAll);
}

/** GET|POST the collection, GET|PUT|DELETE /{id}: the same handlers as the verb style, registered after it (`/{id}` would take its paths). */
function registerRestStyleRoutes(table: RouteTable, { create, replaceAtPath, destroy, showOne, showAll }: ThresholdHandlers): void {
  const tag = THRESHOLDS_TAG;
  const roles = THRESHOLD_ROLES;
  table.add({ method: 'get', operationId: 'listThresholds', path: THRESHOLDS_BASE, roles, tag, summary: 'Show every threshold, in id order (as show)', query: [EMBED_PARAM], responses: SHOW_ALL_RESPONSES }, showAll);
  table.add({ method: 'post', operationId: 'addThreshold', path: THRESHOLDS_BASE, roles, tag, summary: `${CREATE_SUMMARY} (as create)`, body: thresholdBodySchema, responses: WRITE_RESPONSES }, create);
  table.add({ method: 'get', operationId: 'getThreshold', path: `${THRESHOLDS_BASE}/:id`, roles, tag, summary: 'Show one threshold (as show/{id})', query: [EMBED_PARAM], responses: SHOW_ONE_RESPONSES }, showOne);
  table.add(
    {
      method: 'put', operationId: 'updateThreshold', path: `${THRESHOLDS_BASE}/:id`, roles, tag,
      summary: 'Replace the threshold of the path id, or create it under that id (as createOrReplace with that id)',
      body: thresholdBodySchema,
      responses: { ...WRITE_RESPONSES, 400: `${WRITE_RESPONSES[400]}, or a body id other than the path id` },
    },
    replaceAtPath,
  );
  table.add({ method: 'delete', operationId: 'deleteThreshold', path: `${THRESHOLDS_BASE}/:id`, roles, tag, summary: 'Delete a threshold (as destroy/{id})', responses: DELETE_RESPONSES }, destroy);
}

/** Reader facilities are checked against the threshold's facility. */
const THRESHOLD_RULE_INPUTS = [{ field: 'readers', on: 'facility' }];

/** The body decoded and validated by `validate`; a 400 names its type and rule errors at once. */
async function checkedThreshold(
  deps: ResourceDeps,
  ctx: Context,
  validate: (body: ThresholdBody, tctx: ThresholdContext) => Either<ApiError, Threshold>,
): Promise<{ readonly body: ThresholdBody; readonly doc: Threshold }> {
  const tctx = await thresholdContext(deps.readModel);
  const checked = decodeAndCheck(ThresholdBody, ctx.request.body, 'body', (body) => map((doc: Threshold) => ({ body, doc }))(validate(body, tctx)), {
    dependsOn: THRESHOLD_RULE_INPUTS,
  });
  if (isLeft(checked)) throw checked.left;
  return checked.right;
}

async function createThreshold(deps: ResourceDeps, ctx: Context): Promise<void> {
  // Validated before an id is allocated (a refused body burns no id).
  const { doc } = await checkedThreshold(deps, ctx, (b, tctx) => validateThresholdCreate(b, [], tctx));
  ctx.body = thresholdToResponse(await createWithNewId(deps, thresholdKind, doc, commandMetadata(ctx)));
}

async function createOrReplaceThreshold(deps: ResourceDeps, ctx: Context): Promise<void> {
  const metadata = commandMetadata(ctx);
  const { body, doc } = await checkedThreshold(deps, ctx, (b, tctx) => validateThresholdCreateOrReplace(b, [], tctx));
  ctx.body = body.id === undefined || body.id === null
    ? thresholdToResponse(await createWithNewId(deps, thresholdKind, doc, metadata))
    : await replaceThreshold(deps, body.id, doc, metadata);
}

async function replaceThresholdAtPath(deps: ResourceDeps, ctx: Context): Promise<void> {
  // A bad path id is answered once the body decodes (a body that does not is answered first, as everywhere).
  const params = ThresholdParams.decode({ ...ctx.params });
  const { doc } = await checkedThreshold(deps, ctx, (body, tctx) => {
    if (isLeft(params)) return left(badRequest('Invalid request params', formatDecodeErrors(params.left, 'params')));
    const { id } = params.right;
    const stored = validateThresholdCreateOrReplace({ ...body, id }, [], tctx);
    if (body.id === undefined || body.id === null || body.id === id) return stored;
    const others = isLeft(stored) ? stored.left.errors : [];
    return left(badRequest(`The id in the body (${body.id}) differs from the id in the path (${id})`, [{ path: 'body.id', reason: `must be ${id}, the id in the path` }, ...others]));
  });
  ctx.body = await replaceThreshold(deps, doc.id, doc, commandMetadata(ctx));
}

async function destroyThreshold(deps: ResourceDeps, ctx: Context): Promise<void> {
  const { id } = decodeInput(ThresholdParams, { ...ctx.params }, 'params');
  await runResourceCommand(
    deps,
    thresholdKind,
    nameOfId(id),
    (s) => (s.resource === undefined ? left(notFound(`Threshold ${id} not found`)) : right({ type: 'delete', name: nameOfId(id) })),
    commandMetadata(ctx),
  );
  ctx.status = 204;
}

async function showThreshold(deps: ResourceDeps, ctx: Context): Promise<void> {
  const { id } = decodeInput(ThresholdParams, { ...ctx.params }, 'params');
  const th = await deps.readModel.get(thresholdKind, nameOfId(id));
  if (th === undefined) throw notFound(`Threshold ${id} not found`);
  const [shown] = await respond(ctx, deps, [th]);
  ctx.body = shown;
}
