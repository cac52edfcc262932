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
//
// LLRP over TLS (`tls: true`, port 5085 by default): the reader's certificate
// is checked against `caCertificate` (PEM) when given, else against Node's
// trusted CAs, or pinned by its SHA-256 fingerprint (`certificateSha256`),
// which also serves readers with self-signed certificates. Neither is a
// secret: both are returned as stored.
import { X509Certificate } from 'node:crypto';
import * as t from 'io-ts';
import type { SecretBox } from '../core/secret-box';
import { failureReason, NonEmptyString } from './primitives';

export const LLRP_DEFAULT_PORT = 5084;
/** The port LLRP readers listen on for TLS connections (LLRP 1.1, the IANA llrp-secure port). */
export const LLRP_TLS_DEFAULT_PORT = 5085;
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

/** One or more PEM certificates Node can parse (the CA certificates a reader's certificate must chain to). */
const isPem = (u: unknown): u is string => {
  if (typeof u !== 'string' || !u.includes('-----BEGIN CERTIFICATE-----')) return false;
  try {
    new X509Certificate(u);
    return true;
  } catch {
    return false;
  }
};
const PemCertificates = new t.Type<string, string, unknown>(
  'PEM certificate',
  isPem,
  (u, c) => (isPem(u) ? t.success(u) : t.failure(u, c, failureReason('PEM certificate', 'must be a PEM certificate (-----BEGIN CERTIFICATE-----) that parses', u))),
  t.identity,
);
/** A SHA-256 fingerprint: 64 hex digits, colons allowed; stored lower-case without colons. */
const SHA256_RE = /^([0-9a-fA-F]{2}:?){31}[0-9a-fA-F]{2}$/;
const Sha256Fingerprint = new t.Type<string, string, unknown>(
  'SHA-256 fingerprint',
  (u): u is string => typeof u === 'string' && /^[0-9a-f]{64}$/.test(u),
  (u, c) =>
    typeof u === 'string' && SHA256_RE.test(u)
      ? t.success(u.replace(/:/g, '').toLowerCase())
      : t.failure(u, c, failureReason('SHA-256 fingerprint', 'must be 64 hexadecimal digits (colons between bytes allowed)', u)),
  t.identity,
);

const BODY_FIELDS = {
  AGENT: t.partial({}),
  LLRP: t.partial({ port: Port, tls: t.boolean, caCertificate: PemCertificates, certificateSha256: Sha256Fingerprint }),
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
    if (fields._tag === 'Left') return fields;
    const body = { ...fields.right, protocol } as BodyUnion;
    if (body.protocol === 'LLRP' && body.tls !== true) {
      // A certificate setting without TLS would be silently unused.
      const stray = (['caCertificate', 'certificateSha256'] as const).find((k) => body[k] !== undefined);
      if (stray !== undefined) return t.failure(body[stray], [...c, { key: stray, type: t.string, actual: body[stray] }], failureReason(stray, 'applies only with tls: true', body[stray]));
    }
    return t.success(body);
  },
  t.identity,
);
export type ConnectionBody = t.TypeOf<typeof ConnectionBody>;

export const AgentConnection = t.type({ protocol: t.literal('AGENT') }, 'AgentConnection');
export const LlrpConnection = t.intersection(
  [
    t.type({ protocol: t.literal('LLRP'), port: t.number }),
    // Definitions stored before TLS lack these: plain TCP.
    t.partial({ tls: t.boolean, caCertificate: t.union([t.string, t.null]), certificateSha256: t.union([t.string, t.null]) }),
  ],
  'LlrpConnection',
);
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
    case 'LLRP': {
      // Plain TCP is stored as it always was; the TLS fields only with TLS.
      if (body.tls !== true) return { protocol: 'LLRP', port: body.port ?? LLRP_DEFAULT_PORT };
      return { protocol: 'LLRP', port: body.port ?? LLRP_TLS_DEFAULT_PORT, tls: true, caCertificate: body.caCertificate ?? null, certificateSha256: body.certificateSha256 ?? null };
    }
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
  | { protocol: 'LLRP'; port: number; tls?: true; caCertificate?: string | null; certificateSha256?: string | null }
  | { protocol: 'IOT'; scheme: 'https' | 'http'; port: number | null; username: string; passwordSet: boolean; delivery: IotDelivery };

/** What the interface returns: never the password, only whether one is set. */
export function connectionResponse(c: ReaderConnection | null | undefined): ConnectionResponse | null {
  if (c === undefined || c === null) return null;
  if (c.protocol === 'LLRP') return c.tls === true ? { protocol: 'LLRP', port: c.port, tls: true, caCertificate: c.caCertificate ?? null, certificateSha256: c.certificateSha256 ?? null } : { protocol: 'LLRP', port: c.port };
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
    port: { type: 'integer', minimum: 1, maximum: 65535, description: 'LLRP: default 5084 (5085 with tls); IOT: default the scheme port' },
    tls: { type: 'boolean', description: 'LLRP only: connect over TLS; default false (answers show tls, caCertificate and certificateSha256 only when true)' },
    caCertificate: { type: 'string', description: 'LLRP with tls only: PEM CA certificate(s) the reader\'s certificate must chain to; default the trusted CAs of Node' },
    certificateSha256: { type: 'string', pattern: '^([0-9a-fA-F]{2}:?){31}[0-9a-fA-F]{2}$', description: 'LLRP with tls only: SHA-256 fingerprint the reader\'s certificate must have (pins it, self-signed certificates included)' },
    scheme: { type: 'string', enum: ['https', 'http'], description: 'IOT only; default https' },
    username: { type: 'string', minLength: 1, description: 'IOT only; default root' },
    password: { type: 'string', minLength: 1, writeOnly: true, description: 'IOT only; never returned; left out on replace keeps the stored one' },
    delivery: { type: 'string', enum: [...IOT_DELIVERIES], description: 'IOT only: how tag events reach tagtrail; default STREAM' },
  },
};
