// Feature changes over HTTP (spec: Endpoints, Reader definitions):
//   POST .../{readerDefinitionName}/featureChanges            202 + Location of the status
//   GET  .../{readerDefinitionName}/featureChanges/{feature}  the feature's status
//   GET  .../{readerDefinitionName}/featureChanges            active requests (CONFIGURING or ERROR)
import { decodeInput } from '../core/http/decode';
import { rootPathBefore } from '../core/http/root-path';
import type { RouteTable } from '../core/http/routes';
import { commandMetadata, type ResourceDeps } from '../core/resource/routes';
import { activeFeatureRequests, featureStatusOf } from './feature-changes';
import { requestFeatureChange, requireReader } from './feature-commands';
import type { ReaderFeatureReadModel } from './feature-readmodel';
import { FeatureChangeBody, FeatureParams, featureStatusPath } from './features';
import { FEATURE_CHANGE_ROLES, READER_DEFINITIONS_BASE } from './kind';
import { featureChangeBodySchema, featureStatesSchema, featureStatusSchema } from './schema';

const TAG = 'Reader definitions';
const PARAM = 'readerDefinitionName';

export function registerFeatureChangeRoutes(table: RouteTable, deps: ResourceDeps, features: ReaderFeatureReadModel): void {
  const base = `${READER_DEFINITIONS_BASE}/:${PARAM}/featureChanges`;
  table.add(
    {
      method: 'post', operationId: 'requestFeatureChange',
      path: base,
      roles: FEATURE_CHANGE_ROLES,
      tag: TAG,
      summary: 'Request a feature change of a reader; the reader agent carries it out',
      body: featureChangeBodySchema,
      responses: {
        202: { description: 'accepted; header Location: the path of the feature status; body: the feature status (INITIALIZING)', schema: featureStatusSchema },
        400: 'invalid body',
        404: 'no such reader definition',
        409: 'a change of this feature is already in progress (INITIALIZING or CONFIGURING)',
      },
    },
    async (ctx) => {
      const body = decodeInput(FeatureChangeBody, ctx.request.body, 'body');
      const reader = String(ctx.params[PARAM]);
      const status = await requestFeatureChange(deps, reader, body.feature, body.action, commandMetadata(ctx));
      ctx.status = 202;
      ctx.set('Location', `${rootPathBefore(ctx, READER_DEFINITIONS_BASE)}${featureStatusPath(reader, body.feature)}`);
      ctx.body = status;
    },
  );
  table.add(
    {
      method: 'get', operationId: 'showFeatureChange',
      path: `${base}/:feature`,
      roles: FEATURE_CHANGE_ROLES,
      tag: TAG,
      summary: 'Status of one feature of a reader (DISABLED, IDLE when never requested)',
      responses: { 200: { description: 'feature status', schema: featureStatusSchema }, 400: 'unknown feature', 404: 'no such reader definition' },
    },
    async (ctx) => {
      const { feature } = decodeInput(FeatureParams, { feature: ctx.params['feature'] }, 'params');
      const reader = String(ctx.params[PARAM]);
      await requireReader(deps, reader);
      ctx.body = featureStatusOf(await features.of(reader), feature);
    },
  );
  table.add(
    {
      method: 'get', operationId: 'showActiveFeatureChanges',
      path: base,
      roles: FEATURE_CHANGE_ROLES,
      tag: TAG,
      summary: 'Active feature change requests of a reader (CONFIGURING or ERROR), by feature name',
      responses: { 200: { description: 'object: feature name -> feature status', schema: featureStatesSchema }, 404: 'no such reader definition' },
    },
    async (ctx) => {
      const reader = String(ctx.params[PARAM]);
      await requireReader(deps, reader);
      ctx.body = activeFeatureRequests(await features.of(reader));
    },
  );
}
