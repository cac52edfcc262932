// A configured EPCIS repository that tagtrail pushes its events to
// (docs/epcis.md, "Capture"): the repository's capture URL, its credentials
// and a filter. The credentials are write-only, as the reader IoT password
// is: needed in clear to call the repository, so they cannot be hashed; they
// are stored sealed (src/core/secret-box.ts, the key outside the log and
// Redis) and opened only for the request to the repository, never returned
// (answers say `passwordSet` / `bearerTokenSet`), never logged (the logger
// masks fields named like secrets, and URLs are logged without their
// password), never exported, and a replace that leaves one out keeps the
// stored one (null removes it).
import * as t from 'io-ts';
import { Name, NonEmptyString, PositiveInteger } from '../../core/codecs';
import { defineResourceKind } from '../../core/resource/kind';
import type { SecretBox } from '../../core/secret-box';

export const MAX_DOCUMENT_EVENTS = 10_000;
export const DEFAULT_DOCUMENT_EVENTS = 500;

const urlProblem = (u: unknown): string | undefined => {
  if (typeof u !== 'string') return 'must be a string (the repository\'s capture URL)';
  if (u.length > 2048) return 'must be at most 2048 characters';
  if (!/^https?:\/\//.test(u) || !URL.canParse(u)) return `must be an http(s) URL, got ${JSON.stringify(u).slice(0, 100)}`;
  const url = new URL(u);
  if (url.username !== '' || url.password !== '') return 'must not carry credentials: give username and password';
  return undefined;
};

const CaptureUrl = new t.Type<string, string, unknown>(
  'captureUrl',
  (u): u is string => urlProblem(u) === undefined,
  (u, c) => {
    const p = urlProblem(u);
    return p === undefined ? t.success(u as string) : t.failure(u, c, p);
  },
  t.identity,
);

const DocumentEvents = new t.Type<number, number, unknown>(
  'maxEventsPerDocument',
  (u): u is number => PositiveInteger.is(u) && u <= MAX_DOCUMENT_EVENTS,
  (u, c) => (PositiveInteger.is(u) && u <= MAX_DOCUMENT_EVENTS ? t.success(u) : t.failure(u, c, `must be an integer from 1 to ${MAX_DOCUMENT_EVENTS}`)),
  t.identity,
);

export const RepositoryBody = t.intersection([
  t.type({ name: Name, captureUrl: CaptureUrl }),
  t.partial({
    enabled: t.boolean,
    username: t.union([NonEmptyString, t.null]),
    password: t.union([NonEmptyString, t.null]),
    bearerToken: t.union([NonEmptyString, t.null]),
    facilities: t.union([t.array(Name), t.null]),
    maxEventsPerDocument: t.union([DocumentEvents, t.null]),
  }),
]);
export type RepositoryBody = t.TypeOf<typeof RepositoryBody>;

/** The stored document. */
export interface EpcisRepository {
  readonly name: string;
  readonly captureUrl: string;
  readonly enabled: boolean;
  readonly username: string | null;
  /** Write-only, sealed (repositories stored before sealing hold it in clear). */
  readonly password: string | null;
  /** Write-only, sealed (repositories stored before sealing hold it in clear). */
  readonly bearerToken: string | null;
  /** Only events in these facilities; null: all. */
  readonly facilities: readonly string[] | null;
  readonly maxEventsPerDocument: number;
}

const RepositoryDoc: t.Type<EpcisRepository, unknown, unknown> = t.type({
  name: t.string,
  captureUrl: t.string,
  enabled: t.boolean,
  username: t.union([t.string, t.null]),
  password: t.union([t.string, t.null]),
  bearerToken: t.union([t.string, t.null]),
  facilities: t.union([t.array(t.string), t.null]),
  maxEventsPerDocument: t.number,
}) as never;
export const epcisRepositoryKind = defineResourceKind<EpcisRepository>('epcisRepository', 'EpcisRepository', RepositoryDoc);

/** The body with the credentials it gives sealed: what is stored. */
export function sealRepositoryCredentials(b: RepositoryBody, secrets: SecretBox): RepositoryBody {
  const sealed = { ...b };
  if (typeof b.password === 'string') sealed.password = secrets.seal(b.password);
  if (typeof b.bearerToken === 'string') sealed.bearerToken = secrets.seal(b.bearerToken);
  return sealed;
}

/** The stored form of a (sealed) body: a secret left out keeps the stored one, null removes it. */
export function storedRepository(b: RepositoryBody, existing: EpcisRepository | undefined): EpcisRepository {
  return {
    name: b.name,
    captureUrl: b.captureUrl,
    enabled: b.enabled ?? true,
    username: b.username === undefined ? (existing?.username ?? null) : b.username,
    password: b.password === undefined ? (existing?.password ?? null) : b.password,
    bearerToken: b.bearerToken === undefined ? (existing?.bearerToken ?? null) : b.bearerToken,
    facilities: b.facilities ?? null,
    maxEventsPerDocument: b.maxEventsPerDocument ?? DEFAULT_DOCUMENT_EVENTS,
  };
}

/** Why a stored repository cannot be used, or undefined. */
export function repositoryProblem(r: EpcisRepository): { path: string; reason: string } | undefined {
  if (r.password !== null && r.bearerToken !== null) return { path: 'body.bearerToken', reason: 'give either username and password or a bearer token, not both' };
  if ((r.username === null) !== (r.password === null)) return { path: r.username === null ? 'body.username' : 'body.password', reason: 'username and password go together' };
  return undefined;
}

/** What the interface returns: never a secret, only whether one is set. */
export function repositoryResponse(r: EpcisRepository): Record<string, unknown> {
  const { password, bearerToken, ...rest } = r;
  return { ...rest, passwordSet: password !== null, bearerTokenSet: bearerToken !== null };
}

/**
 * The Authorization header of requests to `r`, if any: the credentials are
 * opened only here. Throws a SecretUnusable when they were sealed with
 * another key.
 */
export function authorizationOf(r: EpcisRepository, secrets: SecretBox): string | undefined {
  if (r.bearerToken !== null) return `Bearer ${secrets.open(r.bearerToken)}`;
  if (r.username !== null && r.password !== null) return `Basic ${Buffer.from(`${r.username}:${secrets.open(r.password)}`).toString('base64')}`;
  return undefined;
}

export const repositoryBodySchema = {
  type: 'object',
  required: ['name', 'captureUrl'],
  additionalProperties: false,
  properties: {
    name: { type: 'string' },
    captureUrl: { type: 'string', description: 'the repository\'s EPCIS 2.0 capture endpoint, e.g. https://repo.example.com/epcis/v2/capture' },
    enabled: { type: 'boolean', default: true },
    username: { type: 'string', nullable: true, description: 'HTTP Basic user name' },
    password: { type: 'string', nullable: true, writeOnly: true, description: 'HTTP Basic password; never returned; left out on replace keeps the stored one, null removes it' },
    bearerToken: { type: 'string', nullable: true, writeOnly: true, description: 'sent as Authorization: Bearer; never returned; left out keeps the stored one, null removes it' },
    facilities: { type: 'array', items: { type: 'string' }, nullable: true, description: 'only events in these facilities; null or absent: all' },
    maxEventsPerDocument: { type: 'integer', minimum: 1, maximum: MAX_DOCUMENT_EVENTS, nullable: true, default: DEFAULT_DOCUMENT_EVENTS },
  },
};

export const repositoryResponseSchema = {
  type: 'object',
  required: ['name', 'captureUrl', 'enabled', 'username', 'passwordSet', 'bearerTokenSet', 'facilities', 'maxEventsPerDocument'],
  additionalProperties: false,
  properties: {
    name: { type: 'string' },
    captureUrl: { type: 'string' },
    enabled: { type: 'boolean' },
    username: { type: 'string', nullable: true },
    passwordSet: { type: 'boolean' },
    bearerTokenSet: { type: 'boolean' },
    facilities: { type: 'array', items: { type: 'string' }, nullable: true },
    maxEventsPerDocument: { type: 'integer' },
  },
};
