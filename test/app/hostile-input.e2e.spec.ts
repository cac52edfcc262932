// Every route of the route table against a fixed corpus of hostile input:
// bodies (malformed, wrong types, huge, deep, control characters, lone
// surrogates, prototype keys, not declared JSON), path parameters and query
// values. Each request must answer 4xx with a JSON message, and afterwards
// nothing may have changed: the event log's $all head, the read models (every
// list a client can read) and Object.prototype (the service runs in-process).
// One service for the whole run.
import { expect } from 'chai';
import { EventStoreDBClient, FORWARDS, START } from '@eventstore/db-client';
import { agentAuthorization } from '../../src/agents/guard';
import { BODY_LIMITS } from '../../src/core/http/body';
import type { RouteSpec } from '../../src/core/http/routes';
import { ADMIN, startTestApp, type TestApp } from '../support/app';
import { logHead } from '../support/log-head';
import { routeTableSpecs } from '../support/routes';

const READER = 'fuzz-reader';
const isAgentRoute = (r: RouteSpec): boolean => r.roles === 'public' && r.path.startsWith('/agent/');
const takesBody = (r: RouteSpec): boolean => r.method === 'post' || r.method === 'put';

interface Case {
  readonly route: RouteSpec;
  readonly label: string;
  readonly path: string;
  readonly body?: string;
  /** Content-Type of the body; null sends none. */
  readonly type?: string | null;
}

const deep = (n: number): string => '['.repeat(n) + ']'.repeat(n);
const over = (bytes: number): string => `{"name":"${'x'.repeat(bytes)}"}`;

// Bodies no route accepts, whatever it expects. `anyRoute`: refused before
// any handler runs, so also on a POST/PUT route that takes no body (which
// otherwise ignores a well-formed one).
const BODIES: ReadonlyArray<{ label: string; body: (r: RouteSpec) => string; type?: string | null; anyRoute?: true }> = [
  { label: 'malformed JSON', body: () => '{"name": ', anyRoute: true },
  { label: 'unterminated string', body: () => '{"name": "abc', anyRoute: true },
  { label: 'trailing garbage', body: () => '{"name":"a"} x', anyRoute: true },
  { label: 'JSON null', body: () => 'null' },
  { label: 'JSON number', body: () => '42' },
  { label: 'JSON string', body: () => '"name"' },
  { label: 'wrong types', body: () => JSON.stringify({ name: 42, facility: [], zones: 'x', type: 7, id: 'x', readers: 5, filter: 1, token: 9 }) },
  { label: 'name of 2,000 characters', body: () => JSON.stringify({ name: 'x'.repeat(2000), type: 'x'.repeat(2000), token: 'x'.repeat(2000) }) },
  { label: 'name of 100,000 characters', body: () => JSON.stringify({ name: 'x'.repeat(100_000), facility: 'x'.repeat(100_000) }) },
  { label: 'NUL in a name', body: () => '{"name":"a\\u0000b","facility":"a\\u0000b","readerName":"a\\u0000b"}', anyRoute: true },
  { label: 'lone surrogate', body: () => '{"name":"\\ud800","facility":"\\udc00x"}', anyRoute: true },
  { label: 'name ..', body: () => '{"name":"..","facility":"."}' },
  { label: 'nested 10,000 deep', body: () => deep(10_000), anyRoute: true },
  { label: 'nested 10,000 deep in fields', body: () => `{"name":"n","zones":${deep(10_000)},"readers":${deep(10_000)},"observations":${deep(10_000)}}`, anyRoute: true },
  { label: '__proto__ key', body: () => '{"__proto__":{"polluted":true},"name":"p"}', anyRoute: true },
  { label: 'constructor.prototype keys', body: () => '{"constructor":{"prototype":{"polluted":true}},"prototype":{"polluted":true}}' },
  { label: 'over the route limit', body: (r) => over(BODY_LIMITS[r.bodySize ?? 'config']), anyRoute: true },
  { label: 'text/plain', body: () => '{"name":"plain"}', type: 'text/plain', anyRoute: true },
  { label: 'no Content-Type', body: () => '{"name":"none"}', type: null, anyRoute: true },
  { label: 'form encoded', body: () => 'name=form', type: 'application/x-www-form-urlencoded', anyRoute: true },
];

// Path parameter values no route accepts (encoded as a client sends them).
const PARAMS: ReadonlyArray<{ label: string; value: string }> = [
  { label: '2,000 characters', value: 'x'.repeat(2000) },
  { label: '257 characters', value: 'x'.repeat(257) },
  { label: 'NUL', value: 'a%00b' },
  { label: 'line feed', value: 'a%0Ab' },
  { label: 'DEL', value: '%7F' },
  { label: '__proto__', value: '__proto__' },
  { label: 'constructor', value: 'constructor' },
];

// Query values no parameter accepts.
const QUERIES: ReadonlyArray<{ label: string; value: (name: string) => string }> = [
  { label: '5,000 characters', value: (n) => `${n}=${'x'.repeat(5000)}` },
  { label: 'NUL', value: (n) => `${n}=a%00b` },
  { label: 'control characters', value: (n) => `${n}=%01%02%1B` },
  { label: 'line feed', value: (n) => `${n}=a%0Ab` },
];

