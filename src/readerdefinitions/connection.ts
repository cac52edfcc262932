// How tagtrail reaches a reader (docs/readers.md): an extension of the
// reader definition. Absent or null: the reader runs an agent of ours that
// calls the agent API (the default, as before). LLRP: tagtrail connects to
// the reader at `address:port`. IOT: tagtrail drives the reader's Impinj IoT
// device interface (REST at `address`) and receives its tag events by
// webhook, MQTT or the HTTP stream.
//
// The IoT password is write-only: it is needed in clear to call the reader
// (HTTP Basic), so it cannot be hashed like the agent secrets; it is stored
// sealed (src/core/secret-box.ts, the key outside the log), never returned
// (responses say `passwordSet`), never logged nor exported, and a replace
// that leaves it out keeps the stored one.
import * as t from 'io-ts';
import type { SecretBox } from '../core/secret-box';
import { failureReason, NonEmptyString } from './primitives';

export const LLRP_DEFAULT_PORT = 5084;
export const IOT_DEFAULT_USERNAME = 'root';
export const IOT_DELIVERIES = ['WEBHOOK', 'MQTT', 'STREAM'] as const;
export type IotDelivery = (typeof IOT_DELIVERIES)[number];

const isPort = (u: unknown): u is number => typeof u === 'number' && Number.isSafeInteger(u) && u >= 1 && u <= 65535;
const Port = new t.Type<number, number, unknown>(
  'port',
  isPort,
  (u, c) => (isPort(u) ? t.success(u) : t.failure(u, c, failureReason('port', 'must be an integer 1-65535', u))),
  t.identity,
);

const Delivery = t.keyof({ WEBHOOK: null, MQTT: null, STREAM: null }, 'WEBHOOK | MQTT | STREAM');
const Scheme = t.keyof({ https: null, http: null }, 'https | http');

const BODY_FIELDS = {
  AGENT: t.partial({}),
  LLRP: t.partial({ port: Port }),
  IOT: t.partial({ scheme: Scheme, port: Port, username: NonEmptyString, password: NonEmptyString, delivery: Delivery }),
};
type BodyOf<P extends keyof typeof BODY_FIELDS> = { protocol: P } & t.TypeOf<(typeof BODY_FIELDS)[P]>;
type BodyUnion = BodyOf<'AGENT'> | BodyOf<'LLRP'> | BodyOf<'IOT'>;
const isProtocol = (u: unknown): u is keyof typeof BODY_FIELDS => typeof u === 'string' && Object.hasOwn(BODY_FIELDS, u);

/**
 * The request body's `connection`. Dispatches on `protocol` first, so an
 * error names the field of that protocol (`body.connection.port`), not every
 * member of a union.
 */
export const ConnectionBody = new t.Type<BodyUnion, unknown, unknown>(
  'Connection',
  (u): u is BodyUnion => typeof u === 'object' && u !== null && isProtocol((u as Record<string, unknown>)['protocol']),
  (u, c) => {
    if (typeof u !== 'object' || u === null || Array.isArray(u)) return t.failure(u, c, failureReason('connection', 'must be an object', u));
    const protocol = (u as Record<string, unknown>)['protocol'];
    if (!isProtocol(protocol)) {
      return t.failure(protocol, [...c, { key: 'protocol', type: t.string, actual: protocol }], failureReason('protocol', 'must be AGENT, LLRP or IOT', protocol));
    }
    const fields = BODY_FIELDS[protocol].validate(u, c);
    return fields._tag === 'Left' ? fields : t.success({ ...fields.right, protocol } as BodyUnion);
  },
  t.identity,
);
export type ConnectionBody = t.TypeOf<typeof ConnectionBody>;

