// Support endpoints under /support/v1 (docs/support.md), Admin only:
// configuration export and import, log export, factory reset, item reset and
// iteration data. Time sync and reader reboot are reader commands
// (src/readercommands/).
import * as t from 'io-ts';
import { badRequest, notFound } from '../core/http/errors';
import { commandMetadata } from '../core/resource/routes';
import { facilityKind, DEFAULT_FACILITY, facilitiesSlice } from '../facilities';
import { factoryReset } from './factory-reset';
import { requestItemReset } from './item-reset';
import { usersSlice } from '../users';
import { factoryDefaultsSlice } from '../defaults';
import { decodeInput } from '../core/http/decode';
import type { RouteTable } from '../core/http/routes';
import type { AppDeps, Slice } from '../slice';
import { ConfigurationArchive, exportConfiguration, foreignStreams, importConfiguration } from './config-archive';
import { exportLogs } from './log-export';
import { retainedLogDataDir } from './log-file';
import { parseIterationQuery, parseLogRange } from './query';
import { TransitionsReadModel } from '../items';
import { CONFIGURATION_ARCHIVE_SCHEMA, FACTORY_RESET_SCHEMA, ITEM_RESET_SCHEMA, ITERATIONS_SCHEMA, RESTORED_SCHEMA } from './schemas';

export const SUPPORT_PATH = '/support/v1';
export const SUPPORT_ROLES = ['Admin'];
const TAG = 'Support';

const stamp = (d: Date): string => d.toISOString().replace(/[:.]/g, '-');

function registerConfiguration(table: RouteTable, deps: AppDeps, clock: () => Date): void {
  table.add(
    {
      method: 'get', operationId: 'exportConfiguration', path: `${SUPPORT_PATH}/configuration`, roles: SUPPORT_ROLES, tag: TAG,
      summary: 'Archive of the whole configuration (every event of the configuration streams, users with password hashes), a JSON file to save',
      responses: { 200: { description: 'the archive (Content-Disposition: attachment)', schema: CONFIGURATION_ARCHIVE_SCHEMA } },
    },
    async (ctx) => {
      const now = clock();
      ctx.set('Content-Disposition', `attachment; filename="tagtrail-configuration-${stamp(now)}.json"`);
      ctx.body = await exportConfiguration(deps.client, now);
    },
  );
  table.add(
    {
      method: 'post', operationId: 'restoreConfiguration', path: `${SUPPORT_PATH}/configuration`, roles: SUPPORT_ROLES, tag: TAG, bodySize: 'bulk',
      summary: 'Restore a configuration archive into an instance in first-start state',
      body: {
        type: 'object',
        required: ['format', 'version', 'exportedAt', 'streams'],
        properties: {
          format: { type: 'string', enum: ['tagtrail-configuration'] },
          version: { type: 'integer', enum: [1] },
          exportedAt: { type: 'string' },
          streams: {
            type: 'array',
            items: { type: 'object', required: ['stream', 'events'], properties: { stream: { type: 'string' }, events: { type: 'array', items: { type: 'object' } } } },
          },
        },
      },
      responses: { 200: { description: '{streams, events}: what was restored', schema: RESTORED_SCHEMA }, 400: 'not an archive, or streams that are not configuration', 409: 'the instance is not in first-start state' },
    },
    async (ctx) => {
      const archive = decodeInput(ConfigurationArchive, ctx.request.body, 'body');
      const foreign = foreignStreams(archive);
      if (foreign.length) {
        throw badRequest('The archive holds streams that are not configuration', foreign.map((s) => ({ path: 'body.streams', reason: `${s} is not a configuration stream` })));
      }
      const result = await importConfiguration(deps.client, archive);
      await deps.waiter.waitFor(result.position);
      ctx.body = { streams: result.streams, events: result.events };
    },
  );
}

function registerLogs(table: RouteTable, clock: () => Date): void {
  table.add(
    {
      method: 'get', operationId: 'exportLogs', path: `${SUPPORT_PATH}/logs`, roles: SUPPORT_ROLES, tag: TAG,
      summary: 'The retained service logs of a time range, gzip-compressed NDJSON',
      query: [
        { name: 'from', description: 'ISO 8601 date-time, default one hour before to', schema: { type: 'string', format: 'date-time' } },
        { name: 'to', description: 'ISO 8601 date-time, default now', schema: { type: 'string', format: 'date-time' } },
        { name: 'extended', description: 'true: debug lines too (retained only while LOG_LEVEL=debug)', schema: { type: 'boolean', default: false } },
      ],
      produces: 'application/gzip',
      responses: { 200: { description: 'gzip-compressed NDJSON (Content-Disposition: attachment)', schema: { type: 'string', format: 'binary' } }, 400: 'bad from/to/extended', 404: 'this process retains no log file' },
    },
    async (ctx) => {
      const now = clock();
      const range = parseLogRange(ctx.query as Record<string, unknown>, now);
      const dataDir = retainedLogDataDir();
      if (dataDir === undefined) throw notFound('This process retains no log file');
      ctx.set('Content-Disposition', `attachment; filename="tagtrail-logs-${stamp(range.from)}.ndjson.gz"`);
      ctx.type = 'application/gzip';
      ctx.body = exportLogs(dataDir, range);
    },
  );
}

