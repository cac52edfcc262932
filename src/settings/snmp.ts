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
import * as t from 'io-ts';
import { isLeft } from 'fp-ts/Either';
import { formatIsoDuration, parseIsoDuration } from '../core/duration';
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

/** Stored (the data of its events) and returned as is: the settings in use. */
export const SnmpSettings = t.type(
  { authConfig: SnmpAuthConfig, trapTargetConfig: nullable(TrapTargetConfig) },
  'StoredSnmpSettings',
);
export type SnmpSettings = t.TypeOf<typeof SnmpSettings>;

/** The settings in use for a decoded body: defaults filled in, nothing left undefined. */
export function snmpSettingsFromBody(body: SnmpSettingsBody): SnmpSettings {
  const target = body.trapTargetConfig;
  return {
    authConfig: { type: body.authConfig.type, communityName: body.authConfig.communityName },
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

/** The PUT response. A copy, so a caller cannot reach the stored state. */
export function snmpSettingsResponse(s: SnmpSettings): SnmpSettings {
  return { authConfig: { ...s.authConfig }, trapTargetConfig: s.trapTargetConfig === null ? null : { ...s.trapTargetConfig } };
}