export const AgentConnection = t.type({ protocol: t.literal('AGENT') }, 'AgentConnection');
export const LlrpConnection = t.type({ protocol: t.literal('LLRP'), port: t.number }, 'LlrpConnection');
export const IotConnection = t.type(
  {
    protocol: t.literal('IOT'),
    scheme: Scheme,
    /** null: the scheme's port. */
    port: t.union([t.number, t.null]),
    username: t.string,
    /** Write-only, sealed (SecretBox; definitions stored before sealing hold it in clear); null until one is given. */
    password: t.union([t.string, t.null]),
    delivery: Delivery,
  },
  'IotConnection',
);
export type LlrpConnection = t.TypeOf<typeof LlrpConnection>;
export type IotConnection = t.TypeOf<typeof IotConnection>;

/** The stored connection: every field of its protocol present. */
export const ReaderConnection = t.union([AgentConnection, LlrpConnection, IotConnection], 'StoredConnection');
export type ReaderConnection = t.TypeOf<typeof ReaderConnection>;

/** The stored form of a body's connection; an IoT password left out keeps the one stored before. */
export function toStoredConnection(body: ConnectionBody | null | undefined, existing: ReaderConnection | null | undefined): ReaderConnection | null {
  if (body === undefined || body === null) return null;
  switch (body.protocol) {
    case 'AGENT':
      return { protocol: 'AGENT' };
    case 'LLRP':
      return { protocol: 'LLRP', port: body.port ?? LLRP_DEFAULT_PORT };
    case 'IOT': {
      const kept = existing?.protocol === 'IOT' ? existing.password : null;
      return {
        protocol: 'IOT',
        scheme: body.scheme ?? 'https',
        port: body.port ?? null,
        username: body.username ?? IOT_DEFAULT_USERNAME,
        password: body.password ?? kept,
        delivery: body.delivery ?? 'STREAM',
      };
    }
  }
}

/** The body with its IoT password sealed (what is stored); any other body as it is. */
export function sealConnectionPassword<B extends { connection?: ConnectionBody | null | undefined }>(body: B, secrets: SecretBox): B {
  const c = body.connection;
  if (c === undefined || c === null || c.protocol !== 'IOT' || c.password === undefined) return body;
  return { ...body, connection: { ...c, password: secrets.seal(c.password) } };
}

/** The connection without its password: what leaves tagtrail (the configuration archive). */
export function withoutPassword(c: unknown): unknown {
  if (typeof c !== 'object' || c === null || !('password' in c)) return c;
  return { ...c, password: null };
}

/** A connection that reaches out to the reader needs its address. */
export const needsAddress = (c: ReaderConnection | null): boolean => c !== null && c.protocol !== 'AGENT';

export type ConnectionResponse =
  | { protocol: 'AGENT' }
  | { protocol: 'LLRP'; port: number }
  | { protocol: 'IOT'; scheme: 'https' | 'http'; port: number | null; username: string; passwordSet: boolean; delivery: IotDelivery };

/** What the interface returns: never the password, only whether one is set. */
export function connectionResponse(c: ReaderConnection | null | undefined): ConnectionResponse | null {
  if (c === undefined || c === null) return null;
  if (c.protocol !== 'IOT') return { ...c };
  const { password, ...rest } = c;
  return { ...rest, passwordSet: password !== null };
}

export const connectionBodySchema: Record<string, unknown> = {
  type: 'object',
  nullable: true,
  required: ['protocol'],
  description:
    'how tagtrail talks to the reader; null or absent: the reader runs an agent calling the agent API. ' +
    'LLRP: tagtrail connects to address:port. IOT: Impinj IoT device interface at address (password write-only).',
  properties: {
    protocol: { type: 'string', enum: ['AGENT', 'LLRP', 'IOT'] },
    port: { type: 'integer', minimum: 1, maximum: 65535, description: 'LLRP: default 5084; IOT: default the scheme port' },
    scheme: { type: 'string', enum: ['https', 'http'], description: 'IOT only; default https' },
    username: { type: 'string', minLength: 1, description: 'IOT only; default root' },
    password: { type: 'string', minLength: 1, writeOnly: true, description: 'IOT only; never returned; left out on replace keeps the stored one' },
    delivery: { type: 'string', enum: [...IOT_DELIVERIES], description: 'IOT only: how tag events reach tagtrail; default STREAM' },
  },
};