const FactoryResetBody = t.type({ confirm: t.literal('FACTORY_RESET') }, 'FactoryResetBody');

/**
 * The first-start work (the slices with a bootstrap: users, facilities and
 * the factory defaults;
 * the slice list cannot be imported here, it imports this slice), then
 * until the read model shows it (bounded).
 */
async function bootstrapAgain(deps: AppDeps): Promise<void> {
  for (const slice of [usersSlice, facilitiesSlice, factoryDefaultsSlice]) await slice.bootstrap?.(deps);
  const deadline = Date.now() + 5000;
  while ((await deps.readModel.get(facilityKind, DEFAULT_FACILITY)) === undefined && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 20));
  }
}

function registerFactoryReset(table: RouteTable, deps: AppDeps, clock: () => Date): void {
  table.add(
    {
      method: 'post', operationId: 'factoryReset', path: `${SUPPORT_PATH}/factoryReset`, roles: SUPPORT_ROLES, tag: TAG,
      summary: 'Configuration and data back to the first-start state (the log keeps a FactoryReset marker; every other stream is soft-deleted)',
      body: { type: 'object', required: ['confirm'], properties: { confirm: { type: 'string', enum: ['FACTORY_RESET'] } } },
      responses: { 200: { description: '{deletedStreams, at}', schema: FACTORY_RESET_SCHEMA }, 400: 'confirm missing or not FACTORY_RESET', 409: 'a job is active' },
    },
    async (ctx) => {
      decodeInput(FactoryResetBody, ctx.request.body, 'body');
      ctx.body = await factoryReset(deps, { user: commandMetadata(ctx).user ?? null, now: clock(), bootstrap: () => bootstrapAgain(deps) });
    },
  );
}

function registerItemReset(table: RouteTable, deps: AppDeps, clock: () => Date): void {
  table.add(
    {
      method: 'post', operationId: 'itemReset', path: `${SUPPORT_PATH}/itemReset`, roles: SUPPORT_ROLES, tag: TAG,
      summary: "Forget the items of a facility (engine state and items read model) as an event; its history records too with clearHistory",
      body: {
        type: 'object',
        required: ['facility'],
        properties: { facility: { type: 'string' }, clearHistory: { type: 'boolean', default: false } },
      },
      responses: { 202: { description: '{requestId, facility, clearHistory, at}: accepted, carried out by the item engine', schema: ITEM_RESET_SCHEMA }, 400: 'facility missing or clearHistory not a boolean', 404: 'unknown facility' },
    },
    async (ctx) => {
      ctx.body = await requestItemReset(deps, ctx.request.body, commandMetadata(ctx).user ?? null, clock());
      ctx.status = 202;
    },
  );
}

function registerIterationData(table: RouteTable, deps: AppDeps): void {
  table.add(
    {
      method: 'get', operationId: 'showIterationData', path: `${SUPPORT_PATH}/iterationData`, roles: SUPPORT_ROLES, tag: TAG,
      summary: 'Threshold decisions with their evidence, of THRESHOLD recipes with iterationDataLogEnabled (oldest first, at most 10,000)',
      query: [
        { name: 'jobId', description: 'only iterations of this job' },
        { name: 'fromTime', description: 'ISO 8601 date-time', schema: { type: 'string', format: 'date-time' } },
        { name: 'toTime', description: 'ISO 8601 date-time', schema: { type: 'string', format: 'date-time' } },
      ],
      responses: { 200: { description: '{iterations}', schema: ITERATIONS_SCHEMA }, 400: 'bad fromTime/toTime' },
    },
    async (ctx) => {
      const q = parseIterationQuery(ctx.query as Record<string, unknown>);
      ctx.body = { iterations: await new TransitionsReadModel(deps.redis, deps.keys).iterations(q) };
    },
  );
}

export function makeSupportSlice(clock: () => Date = () => new Date()): Slice {
  return {
    name: 'support',
    register(table, deps) {
      registerConfiguration(table, deps, clock);
      registerLogs(table, clock);
      registerFactoryReset(table, deps, clock);
      registerItemReset(table, deps, clock);
      registerIterationData(table, deps);
    },
  };
}

export const supportSlice: Slice = makeSupportSlice();
