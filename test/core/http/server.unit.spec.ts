import { expect } from 'chai';
import * as t from 'io-ts';
import Router from '@koa/router';
import { createHttpApp, listen, type HttpListener } from '../../../src/core/http/server';
import { conflict, notFound, preconditionFailed, unprocessable } from '../../../src/core/http/errors';
import { decodeInput } from '../../../src/core/http/decode';
import { createLogger } from '../../../src/core/logger';
import { RouteTable } from '../../../src/core/http/routes';
import { BODY_LIMITS, MAX_JSON_DEPTH } from '../../../src/core/http/body';
import { UnavailableError, UnknownError } from '@eventstore/db-client';
import { Metadata, status } from '@grpc/grpc-js';
import { ClientOfflineError } from 'redis';
import { redisDown } from '../../../src/core/redis/readiness';
import { sleep } from '../../support/wait';

const logger = createLogger('test');

const Recipe = t.type({
  name: t.string,
  computeWindow: t.number,
  mode: t.union([t.literal('INVENTORY'), t.literal('LOCATION')]),
});

// Bodies are read by RouteTable routes only (after their guard).
function table(): Router {
  const tbl = new RouteTable(() => async (_ctx, next) => next());
  const spec = { method: 'post', roles: 'public', summary: 'test', tag: 'test', responses: {} } as const;
  tbl.add({ ...spec, operationId: 'createRecipe', path: '/recipes' }, (ctx) => {
    const recipe = decodeInput(Recipe, ctx.request.body, 'body');
    ctx.status = 201;
    ctx.body = recipe;
  });
  tbl.add({ ...spec, operationId: 'echo', path: '/echo/:name' }, (ctx) => {
    ctx.body = { name: ctx.params['name'], body: ctx.request.body ?? null };
  });
  return tbl.router;
}

function routes(): Router {
  const r = new Router();
  r.get('/recipes/:name', (ctx) => {
    throw notFound(`Recipe ${ctx.params['name'] ?? ''} not found`);
  });
  r.get('/conflict', () => {
    throw conflict('Reader in use by JobId=42', [{ path: 'body.readers', reason: 'in use' }]);
  });
  r.get('/precondition', () => {
    throw preconditionFailed('revision moved');
  });
  r.get('/unprocessable', () => {
    throw unprocessable('zones overlap');
  });
  r.get('/boom', () => {
    throw new Error('secret internal detail');
  });
  r.get('/teapot', (ctx) => ctx.throw(418, 'short and stout'));
  r.get('/redis-gone', () => {
    throw new ClientOfflineError();
  });
  r.get('/store-gone', () => {
    throw new UnavailableError(undefined, 'connect ECONNREFUSED');
  });
  // What the client makes of a call the store ended with this status (an unknown error that keeps the code).
  const storeAnswered = (code: status, details: string) => new UnknownError(Object.assign(new Error(`${code} ${details}`), { code, details, metadata: new Metadata() }));
  r.get('/store-full', () => {
    throw storeAnswered(status.RESOURCE_EXHAUSTED, "No space left on the event store's disk; nothing was written");
  });
  r.get('/store-failed', () => {
    throw storeAnswered(status.INTERNAL, 'Input/output error');
  });
  return r;
}

