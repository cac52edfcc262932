// Threshold antenna configurations under /configuration/v1/thresholds, in
// the two path styles clients use, one handler behind both:
// POST antennaConfiguration or antennaConfigurations (create, id assigned),
// PUT/DELETE/GET antennaConfiguration/{id} or antennaConfigurations/{id},
// GET antennaConfigurations (all).
import { isLeft, isRight, left, right } from 'fp-ts/Either';
import type { Context } from 'koa';
import { decodeAndCheck, decodeInput, refuseAll } from '../core/http/decode';
import { salvage } from '../core/salvage';
import { ApiError, notFound } from '../core/http/errors';
import type { RouteTable } from '../core/http/routes';
import { commandMetadata, runResourceCommand, type ResourceDeps } from '../core/resource/routes';
import {
  AntennaConfigurationBody,
  AntennaConfigurationParams,
  DeleteAntennaConfigurationQuery,
  validateAntennaConfigurationCreate,
  validateAntennaConfigurationReplace,
} from './antenna-configuration';
import { createWithNewId } from './create';
import { antennaConfigurationKind, nameOfId, thresholdKind } from './kind';
import { listAntennaConfigurations, listThresholds } from './readmodel';
import { antennaConfigurationToResponse } from './response';
import { antennaConfigurationBodySchema, antennaConfigurationResponseSchema } from './schema';
import { deleteAntennaConfiguration } from './usage';

export const THRESHOLDS_BASE = '/configuration/v1/thresholds';
export const THRESHOLD_ROLES = ['ConfigManager'];
export const ANTENNA_CONFIGURATIONS_TAG = 'Threshold antenna configurations';

const pathId = (ctx: Context): number => decodeInput(AntennaConfigurationParams, { ...ctx.params }, 'params').antennaConfigurationID;

const CREATE_SPEC = {
  summary: 'Create an antenna configuration; the service assigns its id (an id in the body is ignored)',
  body: antennaConfigurationBodySchema,
  responses: { 200: { description: 'the stored antenna configuration, with its id', schema: antennaConfigurationResponseSchema }, 400: 'invalid input' },
};
const REPLACE_SPEC = {
  summary: 'Replace an antenna configuration (it must exist: ids are assigned by create)',
  body: antennaConfigurationBodySchema,
  responses: { 200: { description: 'the stored antenna configuration', schema: antennaConfigurationResponseSchema }, 400: 'invalid input, or a body id other than the path id', 404: 'no such antenna configuration' },
};
const DELETE_SPEC = {
  summary: 'Delete an antenna configuration; with replacementId the thresholds using it are changed to use the replacement',
  query: [{ name: 'replacementId', description: 'id of an antenna configuration to use in place of the deleted one', schema: { type: 'integer' } }],
  responses: {
    204: 'deleted',
    400: 'bad id or replacementId, or replacementId equal to the id',
    404: 'no such antenna configuration',
    409: 'used by thresholds (named in the message) and no replacementId given',
    422: 'the replacement does not exist',
  },
};
const SHOW_ONE_SPEC = {
  summary: 'Show one antenna configuration',
  responses: { 200: { description: 'antenna configuration', schema: antennaConfigurationResponseSchema }, 400: 'the id is not an integer', 404: 'no such antenna configuration' },
};

export function registerAntennaConfigurationRoutes(table: RouteTable, deps: ResourceDeps): void {
  const tag = ANTENNA_CONFIGURATIONS_TAG;
  const roles = THRESHOLD_ROLES;
  const create = async (ctx: Context): Promise<void> => createAntennaConfiguration(deps, ctx);
  const replace = async (ctx: Context): Promise<void> => replaceAntennaConfiguration(deps, ctx);
  const destroy = async (ctx: Context): Promise<void> => destroyAntennaConfiguration(deps, ctx);
  const showOne = async (ctx: Context): Promise<void> => showAntennaConfiguration(deps, ctx);
  const showAll = async (ctx: Context): Promise<void> => {
    ctx.body = (await listAntennaConfigurations(deps.readModel)).map(antennaConfigurationToResponse);
  };

  const collection = `${THRESHOLDS_BASE}/antennaConfigurations`;
  // Both path styles clients use: the singular one for a single
  // configuration, and the plural collection with /{id} below it.
  // Operation ids: the interface's verbs on the singular paths, HTTP-like verbs on the collection's.
  const styles = [
    { one: `${THRESHOLDS_BASE}/antennaConfiguration/:antennaConfigurationID`, replace: 'replaceAntennaConfiguration', destroy: 'destroyAntennaConfiguration', show: 'showAntennaConfiguration' },
    { one: `${collection}/:antennaConfigurationID`, replace: 'updateAntennaConfiguration', destroy: 'deleteAntennaConfiguration', show: 'getAntennaConfiguration' },
  ];
  for (const ids of styles) {
    table.add({ method: 'put', operationId: ids.replace, path: ids.one, roles, tag, ...REPLACE_SPEC }, replace);
    table.add({ method: 'delete', operationId: ids.destroy, path: ids.one, roles, tag, ...DELETE_SPEC }, destroy);
    table.add({ method: 'get', operationId: ids.show, path: ids.one, roles, tag, ...SHOW_ONE_SPEC }, showOne);
  }
  table.add({ method: 'post', operationId: 'createAntennaConfiguration', path: `${THRESHOLDS_BASE}/antennaConfiguration`, roles, tag, ...CREATE_SPEC }, create);
  table.add({ method: 'post', operationId: 'addAntennaConfiguration', path: collection, roles, tag, ...CREATE_SPEC }, create);
  table.add(
    {
      method: 'get', operationId: 'listAntennaConfigurations', path: collection, roles, tag,
      summary: 'Show every antenna configuration, in id order',
      responses: { 200: { description: 'array of antenna configuration', schema: { type: 'array', items: antennaConfigurationResponseSchema } } },
    },
    showAll,
  );
}

