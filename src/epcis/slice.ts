// GS1 EPCIS 2.0 (docs/epcis.md): the location identifiers resource
// (/configuration/v1/epcisLocations), the query interface GET /epcis/v2/events
// over the EPCIS read model (projections/epcis/), and capture to configured
// repositories (role relay).
import { left, right } from 'fp-ts/Either';
import { hasRole } from '../config';
import type { Context } from 'koa';
import { nameSchema } from '../core/codecs';
import { badRequest } from '../core/http/errors';
import type { RouteParam, RouteTable } from '../core/http/routes';
import { addNamedResourceRoutes, type NamedResourceApi } from '../core/resource/routes';
import type { SecretBox } from '../core/secret-box';
import type { AppDeps, Slice } from '../slice';
import { MAX_PAGE_SIZE } from '../core/paging';
import { facilityKind } from '../facilities';
import { EpcisReadModel } from './readmodel';
import { CBV_VERSION, epcisQueryDocument, EPCIS_VERSION } from './document';
import { documentOf, EpcisLocationBody, epcisLocationKind, locationIds, type EpcisLocation, type LocationIds } from './locations';
import { epcisProblems } from './problem';
import { DEFAULT_PER_PAGE, parseEpcisQuery } from './query';
import { epcisQueryDocumentSchema, locationBodySchema, locationResponseSchema } from './schema';
import { startEpcisCapture } from './capture/capture';
import {
  epcisRepositoryKind, RepositoryBody, repositoryBodySchema, repositoryProblem, repositoryResponse, repositoryResponseSchema, sealRepositoryCredentials,
  storedRepository, type EpcisRepository,
} from './capture/repository';

/** Identifiers nobody configured are URLs under this base (EPCIS_LOCATION_BASE_URL). */
export const DEFAULT_LOCATION_BASE = 'https://tagtrail.example/epcis/';

export const EPCIS_ROLES = ['DataReader'];
const TAG = 'EPCIS';

/** The location identifiers in force: the configured resources over the base URL. */
export async function currentLocationIds(deps: AppDeps): Promise<LocationIds> {
  return locationIds(deps.epcis?.locationBaseUrl ?? DEFAULT_LOCATION_BASE, await deps.readModel.list(epcisLocationKind));
}

const p = (name: string, description: string, schema: Record<string, unknown> = { type: 'string' }): RouteParam => ({ name, description, schema });

/** JSON-LD unless the client asks for plain JSON (both are EPCIS 2.0 JSON bindings; the body is the same). */
const mediaTypeOf = (ctx: Context): string => (ctx.accepts('application/ld+json', 'application/json') === 'application/json' ? 'application/json' : 'application/ld+json');

/** The EPCIS repositories capture pushes to: a named configuration resource, its credentials sealed with `secrets`. */
const repositoryApi = (secrets: SecretBox): NamedResourceApi<EpcisRepository, RepositoryBody, null> => ({
  kind: epcisRepositoryKind,
  base: '/configuration/v1/epcisRepositories',
  param: 'repositoryName',
  tag: TAG,
  operationNouns: { one: 'EpcisRepository', many: 'EpcisRepositories' },
  writeRoles: ['ConfigManager'],
  readRoles: ['ConfigManager'],
  body: RepositoryBody,
  bodySchema: { ...repositoryBodySchema, properties: { ...repositoryBodySchema.properties, name: nameSchema('the repository') } },
  responseSchema: repositoryResponseSchema,
  nameOf: (b) => b.name,
  sealSecrets: (b) => sealRepositoryCredentials(b, secrets),
  context: async () => null,
  validate: (b, _ctx, existing) => {
    const stored = storedRepository(b, existing);
    const problem = repositoryProblem(stored);
    return problem === undefined ? right(stored) : left(badRequest('Invalid request body', [problem]));
  },
  toResponse: repositoryResponse,
});