describe('http server', () => {
  let healthy = true;
  let refusing = false;
  let http: HttpListener;
  let base: string;

  before(async () => {
    const app = createHttpApp({
      logger,
      rootPath: '/itemsense',
      routers: [routes(), table()],
      health: () => Promise.resolve(healthy ? { status: 'ok' } : { status: 'down' }),
      refuse: () => (refusing ? redisDown() : undefined),
    });
    http = await listen(app, '127.0.0.1', 0, logger);
    base = `http://127.0.0.1:${http.port}`;
  });

  after(() => http.close(1000));

  it('answers /healthz with 200 when healthy and 503 otherwise, outside the root path', async () => {
    healthy = true;
    const ok = await fetch(`${base}/healthz`);
    expect(ok.status).to.equal(200);
    expect(await ok.json()).to.deep.equal({ status: 'ok' });
    healthy = false;
    const down = await fetch(`${base}/healthz`);
    expect(down.status).to.equal(503);
    healthy = true;
    expect((await fetch(`${base}/itemsense/healthz`)).status).to.equal(404);
  });

  it('mounts resources under the root path', async () => {
    const res = await fetch(`${base}/itemsense/recipes`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'r1', computeWindow: 20, mode: 'INVENTORY' }),
    });
    expect(res.status).to.equal(201);
    expect((await fetch(`${base}/recipes/x`)).status).to.equal(404);
  });

  it('turns decode failures into 400 with field errors', async () => {
    const res = await fetch(`${base}/itemsense/recipes`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 7, mode: 'SOMETIMES' }),
    });
    expect(res.status).to.equal(400);
    const body = (await res.json()) as { message: string; errors: Array<{ path: string; reason: string }> };
    expect(body.message).to.equal('Invalid request body');
    expect(body.errors).to.deep.equal([
      { path: 'body.name', reason: 'expected string, got 7', message: 'expected string, got 7' },
      { path: 'body.computeWindow', reason: 'is required (number)', message: 'is required (number)' },
      { path: 'body.mode', reason: 'expected "INVENTORY", got "SOMETIMES"', message: 'expected "INVENTORY", got "SOMETIMES"' },
    ]);
  });

  it('answers malformed JSON with a JSON 400', async () => {
    const res = await fetch(`${base}/itemsense/recipes`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"name":',
    });
    expect(res.status).to.equal(400);
    const body = (await res.json()) as { message: string; errors: unknown[] };
    expect(body.message).to.be.a('string');
    expect(body.errors).to.deep.equal([]);
  });

  const post = (path: string, body: string | Uint8Array, type: string | null = 'application/json') =>
    fetch(`${base}/itemsense${path}`, { method: 'POST', headers: type === null ? {} : { 'content-type': type }, body });

  it('answers a body that is not declared JSON with 415 naming the type, with a hint for curl -d', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', null]) {
      const res = await post('/echo/x', '{"name":"x"}', type);
      expect(res.status, String(type)).to.equal(415);
      const body = (await res.json()) as { message: string };
      expect(body.message).to.contain('Content-Type: application/json');
      expect(body.message).to.contain("-H 'Content-Type: application/json'");
    }
    // no body at all is not a media-type question
    const none = await fetch(`${base}/itemsense/echo/x`, { method: 'POST' });
    expect(none.status).to.equal(200);
    expect(await none.json()).to.deep.equal({ name: 'x', body: null });
    const suffixed = await post('/echo/x', '{"a":1}', 'application/merge-patch+json; charset=utf-8');
    expect(suffixed.status).to.equal(200);
  });

  it('answers a body over the route limit with 413 and a JSON message', async () => {
    const big = `{"a":"${'x'.repeat(BODY_LIMITS.config)}"}`;
    const res = await post('/echo/x', big);
    expect(res.status).to.equal(413);
    expect(((await res.json()) as { message: string }).message).to.contain('512 KiB');
  });

  it(`refuses nesting deeper than ${MAX_JSON_DEPTH}, __proto__ keys, control characters and lone surrogates with 400`, async () => {
    const deep = '['.repeat(10_000) + ']'.repeat(10_000);
    const cases: Array<[string, RegExp]> = [
      [deep, /nested deeper than 64/],
      [`{"a":${'{"b":'.repeat(MAX_JSON_DEPTH)}1${'}'.repeat(MAX_JSON_DEPTH)}}`, /nested deeper/],
      ['{"__proto__":{"admin":true}}', /is not an accepted key/],
      ['{"name":"a\\u0000b"}', /control characters \(U\+0000 at 1\)/],
      ['{"name":"a\\ud800"}', /lone surrogate/],
      ['{"a\\u0001":1}', /key that must not contain control/],
    ];
    for (const [body, reason] of cases) {
      const res = await post('/echo/x', body);
      expect(res.status, body.slice(0, 40)).to.equal(400);
      const answer = (await res.json()) as { message: string; errors: Array<{ reason: string }> };
      expect(answer.errors[0]?.reason ?? answer.message, body.slice(0, 40)).to.match(reason);
    }
    const fine = await post('/echo/x', `{"a":${'['.repeat(MAX_JSON_DEPTH - 1)}${']'.repeat(MAX_JSON_DEPTH - 1)},"t":"tab\\tand\\nline"}`);
    expect(fine.status, JSON.stringify(await fine.clone().json())).to.equal(200);
  });

  it('refuses path parameters that are not names with 400 naming the parameter', async () => {
    // ('..' cannot be sent by a URL-parsing client at all: it is normalised away.)
    for (const name of ['x'.repeat(257), 'a%00b', 'a%0Ab', 'a%7F']) {
      const res = await post(`/echo/${name}`, '{}');
      expect(res.status, name.slice(0, 20)).to.equal(400);
      const answer = (await res.json()) as { errors: Array<{ path: string }> };
      expect(answer.errors[0]?.path).to.equal('params.name');
    }
    expect((await post(`/echo/${'x'.repeat(256)}`, '{}')).status).to.equal(200);
  });

  const statuses: Array<[string, number, string]> = [
    ['/itemsense/recipes/r9', 404, 'Recipe r9 not found'],
    ['/itemsense/conflict', 409, 'Reader in use by JobId=42'],
    ['/itemsense/precondition', 412, 'revision moved'],
    ['/itemsense/unprocessable', 422, 'zones overlap'],
    ['/itemsense/teapot', 418, 'short and stout'],
    ['/itemsense/nowhere', 404, 'Not found: GET /itemsense/nowhere'],
  ];
  for (const [path, status, message] of statuses) {
    it(`answers ${path} with ${status} and a JSON message`, async () => {
      const res = await fetch(`${base}${path}`);
      expect(res.status).to.equal(status);
      expect(res.headers.get('content-type')).to.match(/^application\/json/);
      const body = (await res.json()) as { message: string; errors: unknown[] };
      expect(body.message).to.equal(message);
      expect(body.errors).to.be.an('array');
    });
  }

  it('keeps field errors of domain errors', async () => {
    const body = (await (await fetch(`${base}/itemsense/conflict`)).json()) as { errors: unknown[] };
    expect(body.errors).to.deep.equal([{ path: 'body.readers', reason: 'in use', message: 'in use' }]);
  });

  it('hides unexpected errors behind a 500', async () => {
    const res = await fetch(`${base}/itemsense/boom`);
    expect(res.status).to.equal(500);
    expect(await res.json()).to.deep.equal({ message: 'Internal server error', errors: [] });
  });

  it('answers a lost Redis or event store connection with 503, Retry-After and a message, not a 500', async () => {
    for (const [path, said] of [['/itemsense/redis-gone', /Redis/], ['/itemsense/store-gone', /event store/]] as const) {
      const res = await fetch(`${base}${path}`);
      expect(res.status, path).to.equal(503);
      expect(res.headers.get('retry-after'), path).to.match(/^[1-9]\d*$/);
      expect(((await res.json()) as { message: string }).message, path).to.match(said);
    }
  });

  it('answers a write the event store has no disk space for with 503, Retry-After and the reason; another store failure stays a 500', async () => {
    const res = await fetch(`${base}/itemsense/store-full`);
    expect(res.status).to.equal(503);
    expect(res.headers.get('retry-after')).to.equal('30');
    expect(await res.json()).to.deep.equal({
      message: 'The event store has no space left on its disk: nothing was written; retry once space is freed',
      errors: [{ path: 'eventStore', reason: 'no space left on its disk', message: 'no space left on its disk' }],
    });
    expect((await fetch(`${base}/itemsense/store-failed`)).status).to.equal(500);
  });

  it('refuses every request under the root path at once while `refuse` says so (Redis down), not /healthz', async () => {
    refusing = true;
    try {
      const res = await fetch(`${base}/itemsense/recipes`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":"r"}' });
      expect(res.status).to.equal(503);
      expect(res.headers.get('retry-after')).to.equal('1');
      expect(await res.json()).to.deep.equal({ message: 'Redis is not reachable; retry shortly', errors: [] });
      expect((await fetch(`${base}/healthz`)).status).to.equal(200);
    } finally {
      refusing = false;
    }
    expect((await fetch(`${base}/itemsense/teapot`)).status).to.equal(418);
  });

  it('answers a wrong method with 405 and a JSON body', async () => {
    const res = await fetch(`${base}/itemsense/recipes`, { method: 'DELETE' });
    expect(res.status).to.equal(405);
    expect(((await res.json()) as { message: string }).message).to.equal('Method Not Allowed');
  });

  it('returns a request id, reusing a well-formed incoming one', async () => {
    const mine = await fetch(`${base}/healthz`, { headers: { 'x-request-id': 'abc-123' } });
    expect(mine.headers.get('x-request-id')).to.equal('abc-123');
    const fresh = await fetch(`${base}/healthz`);
    expect(fresh.headers.get('x-request-id')).to.match(/^[0-9a-f-]{36}$/);
  });
});

