// Item data (interface: Items): GET /data/v1/items/show and
// /data/v1/items/show/history over the items and history read models
// (projections/items/), which the items projection keeps in the projections
// role. Rules in docs/item-processing.md ("Read models").
import type { Slice } from '../slice';
import type { RouteParam, RouteSpec } from '../core/http/routes';
import { MAX_PAGE_SIZE, DEFAULT_PAGE_SIZE } from '../core/paging';
import { rateSeconds, ratesQueryParam, ratesSchema } from '../core/rates';
import { ItemsReadModel } from './readmodel';
import { EPC_FORMATS } from './epc';
import { itemsAsOf } from './asof';
import { engineStream, partitionOf } from '../engine';
import { parseAsOfQuery, parseHistoryQuery, parseItemsQuery } from './query';
import { asOfPageSchema, historyPageSchema, itemsPageSchema, transitionsPageSchema } from './schema';
import { DESTINATIONS, parseTransitionsQuery } from './transitions-query';
import { TransitionsReadModel } from './transitions-readmodel';

export const ITEMS_BASE = '/data/v1/items';
export const ITEMS_ROLES = ['DataReader'];
const TAG = 'Items';

const p = (name: string, description: string, schema: Record<string, unknown> = { type: 'string' }): RouteParam => ({ name, description, schema });
const COMMON: readonly RouteParam[] = [
  p('epcPrefix', 'hexadecimal EPC prefix (case-insensitive)'),
  p('jobId', 'job that last saw the item (items) or reported the change (history)'),
  p('fromTime', 'on or after this ISO 8601 time', { type: 'string', format: 'date-time' }),
  p('toTime', 'before this ISO 8601 time', { type: 'string', format: 'date-time' }),
  p('epcFormat', 'how EPCs are shown (default: raw hex); PURE_ID, TAG and UPC12 leave out EPCs that do not decode', { type: 'string', enum: [...EPC_FORMATS] }),
  p('pageSize', `records per page, default ${DEFAULT_PAGE_SIZE}`, { type: 'integer', minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE }),
  p('pageMarker', 'nextPageMarker of the previous page; the other parameters (pageSize aside) must be the same'),
];
/** Of the queries that read records oldest first, which a client polls for newer ones. */
const ALWAYS_INCLUDE_PAGE_MARKER = p('alwaysIncludePageMarker', 'default false; true: a marker also on the last page, to poll for newer records', { type: 'boolean', default: false });
const BAD_QUERY = 'a bad parameter (named in errors[]) or a marker of another query';

/** GET show: the current items. */
const ITEMS_ROUTE: RouteSpec = {
  method: 'get', operationId: 'showItems', path: `${ITEMS_BASE}/show`, roles: ITEMS_ROLES, tag: TAG,
  summary: 'Current items in EPC order (items that expired stay listed in zone ABSENT)',
  query: [
    ...COMMON,
    p('zoneNames', 'comma-separated zone names'),
    p('facility', 'facility name'),
    p('presenceConfidence', 'deprecated; accepted and ignored', { type: 'string', enum: ['HIGH', 'LOW'] }),
  ],
  responses: { 200: { description: '{items, nextPageMarker}', schema: itemsPageSchema }, 400: BAD_QUERY },
};

/** GET show/history: zone transitions and moves. */
const HISTORY_ROUTE: RouteSpec = {
  method: 'get', operationId: 'showItemHistory', path: `${ITEMS_BASE}/show/history`, roles: ITEMS_ROLES, tag: TAG,
  summary: 'Zone transitions of items, oldest first; with zoneTransitionsOnly=false also their moves inside a zone',
  query: [
    ...COMMON,
    p('fromZone', 'zone the item left'),
    p('toZone', 'zone the item entered'),
    p('fromFacility', 'facility the item left'),
    p('toFacility', 'facility the item entered or moved in (an exit to ABSENT has toFacility null: it matches fromFacility)'),
    p('zoneTransitionsOnly', 'default true: zone transitions only; false: also moves inside a zone (LOCATION: of at least minimumMovementInMeters), as item queues carry them', { type: 'boolean', default: true }),
    p('minDistanceMoved', 'meters; records without both locations are left out when above 0', { type: 'number', minimum: 0 }),
    ALWAYS_INCLUDE_PAGE_MARKER,
  ],
  responses: { 200: { description: '{history, nextPageMarker, moreHistoryAvailable}', schema: historyPageSchema }, 400: BAD_QUERY },
};

