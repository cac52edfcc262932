// Threshold definitions under /configuration/v1/thresholds (docs/interface.md):
// create, createOrReplace, destroy/{id}, show, show/{id}; the shows accept
// `embed=antennaConfiguration`.
import { isLeft, left, right } from 'fp-ts/Either';
import type { Context } from 'koa';
import { decodeInput } from '../core/http/decode';
import { notFound } from '../core/http/errors';
import type { RouteTable } from '../core/http/routes';
import { commandMetadata, runResourceCommand, type ResourceDeps } from '../core/resource/routes';
import { THRESHOLD_ROLES, THRESHOLDS_BASE } from './antenna-routes';
import { createWithNewId } from './create';
import { reserveId } from './id-allocator';
import { nameOfId, thresholdKind } from './kind';
import { listAntennaConfigurations, listThresholds, thresholdContext } from './readmodel';
import { thresholdToResponse, type ThresholdResponse } from './response';
import { thresholdBodySchema } from './schema';
import {
  ThresholdBody,
  ThresholdParams,
  ThresholdShowQuery,
  validateThresholdCreate,
  validateThresholdCreateOrReplace,
  type Threshold,
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

export function registerThresholdRoutes(table: RouteTable, deps: ResourceDeps): void {
  const tag = THRESHOLDS_TAG;
  const roles = THRESHOLD_ROLES;
  const writeResponses = {
    200: 'the stored threshold',
    400: 'invalid input, or an unknown or omitted (with several facilities) facility',
    422: 'unknown reader definitions or antenna configurations, or readers of another facility',
  };

  table.add(
    {
      method: 'post', path: `${THRESHOLDS_BASE}/create`, roles, tag,
      summary: 'Create a threshold; the service assigns its id (an id in the body is ignored)',
      body: thresholdBodySchema,
      responses: writeResponses,
    },
    async (ctx) => {
      const body = decodeInput(ThresholdBody, ctx.request.body, 'body');
      // Validated before an id is allocated (a refused body burns no id).
      const doc = validateThresholdCreate(body, [], await thresholdContext(deps.readModel));
      if (isLeft(doc)) throw doc.left;
      ctx.body = thresholdToResponse(await createWithNewId(deps, thresholdKind, doc.right, commandMetadata(ctx)));
    },
  );

  table.add(
    {
      method: 'put', path: `${THRESHOLDS_BASE}/createOrReplace`, roles, tag,
      summary: 'Replace the threshold of the body id, or create it under that id; without an id, create one with a new id',
      body: thresholdBodySchema,
      responses: writeResponses,
    },
    async (ctx) => {
      const body = decodeInput(ThresholdBody, ctx.request.body, 'body');
      const metadata = commandMetadata(ctx);
      const doc = validateThresholdCreateOrReplace(body, [], await thresholdContext(deps.readModel));
      if (isLeft(doc)) throw doc.left;
      if (body.id === undefined || body.id === null) {
        ctx.body = thresholdToResponse(await createWithNewId(deps, thresholdKind, doc.right, metadata));
        return;
      }
      const id = body.id;
      // Recorded before the threshold is written: allocation never hands it out again.
      await reserveId(deps.client, thresholdKind.kind, id, metadata);
      const name = nameOfId(id);
      const state = await runResourceCommand(deps, thresholdKind, name, () => right({ type: 'createOrReplace', name, resource: doc.right }), metadata);
      if (state.resource === undefined) throw new Error(`threshold ${id} missing after createOrReplace`);
      ctx.body = thresholdToResponse(state.resource);
    },
  );

  table.add(
    {
      method: 'delete', path: `${THRESHOLDS_BASE}/destroy/:id`, roles, tag,
      summary: 'Delete a threshold',
      responses: { 204: 'deleted', 400: 'the id is not an integer', 404: 'no such threshold' },
    },
    async (ctx) => {
      const { id } = decodeInput(ThresholdParams, { ...ctx.params }, 'params');
      await runResourceCommand(
        deps,
        thresholdKind,
        nameOfId(id),
        (s) => (s.resource === undefined ? left(notFound(`Threshold ${id} not found`)) : right({ type: 'delete', name: nameOfId(id) })),
        commandMetadata(ctx),
      );
      ctx.status = 204;
    },
  );

  table.add(
    {
      method: 'get', path: `${THRESHOLDS_BASE}/show/:id`, roles, tag,
      summary: 'Show one threshold',
      query: [EMBED_PARAM],
      responses: { 200: 'threshold', 400: 'the id is not an integer, or an unknown embed', 404: 'no such threshold' },
    },
    async (ctx) => {
      const { id } = decodeInput(ThresholdParams, { ...ctx.params }, 'params');
      const th = await deps.readModel.get(thresholdKind, nameOfId(id));
      if (th === undefined) throw notFound(`Threshold ${id} not found`);
      const [shown] = await respond(ctx, deps, [th]);
      ctx.body = shown;
    },
  );

  table.add(
    {
      method: 'get', path: `${THRESHOLDS_BASE}/show`, roles, tag,
      summary: 'Show every threshold, in id order',
      query: [EMBED_PARAM],
      responses: { 200: 'array of threshold', 400: 'an unknown embed' },
    },
    async (ctx) => {
      ctx.body = await respond(ctx, deps, await listThresholds(deps.readModel));
    },
  );
}
