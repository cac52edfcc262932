// SNMP settings under /configuration/v1/settings/SNMP: PUT stores the
// settings (the community sealed) and answers the settings in use (defaults
// filled in, whether a community is set in place of it), DELETE removes
// them, GET (an addition to the interface) shows them. Sending the traps is
// another slice's work; it reads the settings from the config read model.
import { right } from 'fp-ts/Either';
import { decodeInput } from '../core/http/decode';
import { ApiError, notFound } from '../core/http/errors';
import type { RouteTable } from '../core/http/routes';
import { commandMetadata, runResourceCommand, type ResourceDeps } from '../core/resource/routes';
import type { SecretBox } from '../core/secret-box';
import type { Slice } from '../slice';
import { SNMP_SETTINGS_NAME, snmpSettingsKind } from './kind';
import { SnmpSettingsBody, snmpSettingsFromBody, snmpSettingsResponse } from './snmp';

export const SNMP_SETTINGS_PATH = '/configuration/v1/settings/SNMP';
export const SETTINGS_ROLES = ['ConfigManager'];
const TAG = 'SNMP settings';

const snmpBodySchema: Record<string, unknown> = {
  type: 'object',
  required: ['authConfig'],
  properties: {
    authConfig: {
      type: 'object',
      required: ['type', 'communityName'],
      properties: {
        type: { type: 'string', enum: ['V2_COMMUNITY'] },
        communityName: { type: 'string', minLength: 1, writeOnly: true, description: 'never returned (answers say communityNameSet); stored sealed' },
      },
    },
    trapTargetConfig: {
      type: 'object',
      nullable: true,
      required: ['host'],
      properties: {
        host: { type: 'string', minLength: 1 },
        port: { type: 'integer', minimum: 1, maximum: 65535, nullable: true, description: 'default 162' },
        timeout: { type: 'string', nullable: true, description: 'ISO 8601 duration longer than zero, default PT5S; returned in canonical form' },
        retries: { type: 'integer', minimum: 0, nullable: true, description: 'default 2' },
        messageType: { type: 'string', enum: ['TRAP', 'INFORM', null], nullable: true, description: 'default TRAP' },
      },
    },
  },
};

/** The settings in use (snmpSettingsResponse): every default filled in, the community write-only. */
const snmpSettingsSchema: Record<string, unknown> = {
  type: 'object',
  additionalProperties: false,
  required: ['authConfig', 'trapTargetConfig'],
  properties: {
    authConfig: {
      type: 'object',
      additionalProperties: false,
      required: ['type', 'communityNameSet'],
      properties: {
        type: { type: 'string', enum: ['V2_COMMUNITY'] },
        communityNameSet: { type: 'boolean', description: 'whether a community is set (false after a configuration archive is restored: PUT the settings again)' },
      },
    },
    trapTargetConfig: {
      type: 'object',
      nullable: true,
      additionalProperties: false,
      required: ['host', 'port', 'timeout', 'retries', 'messageType'],
      properties: {
        host: { type: 'string' },
        port: { type: 'integer' },
        timeout: { type: 'string', description: 'ISO 8601 duration, canonical form' },
        retries: { type: 'integer' },
        messageType: { type: 'string', enum: ['TRAP', 'INFORM'] },
      },
      description: 'null when no trap target is set',
    },
  },
};

export function registerSnmpRoutes(table: RouteTable, deps: ResourceDeps & { readonly secrets: SecretBox }): void {
  const roles = SETTINGS_ROLES;
  table.add(
    {
      method: 'put', operationId: 'updateSnmpSettings', path: SNMP_SETTINGS_PATH, roles, tag: TAG,
      summary: 'Set the SNMP settings (replacing any); answers the settings in use, defaults filled in',
      body: snmpBodySchema,
      responses: { 200: { description: 'the settings in use (authConfig, trapTargetConfig)', schema: snmpSettingsSchema }, 400: 'invalid input' },
    },
    async (ctx) => {
      // Sealed before anything is decided: the log and the read model never hold the community in clear.
      const settings = snmpSettingsFromBody(decodeInput(SnmpSettingsBody, ctx.request.body, 'body'), deps.secrets);
      const state = await runResourceCommand(
        deps,
        snmpSettingsKind,
        SNMP_SETTINGS_NAME,
        () => right({ type: 'createOrReplace', name: SNMP_SETTINGS_NAME, resource: settings }),
        commandMetadata(ctx),
      );
      ctx.body = snmpSettingsResponse(state.resource ?? settings);
    },
  );
  table.add(
    {
      method: 'delete', operationId: 'deleteSnmpSettings', path: SNMP_SETTINGS_PATH, roles, tag: TAG,
      summary: 'Remove the SNMP settings (SNMP notifications stop); 204 also when none were set',
      responses: { 204: 'removed, or there were none' },
    },
    async (ctx) => {
      try {
        await runResourceCommand(deps, snmpSettingsKind, SNMP_SETTINGS_NAME, () => right({ type: 'delete', name: SNMP_SETTINGS_NAME }), commandMetadata(ctx));
      } catch (err) {
        // None set: the goal (no SNMP settings) already holds; nothing is appended.
        if (!(err instanceof ApiError && err.status === 404)) throw err;
      }
      ctx.status = 204;
    },
  );
  table.add(
    {
      method: 'get', operationId: 'showSnmpSettings', path: SNMP_SETTINGS_PATH, roles, tag: TAG,
      summary: 'Show the SNMP settings in use (not in the reference interface; an addition)',
      responses: { 200: { description: 'the settings in use', schema: snmpSettingsSchema }, 404: 'no SNMP settings are set' },
    },
    async (ctx) => {
      const settings = await deps.readModel.get(snmpSettingsKind, SNMP_SETTINGS_NAME);
      if (settings === undefined) throw notFound('No SNMP settings are set');
      ctx.body = snmpSettingsResponse(settings);
    },
  );
}

export const settingsSlice: Slice = {
  name: 'settings',
  register: (table, deps) => registerSnmpRoutes(table, deps),
};