describe('http listener close', () => {
  it('finishes an in-flight request, then stops accepting', async () => {
    let release: () => void = () => undefined;
    const r = new Router();
    r.get('/slow', async (ctx) => {
      await new Promise<void>((resolve) => (release = resolve));
      ctx.body = { done: true };
    });
    const app = createHttpApp({ logger, rootPath: '', routers: [r], health: () => Promise.resolve({ status: 'ok' }) });
    const http = await listen(app, '127.0.0.1', 0, logger);
    const url = `http://127.0.0.1:${http.port}`;
    const inFlight = fetch(`${url}/slow`);
    await sleep(50);
    const closed = http.close(5000);
    await sleep(50);
    release();
    const res = await inFlight;
    expect(res.status).to.equal(200);
    expect(await res.json()).to.deep.equal({ done: true });
    await closed;
    let refused = false;
    await fetch(`${url}/healthz`).catch(() => (refused = true));
    expect(refused).to.equal(true);
  });

  it('cuts a stuck request after the grace period', async () => {
    const r = new Router();
    r.get('/stuck', () => new Promise<void>(() => undefined));
    const app = createHttpApp({ logger, rootPath: '', routers: [r], health: () => Promise.resolve({ status: 'ok' }) });
    const http = await listen(app, '127.0.0.1', 0, logger);
    const stuck = fetch(`http://127.0.0.1:${http.port}/stuck`).then(
      () => 'answered',
      () => 'cut',
    );
    await sleep(50);
    const started = Date.now();
    await http.close(200);
    expect(Date.now() - started).to.be.lessThan(2000);
    expect(await stuck).to.equal('cut');
  });
});
