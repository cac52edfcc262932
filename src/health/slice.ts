// Reader health (interface: Reader health, Health event): GET
// /health/v1/readers, /health/v1/readers/{readerName}, POST /health/v1/events.
// Rules in docs/health.md; the read model in projections/health/.
import type { Slice } from '../slice';
import { hasRole } from '../config';
import { notFound } from '../core/http/errors';
import { nameSchema } from '../core/codecs';
import { rateSeconds, ratesQueryParam, ratesSchema } from '../core/rates';
import type { RouteSpec } from '../core/http/routes';
import { readerDefinitionOf, readerDefinitionsOf } from '../readerdefinitions';
import { HealthReadModel } from './readmodel';
import { startHealthBackground } from './background';
import { MAX_PAGE_SIZE, DEFAULT_PAGE_SIZE, parseHealthEventSearch } from './search';
import { readerHealthAt } from './status';
import { HEALTH_EVENT_PAGE_SCHEMA, READER_HEALTH_SCHEMA } from './schemas';
import { HEALTH_EVENT_TYPES, SEARCHABLE_CODES } from './codes';

export const HEALTH_BASE = '/health/v1';
export const HEALTH_ROLES = ['ConfigManager', 'DataReader', 'JobRunner'];
const TAG = 'Reader health';

const strings = (items: Record<string, unknown> = { type: 'string' }) => ({ type: 'array', items });
const SEARCH_SCHEMA = {
  type: 'object',
  properties: {
    readerNames: strings(nameSchema()),
    types: strings({ type: 'string', enum: [...HEALTH_EVENT_TYPES] }),
    codes: strings({ type: 'string', enum: [...SEARCHABLE_CODES] }),
    fromTime: { type: 'string', format: 'date-time' },
    toTime: { type: 'string', format: 'date-time' },
    pageSize: { type: 'integer', minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE },
    nextPageMarker: { type: 'string' },
    newestFirst: { type: 'boolean', default: false, description: 'newest first (pages walk back in time); default oldest first' },
  },
};

const RATES_ROUTE: RouteSpec = {
  method: 'get', path: `${HEALTH_BASE}/events/rates`, roles: HEALTH_ROLES, tag: TAG, operationId: 'showHealthEventRates',
  summary: 'Health events per second (by event time) over the last seconds, oldest first, from the health read model',
  query: [ratesQueryParam],
  responses: { 200: { description: '{to, perSecond}', schema: ratesSchema }, 400: 'a bad seconds (query.seconds)' },
};

export function makeHealthSlice(clock: () => Date = () => new Date()): Slice {
  return {
    name: 'health',
    start(deps, roles) {
      return hasRole({ roles }, 'projections') ? startHealthBackground(deps, deps.config.health, clock) : undefined;
    },
    register(table, deps) {
      // Registration only reads deps inside handlers (the route inventory passes none).
      let model: HealthReadModel | undefined;
      const health = (): HealthReadModel => (model ??= new HealthReadModel(deps.redis, deps.keys));
      table.add(
        {
          method: 'get', operationId: 'showReadersHealth', path: `${HEALTH_BASE}/readers`, roles: HEALTH_ROLES, tag: TAG,
          summary: 'Health of every defined reader (AWAITING_AGENT until its agent checks in)',
          responses: { 200: { description: 'array of reader health', schema: { type: 'array', items: READER_HEALTH_SCHEMA } } },
        },
        async (ctx) => {
          const [defs, states, checkins] = await Promise.all([readerDefinitionsOf(deps.readModel), health().states(), health().lastCheckins()]);
          const now = clock();
          ctx.body = defs
            .map((d) => d.name)
            .sort()
            .map((name) => readerHealthAt(name, states.get(name), checkins.get(name), now, deps.config.health));
        },
      );
      table.add(
        {
          method: 'get', operationId: 'showReaderHealth', path: `${HEALTH_BASE}/readers/:readerName`, roles: HEALTH_ROLES, tag: TAG,
          summary: 'Health of one reader',
          responses: { 200: { description: 'reader health', schema: READER_HEALTH_SCHEMA }, 404: 'no reader definition of that name' },
        },
        async (ctx) => {
          const name = String(ctx.params['readerName']);
          if (!(await readerDefinitionOf(deps.readModel, name))) throw notFound(`Reader ${name} not found`);
          const [state, checkin] = await Promise.all([health().state(name), health().lastCheckin(name)]);
          ctx.body = readerHealthAt(name, state, checkin, clock(), deps.config.health);
        },
      );
      table.add(
        {
          method: 'post', operationId: 'searchHealthEvents', path: `${HEALTH_BASE}/events`, roles: HEALTH_ROLES, tag: TAG,
          summary: `Health events by reader, type, code and time, oldest first, ${DEFAULT_PAGE_SIZE} (max ${MAX_PAGE_SIZE}) a page`,
          body: SEARCH_SCHEMA,
          responses: { 200: { description: '{events, nextPageMarker}', schema: HEALTH_EVENT_PAGE_SCHEMA }, 400: 'a bad filter (named in errors[]) or a marker of another search' },
        },
        async (ctx) => {
          ctx.body = await health().search(parseHealthEventSearch(ctx.request.body));
        },
      );
      table.add(RATES_ROUTE, async (ctx) => {
        ctx.body = await health().rates(clock().getTime(), rateSeconds(ctx.query));
      });
    },
  };
}

export const healthSlice: Slice = makeHealthSlice();
