// /control/v1/upgrades: start, stop/{id}, show, show/{id} (spec: Reader
// software, roles ConfigManager and Admin).
import { randomUUID } from 'node:crypto';
import * as E from 'fp-ts/Either';
import * as t from 'io-ts';
import type { Context } from 'koa';
import { agentKeys } from '../agents';
import { decodeInput } from '../core/http/decode';
import { notFound } from '../core/http/errors';
import type { RouteTable } from '../core/http/routes';
import { commandMetadata } from '../core/resource/routes';
import type { AppDeps } from '../slice';
import { decodeStoredOrAbsent } from '../core/stored-json';
import { facilityKind } from '../facilities';
import { readerDefinitionsOf } from '../readerdefinitions';
import { softwareImageEntry } from '../software';
import { UpgradeStartBody, upgradeStartBodySchema, withPolicyDefaults } from './codec';
import { runCommand } from '../core/command';
import { onUpgrade, upgradeState } from './commands';
import { activeUpgradeKind, toListEntries, upgradeListKind } from './listing';
import { planUpgrade } from './targets';
import { toUpgradeStatus } from './view';
import { UPGRADE_LIST_SCHEMA, UPGRADE_START_SCHEMA, UPGRADE_STATUS_SCHEMA } from './schemas';

export const UPGRADES_BASE = '/control/v1/upgrades';
export const UPGRADE_ROLES = ['ConfigManager'];
const TAG = 'Reader software';

const Versions = t.type({ versions: t.type({ App: t.string, Firmware: t.string }) });

/** Reader -> the versions its agent last reported (gateway's lastCheckinEvent hash). */
export async function reportedVersions(deps: Pick<AppDeps, 'redis' | 'keys'>): Promise<Map<string, { App: string; Firmware: string }>> {
  const all = await deps.redis.hGetAll(agentKeys(deps.keys).lastCheckinEvent);
  const out = new Map<string, { App: string; Firmware: string }>();
  for (const [reader, raw] of Object.entries(all)) {
    // Not ours: the reader's previous version stays unknown (null).
    const d = decodeStoredOrAbsent(Versions, raw);
    if (d !== undefined) out.set(reader, d.versions);
  }
  return out;
}

/** POST start: the rollout planned against the readers, facilities, images, active upgrades and reported versions, then started. */
function startUpgrade(deps: AppDeps): (ctx: Context) => Promise<void> {
  return async (ctx) => {
    const request = withPolicyDefaults(decodeInput(UpgradeStartBody, ctx.request.body, 'body'));
    const [readers, facilities, images, active, versions] = await Promise.all([
      readerDefinitionsOf(deps.readModel),
      deps.readModel.list(facilityKind),
      deps.readModel.list(softwareImageEntry),
      deps.readModel.list(activeUpgradeKind),
      reportedVersions(deps),
    ]);
    const plan = planUpgrade(request, { readers, facilities: facilities.map((f) => f.name), images, active, versions });
    if (E.isLeft(plan)) throw plan.left;
    const id = randomUUID();
    const result = await runCommand(deps.client, onUpgrade(id), { type: 'Start', id, request, ...plan.right }, { metadata: commandMetadata(ctx), waiter: deps.waiter });
    if (E.isLeft(result)) throw result.left;
    ctx.body = { upgradeInstanceId: id };
  };
}

export function registerUpgradeRoutes(table: RouteTable, deps: AppDeps): void {
  table.add(
    {
      method: 'post', operationId: 'startUpgrade', path: `${UPGRADES_BASE}/start`, roles: UPGRADE_ROLES, tag: TAG,
      summary: 'Start rolling a software image out to readers (DEVICE names or FACILITY names) under a policy',
      body: upgradeStartBodySchema,
      responses: {
        200: { description: '{upgradeInstanceId}', schema: UPGRADE_START_SCHEMA },
        400: 'invalid request, unknown reader or facility, image not registered, no reader of the allowed types',
        409: 'a reader is in another active upgrade',
      },
    },
    startUpgrade(deps),
  );

  table.add(
    {
      method: 'post', operationId: 'stopUpgrade', path: `${UPGRADES_BASE}/stop/:upgradeInstanceId`, roles: UPGRADE_ROLES, tag: TAG,
      summary: 'Stop an upgrade: readers not started yet are cancelled (FAILED); readers upgrading finish',
      responses: { 204: 'stopped (or already finished)', 404: 'no such upgrade' },
    },
    async (ctx) => {
      const id = String(ctx.params['upgradeInstanceId']);
      const result = await runCommand(deps.client, onUpgrade(id), { type: 'Stop' }, { metadata: commandMetadata(ctx), waiter: deps.waiter });
      if (E.isLeft(result)) throw result.left.status === 404 ? notFound(`upgrade ${id} not found`) : result.left;
      ctx.status = 204;
    },
  );

  table.add(
    {
      method: 'get', operationId: 'showUpgrades', path: `${UPGRADES_BASE}/show`, roles: UPGRADE_ROLES, tag: TAG,
      summary: 'Every upgrade as {id, upgradeRequest}, oldest first',
      responses: { 200: { description: 'array of {id, upgradeRequest}', schema: UPGRADE_LIST_SCHEMA } },
    },
    async (ctx) => {
      ctx.body = toListEntries(await deps.readModel.list(upgradeListKind));
    },
  );

  table.add(
    {
      method: 'get', operationId: 'showUpgrade', path: `${UPGRADES_BASE}/show/:upgradeInstanceId`, roles: UPGRADE_ROLES, tag: TAG,
      summary: 'Upgrade status object: overall and per-reader status, previous versions, elapsed times',
      responses: { 200: { description: 'upgrade status object', schema: UPGRADE_STATUS_SCHEMA }, 404: 'no such upgrade' },
    },
    async (ctx) => {
      const id = String(ctx.params['upgradeInstanceId']);
      const state = await upgradeState(deps.client, id);
      if (state.request === null) throw notFound(`upgrade ${id} not found`);
      ctx.body = toUpgradeStatus(state, new Date());
    },
  );
}