/** The EPCIS location identifiers of each facility: a named configuration resource. */
const LOCATION_API: NamedResourceApi<EpcisLocation, EpcisLocationBody, ReadonlySet<string>> = {
  kind: epcisLocationKind,
  base: '/configuration/v1/epcisLocations',
  param: 'facilityName',
  tag: TAG,
  operationNouns: { one: 'EpcisLocation', many: 'EpcisLocations' },
  writeRoles: ['ConfigManager'],
  readRoles: ['ConfigManager', 'DataReader'],
  body: EpcisLocationBody,
  bodySchema: { ...locationBodySchema, properties: { ...locationBodySchema.properties, facility: nameSchema('the facility these identifiers are for') } },
  responseSchema: locationResponseSchema,
  nameOf: (b) => b.facility,
  context: async (d) => new Set((await d.readModel.list(facilityKind)).map((f) => f.name)),
  validate: (b, facilities) =>
    facilities.has(b.facility) ? right(documentOf(b)) : left(badRequest('Invalid request body', [{ path: 'body.facility', reason: `is not a facility (${JSON.stringify(b.facility)})` }])),
  toResponse: (l) => l,
};

/** GET /epcis/v2/events: the EPCIS query interface over the EPCIS read model. */
function registerEventsQuery(table: RouteTable, deps: AppDeps): void {
  let model: EpcisReadModel | undefined;
  const events = (): EpcisReadModel => (model ??= new EpcisReadModel(deps.redis, deps.keys));
  table.add(
    {
      method: 'get', operationId: 'queryEpcisEvents', path: '/epcis/v2/events', roles: EPCIS_ROLES, tag: TAG,
      summary: 'Item events as EPCIS 2.0 ObjectEvents (EPCIS REST query interface, SimpleEventQuery subset), oldest first',
      query: [
        p('GE_eventTime', 'events at or after this ISO 8601 time', { type: 'string', format: 'date-time' }),
        p('LT_eventTime', 'events before this ISO 8601 time', { type: 'string', format: 'date-time' }),
        p('EQ_bizLocation', 'business location URIs, separated by |'),
        p('EQ_readPoint', 'read point URIs, separated by |'),
        p('MATCH_epc', 'pure identity URIs (urn:epc:id:...) or patterns (urn:epc:idpat:sgtin:0614141.812345.*), separated by |'),
        p('EQ_bizStep', 'CBV business steps (arriving, departing; bare or as URI), separated by |'),
        p('perPage', `events per page, default ${DEFAULT_PER_PAGE}`, { type: 'integer', minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PER_PAGE }),
        p('nextPageToken', 'from the Link header of the previous page; the other parameters (perPage aside) must be the same'),
      ],
      produces: 'application/ld+json',
      responses: {
        200: { description: 'an EPCISQueryDocument (application/ld+json, or application/json when the client accepts only that); the next page in a Link header (rel="next")', schema: epcisQueryDocumentSchema },
        400: 'a bad or unknown parameter, or a token of another query: application/problem+json, type epcisException:QueryParameterException, the parameter named in errors[]',
      },
    },
    async (ctx) => {
      await epcisProblems(ctx, async () => {
        const q = parseEpcisQuery(ctx.query);
        const page = await events().events(q, await currentLocationIds(deps));
        if (page.nextPageToken !== undefined) {
          const next = new URLSearchParams(ctx.querystring);
          next.set('nextPageToken', page.nextPageToken);
          ctx.set('Link', `<${ctx.originalUrl.split('?')[0]}?${next.toString()}>; rel="next"`);
        }
        ctx.set('GS1-EPCIS-Version', EPCIS_VERSION);
        ctx.set('GS1-CBV-Version', CBV_VERSION);
        ctx.body = epcisQueryDocument(page.events, new Date());
        ctx.type = mediaTypeOf(ctx);
      });
    },
  );
}

export const epcisSlice: Slice = {
  name: 'epcis',
  start(deps, roles) {
    if (!hasRole({ roles }, 'relay')) return undefined;
    return startEpcisCapture({
      client: deps.client, redis: deps.redis, keys: deps.keys, logger: deps.logger.child('epcis-capture'), readModel: deps.readModel,
      locationBaseUrl: deps.epcis?.locationBaseUrl ?? DEFAULT_LOCATION_BASE, secrets: deps.secrets,
    });
  },
  register(table, deps) {
    addNamedResourceRoutes(table, deps, repositoryApi(deps.secrets));
    addNamedResourceRoutes(table, deps, LOCATION_API);
    registerEventsQuery(table, deps);
  },
};