const fill = (path: string, values: Record<string, string> = {}): string =>
  path.replace(/:([A-Za-z0-9_]+)/g, (_m, name: string) => values[name] ?? (name === 'readerName' ? READER : `no-such-${name}`));

function buildCases(routes: readonly RouteSpec[]): Case[] {
  const cases: Case[] = [];
  for (const route of routes) {
    if (takesBody(route)) {
      for (const b of BODIES.filter((x) => route.body !== undefined || x.anyRoute)) cases.push({ route, label: `body: ${b.label}`, path: fill(route.path), body: b.body(route), type: b.type === undefined ? 'application/json' : b.type });
    }
    for (const [, name] of route.path.matchAll(/:([A-Za-z0-9_]+)/g)) {
      for (const p of PARAMS) cases.push({ route, label: `params.${name}: ${p.label}`, path: fill(route.path, { [name as string]: p.value }) });
    }
    for (const q of route.query ?? []) {
      for (const v of QUERIES) cases.push({ route, label: `query.${q.name}: ${v.label}`, path: `${fill(route.path)}?${v.value(q.name)}` });
    }
  }
  return cases;
}

// Every list a client can read without naming anything (the read models as
// clients see them), and the admin's tokens. Not the logs and the service's
// own info (uptime), not event streams (they do not end), not GET token,
// which issues one, and not the per-second rates (their window ends now).
const NOT_STATE = new Set(['/support/v1/logs', '/about/v1/info', '/authentication/v1/token', '/data/v1/items/show/rates', '/health/v1/events/rates']);
const snapshotPaths = (routes: readonly RouteSpec[]): string[] => [
  ...routes
    .filter((r) => r.method === 'get' && r.produces === undefined && !r.path.includes(':') && !(r.query ?? []).some((q) => q.required))
    .map((r) => r.path)
    .filter((p) => !NOT_STATE.has(p)),
  '/authentication/v1/listTokens/admin',
];

/** `stream: type` of every event after `head` (none when nothing was appended). */
async function appendedSince(connectionString: string, head: bigint): Promise<string[]> {
  const client = EventStoreDBClient.connectionString(connectionString);
  try {
    const out: string[] = [];
    for await (const e of client.readAll({ direction: FORWARDS, fromPosition: START })) {
      if (e.event && (e.event.position?.commit ?? 0n) > head) out.push(`${e.event.streamId}: ${e.event.type}`);
    }
    return out;
  } finally {
    await client.dispose();
  }
}

const CASES = buildCases(routeTableSpecs());

describe('hostile input on every route', function () {
  this.timeout(300_000);
  let app: TestApp;
  let agent: string;

  async function send(c: Case): Promise<{ status: number; body: unknown }> {
    const headers: Record<string, string> = { Authorization: isAgentRoute(c.route) ? agent : ADMIN };
    if (c.type) headers['Content-Type'] = c.type;
    const res = await fetch(`${app.baseUrl}${c.path}`, { method: c.route.method.toUpperCase(), headers, ...(c.body !== undefined ? { body: c.body } : {}) });
    const text = await res.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // kept as text: the assertion below reports it
    }
    return { status: res.status, body };
  }

  async function snapshot(): Promise<Record<string, unknown>> {
    const out: Record<string, unknown> = {};
    for (const path of snapshotPaths(routeTableSpecs())) {
      const res = await app.request('GET', path);
      // The export says when it was made; the rest must not change.
      const { exportedAt: _when, ...body } = (path === '/support/v1/configuration' ? res.body : { body: res.body }) as Record<string, unknown>;
      out[path] = { status: res.status, body };
    }
    return out;
  }

  before(async () => {
    app = await startTestApp();
    expect((await app.request('POST', '/configuration/v1/readerDefinitions/create', { body: { name: READER } })).status).to.equal(200);
    const issued = await app.request('PUT', `/agent/v1/readers/${READER}/secret`);
    expect(issued.status).to.equal(200);
    agent = agentAuthorization(READER, issued.body.secret as string);
  });
  after(async () => app?.stop());

  it(`${CASES.length} hostile requests across ${new Set(CASES.map((c) => `${c.route.method} ${c.route.path}`)).size} routes all answer 4xx with a JSON message and change nothing`, async () => {
    expect(CASES.length).to.be.greaterThan(1000);
    const headBefore = await logHead(app.eventStoreConnectionString);
    const before = await snapshot();
    expect(Object.keys(before).length).to.be.greaterThan(10);
    const wrong: string[] = [];
    for (const c of CASES) {
      const res = await send(c);
      const message = (res.body as { message?: unknown } | undefined)?.message;
      if (res.status < 400 || res.status >= 500 || typeof message !== 'string') {
        wrong.push(`${c.route.method.toUpperCase()} ${c.route.path} [${c.label}] -> ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
      }
    }
    expect(wrong, wrong.join('\n')).to.deep.equal([]);
    expect(await appendedSince(app.eventStoreConnectionString, headBefore), 'events appended').to.deep.equal([]);
    const after = await snapshot();
    for (const path of Object.keys(before)) expect(after[path], `GET ${path}`).to.deep.equal(before[path]);
    expect(({} as Record<string, unknown>)['polluted'], 'Object.prototype polluted').to.equal(undefined);
  });
});
