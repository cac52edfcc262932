// SNMP settings (`PUT/DELETE /configuration/v1/settings/SNMP`): where the
// service sends its SNMP notifications. One document for the whole service.
//
// Where the published interface is silent:
// - authConfig.type: only `V2_COMMUNITY` (the value seen). SNMPv3 user
//   auth would need its own fields and secrets handling; until then it is
//   refused rather than accepted and ignored.
// - messageType: `TRAP` (default) or `INFORM`. The trap target has `timeout`
//   and `retries`, which only mean something for acknowledged INFORMs, and
//   the Java client's enum has both.
// - Defaults (the response shows the settings in use): port 162 (the SNMP
//   trap port), retries 2 (the Java client's default), timeout PT5S.
// - timeout is returned in canonical form (`PT60S` comes back as `PT1M`).
// - The community is write-only, as the IoT reader password: it must go out
//   in clear in every notification, so it cannot be hashed; it is stored
//   sealed (src/core/secret-box.ts, the key outside the log and Redis),
//   opened only by the sender, never returned (answers say
//   `communityNameSet`), never logged nor exported (the configuration
//   archive carries null: set the settings again after a restore).
import * as t from 'io-ts';
import { isLeft } from 'fp-ts/Either';
import { formatIsoDuration, parseIsoDuration } from '../core/duration';
import type { SecretBox } from '../core/secret-box';
import { failureReason, NonEmptyString, NonNegativeInteger, nullable } from '../readerdefinitions';

export const DEFAULT_TRAP_PORT = 162;
export const DEFAULT_TRAP_RETRIES = 2;
export const DEFAULT_TRAP_TIMEOUT = 'PT5S';

const Port = new t.Type<number, number, unknown>(
  'port 1-65535',
  (u): u is number => typeof u === 'number' && Number.isInteger(u) && u >= 1 && u <= 65535,
  (u, c) =>
    typeof u === 'number' && Number.isInteger(u) && u >= 1 && u <= 65535
      ? t.success(u)
      : t.failure(u, c, failureReason('port', 'must be an integer from 1 to 65535', u)),
  t.identity,
);

/** A positive ISO 8601 duration, decoded to its canonical text. */
const Timeout = new t.Type<string, string, unknown>(
  'ISO 8601 duration',
  (u): u is string => typeof u === 'string',
  (u, c) => {
    if (typeof u !== 'string') return t.failure(u, c, failureReason('ISO 8601 duration', 'must be an ISO 8601 duration string', u));
    const ms = parseIsoDuration(u);
    if (isLeft(ms)) return t.failure(u, c, ms.left);
    if (ms.right === 0) return t.failure(u, c, 'must be longer than zero');
    return t.success(formatIsoDuration(ms.right));
  },
  t.identity,
);

export const SnmpMessageType = t.keyof({ TRAP: null, INFORM: null });
export type SnmpMessageType = t.TypeOf<typeof SnmpMessageType>;

export const SnmpAuthConfig = t.type(
  { type: t.literal('V2_COMMUNITY'), communityName: NonEmptyString },
  'SnmpAuthConfig',
);
export type SnmpAuthConfig = t.TypeOf<typeof SnmpAuthConfig>;

export const TrapTargetConfigBody = t.intersection(
  [
    t.type({ host: NonEmptyString }),
    t.partial({
      port: nullable(Port),
      timeout: nullable(Timeout),
      retries: nullable(NonNegativeInteger),
      messageType: nullable(SnmpMessageType),
    }),
  ],
  'TrapTargetConfig',
);
export type TrapTargetConfigBody = t.TypeOf<typeof TrapTargetConfigBody>;

/** `PUT /settings/SNMP` body. Decode with decodeInput: every rule here is a 400. */
export const SnmpSettingsBody = t.intersection(
  [t.type({ authConfig: SnmpAuthConfig }), t.partial({ trapTargetConfig: nullable(TrapTargetConfigBody) })],
  'SnmpSettings',
);
export type SnmpSettingsBody = t.TypeOf<typeof SnmpSettingsBody>;

export const TrapTargetConfig = t.type({
  host: t.string,
  port: t.number,
  timeout: t.string,
  retries: t.number,
  messageType: SnmpMessageType,
});
export type TrapTargetConfig = t.TypeOf<typeof TrapTargetConfig>;

/**
 * The stored community: sealed; in clear when stored by a version before
 * sealing (still used as it is); null when restored from a configuration
 * archive, which never carries it (nothing can be sent until it is set again).
 */
const StoredAuthConfig = t.type({ type: t.literal('V2_COMMUNITY'), communityName: t.union([t.string, t.null]) }, 'StoredSnmpAuthConfig');

/** Stored (the data of its events): the settings in use, the community sealed. */
export const SnmpSettings = t.type(
  { authConfig: StoredAuthConfig, trapTargetConfig: nullable(TrapTargetConfig) },
  'StoredSnmpSettings',
);
export type SnmpSettings = t.TypeOf<typeof SnmpSettings>;

/** What the interface answers: the settings in use, with whether a community is set in its place. */
export interface SnmpSettingsResponse {
  readonly authConfig: { readonly type: 'V2_COMMUNITY'; readonly communityNameSet: boolean };
  readonly trapTargetConfig: TrapTargetConfig | null;
}

/** The settings in use for a decoded body: defaults filled in, nothing left undefined, the community sealed. */
export function snmpSettingsFromBody(body: SnmpSettingsBody, secrets: SecretBox): SnmpSettings {
  const target = body.trapTargetConfig;
  return {
    authConfig: { type: body.authConfig.type, communityName: secrets.seal(body.authConfig.communityName) },
    trapTargetConfig:
      target === undefined || target === null
        ? null
        : {
            host: target.host,
            port: target.port ?? DEFAULT_TRAP_PORT,
            timeout: target.timeout ?? DEFAULT_TRAP_TIMEOUT,
            retries: target.retries ?? DEFAULT_TRAP_RETRIES,
            messageType: target.messageType ?? 'TRAP',
          },
  };
}

/** The PUT and GET answer: never the community, only whether one is set. A copy, so a caller cannot reach the stored state. */
export function snmpSettingsResponse(s: SnmpSettings): SnmpSettingsResponse {
  return {
    authConfig: { type: s.authConfig.type, communityNameSet: s.authConfig.communityName !== null },
    trapTargetConfig: s.trapTargetConfig === null ? null : { ...s.trapTargetConfig },
  };
}

/** The community in clear, for the notification only. Throws when none is set or it cannot be opened here. */
export function communityOf(s: SnmpSettings, secrets: SecretBox): string {
  if (s.authConfig.communityName === null) {
    throw new Error('the SNMP settings have no community (restored from a configuration archive, which never carries it): PUT the settings again');
  }
  return secrets.open(s.authConfig.communityName);
}

/**
 * An SNMP settings event's data without the community: what leaves tagtrail
 * (the configuration archive). Any other data as it is.
 */
export function withoutCommunity(data: unknown): unknown {
  if (typeof data !== 'object' || data === null || !('resource' in data)) return data;
  const resource = data.resource;
  if (typeof resource !== 'object' || resource === null || !('authConfig' in resource)) return data;
  const auth = resource.authConfig;
  if (typeof auth !== 'object' || auth === null) return data;
  return { ...data, resource: { ...resource, authConfig: { ...auth, communityName: null } } };
}