/** GET show/transitions: threshold transitions. */
const TRANSITIONS_ROUTE: RouteSpec = {
  method: 'get', operationId: 'showItemTransitions', path: `${ITEMS_BASE}/show/transitions`, roles: ITEMS_ROLES, tag: TAG,
  summary: 'Threshold transitions (which way items went through a door), oldest first',
  query: [
    p('threshold', 'threshold id or name'),
    ...COMMON.filter((c) => c.name !== 'jobId'),
    p('jobId', 'THRESHOLD job that reported the transition'),
    p('destination', 'side the item went to', { type: 'string', enum: [...DESTINATIONS] }),
    ALWAYS_INCLUDE_PAGE_MARKER,
  ],
  responses: { 200: { description: '{transitions, nextPageMarker, moreTransitionsAvailable}', schema: transitionsPageSchema }, 400: BAD_QUERY },
};

/** GET show/asOf: a facility's items at a past time. */
const AS_OF_ROUTE: RouteSpec = {
  method: 'get', operationId: 'showItemsAsOf', path: `${ITEMS_BASE}/show/asOf`, roles: ITEMS_ROLES, tag: TAG,
  summary: 'Items of a facility as they were at a past time, folded from the engine log (cost: a scan of the log up to that time)',
  query: [
    p('facility', 'facility name (required)'),
    p('time', 'ISO 8601 time to answer for (required); a future time is answered as of now', { type: 'string', format: 'date-time' }),
    p('epcPrefix', 'hexadecimal EPC prefix (case-insensitive)'),
    p('zoneNames', 'comma-separated zone names'),
    ...COMMON.filter((c) => ['epcFormat', 'pageSize', 'pageMarker'].includes(c.name)),
  ],
  responses: { 200: { description: '{asOf, items, nextPageMarker}', schema: asOfPageSchema }, 400: 'a missing or bad parameter (named in errors[]) or a marker of another query' },
};

/** GET show/rates: item changes per second. */
const RATES_ROUTE: RouteSpec = {
  method: 'get', path: `${ITEMS_BASE}/show/rates`, roles: ITEMS_ROLES, tag: TAG, operationId: 'showItemRates',
  summary: 'Item changes (history records: zone transitions and moves) per second over the last seconds, oldest first',
  query: [ratesQueryParam],
  responses: { 200: { description: '{to, perSecond}', schema: ratesSchema }, 400: 'a bad seconds (query.seconds)' },
};

export const itemsSlice: Slice = {
  name: 'items',
  register(table, deps) {
    // Registration only reads deps inside handlers (the route inventory passes none).
    let model: ItemsReadModel | undefined;
    const items = (): ItemsReadModel => (model ??= new ItemsReadModel(deps.redis, deps.keys));
    let transitionsModel: TransitionsReadModel | undefined;
    const transitions = (): TransitionsReadModel => (transitionsModel ??= new TransitionsReadModel(deps.redis, deps.keys));
    table.add(ITEMS_ROUTE, async (ctx) => {
      ctx.body = await items().items(parseItemsQuery(ctx.query));
    });
    table.add(HISTORY_ROUTE, async (ctx) => {
      ctx.body = await items().history(parseHistoryQuery(ctx.query));
    });
    table.add(RATES_ROUTE, async (ctx) => {
      ctx.body = await items().rates(Date.now(), rateSeconds(ctx.query));
    });
    table.add(TRANSITIONS_ROUTE, async (ctx) => {
      ctx.body = await transitions().transitions(parseTransitionsQuery(ctx.query));
    });
    table.add(AS_OF_ROUTE, async (ctx) => {
      const q = parseAsOfQuery(ctx.query);
      // The facility's partition holds its whole history (docs/scaling.md, "Engine partitions").
      const stream = engineStream(partitionOf(q.facility, deps.config.enginePartitions.count));
      const { stats, ...page } = await itemsAsOf(deps.client, q, Date.now(), stream);
      deps.logger.debug('items as of', { facility: q.facility, asOf: page.asOf, ...stats });
      ctx.body = page;
    });
  },
};