async function createAntennaConfiguration(deps: ResourceDeps, ctx: Context): Promise<void> {
  // Validated before an id is allocated, so a refused body burns no id;
  // the provisional id is replaced by the allocated one.
  const doc = decodeAndCheck(AntennaConfigurationBody, ctx.request.body, 'body', (body) => validateAntennaConfigurationCreate(body, []));
  if (isLeft(doc)) throw doc.left;
  const stored = await createWithNewId(deps, antennaConfigurationKind, doc.right, commandMetadata(ctx));
  ctx.body = antennaConfigurationToResponse(stored);
}

async function replaceAntennaConfiguration(deps: ResourceDeps, ctx: Context): Promise<void> {
  // Type errors first, with the rule errors of the rest; the path id and the 404 come with a body that decodes.
  const decoded = salvage(AntennaConfigurationBody, ctx.request.body, 'body');
  if (!decoded.ok) {
    const params = AntennaConfigurationParams.decode({ ...ctx.params });
    throw refuseAll(decoded, decoded.rest && isRight(params) ? validateAntennaConfigurationReplace(params.right.antennaConfigurationID, decoded.rest) : undefined);
  }
  const body = decoded.value;
  const id = pathId(ctx);
  const name = nameOfId(id);
  const state = await runResourceCommand(
    deps,
    antennaConfigurationKind,
    name,
    (s) => {
      if (s.resource === undefined) return left(notFound(`Antenna configuration ${id} not found`));
      const doc = validateAntennaConfigurationReplace(id, body);
      return isLeft(doc) ? doc : right({ type: 'createOrReplace', name, resource: doc.right });
    },
    commandMetadata(ctx),
  );
  if (state.resource === undefined) throw new Error(`antenna configuration ${id} missing after replace`);
  ctx.body = antennaConfigurationToResponse(state.resource);
}

async function destroyAntennaConfiguration(deps: ResourceDeps, ctx: Context): Promise<void> {
  const id = pathId(ctx);
  const { replacementId } = decodeInput(DeleteAntennaConfigurationQuery, { ...ctx.query }, 'query');
  const [configs, thresholds] = await Promise.all([listAntennaConfigurations(deps.readModel), listThresholds(deps.readModel)]);
  const decision = deleteAntennaConfiguration(id, replacementId, configs.map((c) => c.id), thresholds);
  if (isLeft(decision)) throw decision.left;
  const metadata = commandMetadata(ctx);
  // Thresholds first: if the delete then fails, they point at an existing
  // configuration; the other way round they would point at nothing.
  for (const th of decision.right.rewritten) {
    const thName = nameOfId(th.id);
    try {
      await runResourceCommand(deps, thresholdKind, thName, (s) => {
        if (s.resource === undefined) return left(notFound(`Threshold ${th.id} not found`));
        // Re-applied to the stream's own state, so a change made since the
        // read model was read is kept.
        const again = deleteAntennaConfiguration(id, replacementId, configs.map((c) => c.id), [s.resource]);
        const resource = isLeft(again) ? s.resource : (again.right.rewritten[0] ?? s.resource);
        return right({ type: 'createOrReplace', name: thName, resource });
      }, metadata);
    } catch (err) {
      // Deleted meanwhile: nothing left to rewrite.
      if (!(err instanceof ApiError && err.status === 404)) throw err;
    }
  }
  await runResourceCommand(deps, antennaConfigurationKind, nameOfId(id), () => right({ type: 'delete', name: nameOfId(id) }), metadata);
  ctx.status = 204;
}

async function showAntennaConfiguration(deps: ResourceDeps, ctx: Context): Promise<void> {
  const id = pathId(ctx);
  const c = await deps.readModel.get(antennaConfigurationKind, nameOfId(id));
  if (c === undefined) throw notFound(`Antenna configuration ${id} not found`);
  ctx.body = antennaConfigurationToResponse(c);
}
