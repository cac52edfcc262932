import { expect } from 'chai';
import Router from '@koa/router';
import { createHttpApp, listen, type HttpListener } from '../../src/core/http/server';
import { createLogger } from '../../src/core/logger';
import { hashPassword, PasswordVerifier } from '../../src/auth/password';
import { authenticate, currentPrincipal, requireBasicAuth, requireRoles, WWW_AUTHENTICATE } from '../../src/auth/middleware';
import { MemoryPrincipalStore } from './memory-store';

const logger = createLogger('test');
const now = new Date('2024-05-06T07:08:09Z');
const ALICE_TOKEN = '11111111-2222-4333-8444-555555555555';
const REVOKED = '22222222-2222-4333-8444-555555555555';
const ORPHAN = '33333333-2222-4333-8444-555555555555';

const basic = (user: string, pw: string) => ({ Authorization: `Basic ${Buffer.from(`${user}:${pw}`).toString('base64')}` });
const token = (t: string) => ({ Authorization: `Token {"token":"${t}"}` });

describe('auth/middleware authenticate + requireRoles (over HTTP)', function () {
  this.timeout(20_000);
  const store = new MemoryPrincipalStore();
  let http: HttpListener;
  let base: string;

  before(async () => {
    store
      .addUser({ name: 'admin', roles: ['Admin'], passwordHash: await hashPassword('admindefault') })
      .addUser({ name: 'alice', roles: ['ConfigManager'], passwordHash: await hashPassword('pa:ss') })
      .addUser({ name: 'norole', roles: [], passwordHash: await hashPassword('pw') })
      .addToken(ALICE_TOKEN, { username: 'alice', issued: now, valid: true })
      .addToken(REVOKED, { username: 'alice', issued: now, valid: false })
      .addToken(ORPHAN, { username: 'ghost', issued: now, valid: true });

    const guarded = new Router();
    guarded.use(authenticate(store, { verifier: new PasswordVerifier(), clock: () => now, logger }));
    guarded.get('/config', requireRoles('ConfigManager'), (ctx) => (ctx.body = { ok: true }));
    guarded.get('/jobs', requireRoles('JobRunner'), (ctx) => (ctx.body = { ok: true }));
    guarded.get('/users', requireRoles('Admin'), (ctx) => (ctx.body = { ok: true }));
    guarded.get('/me', requireRoles(), (ctx) => (ctx.body = currentPrincipal(ctx)));
    guarded.get('/token', requireRoles('ConfigManager', 'JobRunner'), requireBasicAuth(), (ctx) => (ctx.body = { ok: true }));
    guarded.get('/open', (ctx) => (ctx.body = { principal: ctx.state['principal'] ?? null }));

    // A second router with its own authenticate: credentials are still checked once per request.
    const second = new Router();
    second.use(authenticate(store, { clock: () => now }));
    second.get('/second', requireRoles('ConfigManager'), (ctx) => (ctx.body = { ok: true }));

    const app = createHttpApp({ logger, rootPath: '/itemsense', routers: [guarded, second], health: async () => ({ status: 'ok' }) });
    http = await listen(app, '127.0.0.1', 0, logger);
    base = `http://127.0.0.1:${http.port}/itemsense`;
  });

  after(() => http.close(1000));

  const get = (path: string, headers: Record<string, string> = {}) => fetch(`${base}${path}`, { headers });

  async function expect401(res: Response): Promise<string> {
    expect(res.status).to.equal(401);
    expect(res.headers.get('www-authenticate')).to.equal(WWW_AUTHENTICATE);
    expect(res.headers.get('content-type')).to.match(/application\/json/);
    const body = (await res.json()) as { message: string };
    expect(body.message).to.be.a('string').and.not.equal('');
    return body.message;
  }

  it('401 with WWW-Authenticate without an Authorization header', async () => {
    expect(await expect401(await get('/config'))).to.equal('Authentication required');
  });

  it('401 for a bad password, an unknown user, a malformed header or another scheme', async () => {
    const bad = await expect401(await get('/config', basic('alice', 'wrong')));
    const unknown = await expect401(await get('/config', basic('nobody', 'pa:ss')));
    // Same answer whether the user exists or not.
    expect(bad).to.equal(unknown);
    expect(bad).to.not.include('pa:ss');
    await expect401(await get('/config', { Authorization: 'Token {not json' }));
    await expect401(await get('/config', { Authorization: 'Bearer abc' }));
  });

  it('401 for an unknown token, a revoked token, and a token whose user is gone', async () => {
    await expect401(await get('/config', token('44444444-2222-4333-8444-555555555555')));
    await expect401(await get('/config', token(REVOKED)));
    await expect401(await get('/config', token(ORPHAN)));
  });

  it('200 with the right password (which may contain a colon)', async () => {
    const res = await get('/config', basic('alice', 'pa:ss'));
    expect(res.status).to.equal(200);
    expect(await res.json()).to.deep.equal({ ok: true });
  });

  it('403 JSON when authenticated but lacking the role', async () => {
    const res = await get('/jobs', basic('alice', 'pa:ss'));
    expect(res.status).to.equal(403);
    expect(res.headers.get('www-authenticate')).to.equal(null);
    const body = (await res.json()) as { message: string };
    expect(body.message).to.include('alice').and.include('JobRunner');
    expect((await get('/users', basic('alice', 'pa:ss'))).status).to.equal(403);
    expect((await get('/config', basic('norole', 'pw'))).status).to.equal(403);
  });

  it('Admin passes every guard', async () => {
    for (const path of ['/config', '/jobs', '/users', '/me', '/token']) {
      expect((await get(path, basic('admin', 'admindefault'))).status, path).to.equal(200);
    }
  });

  it('an empty role list admits any authenticated user, even one without roles', async () => {
    const res = await get('/me', basic('norole', 'pw'));
    expect(res.status).to.equal(200);
    expect(await res.json()).to.deep.equal({ name: 'norole', roles: [], scheme: 'basic' });
    await expect401(await get('/me'));
  });

  it('token auth works and records the use through touchToken', async () => {
    store.touches.length = 0;
    const res = await get('/me', token(ALICE_TOKEN.toUpperCase()));
    expect(res.status).to.equal(200);
    expect(await res.json()).to.deep.equal({ name: 'alice', roles: ['ConfigManager'], scheme: 'token' });
    expect((await get('/config', { Authorization: `Token   { "token" : "${ALICE_TOKEN}" }` })).status).to.equal(200);
    expect(store.touches).to.deep.equal([
      { token: ALICE_TOKEN, at: now },
      { token: ALICE_TOKEN, at: now },
    ]);
  });

  it('a failing touchToken does not fail the request', async () => {
    store.failTouch = true;
    try {
      expect((await get('/config', token(ALICE_TOKEN))).status).to.equal(200);
    } finally {
      store.failTouch = false;
    }
  });

  it('does not record the use of a revoked token', async () => {
    store.touches.length = 0;
    await get('/config', token(REVOKED));
    expect(store.touches).to.deep.equal([]);
  });

  it('requireBasicAuth refuses token credentials with a 401 challenge', async () => {
    expect(await expect401(await get('/token', token(ALICE_TOKEN)))).to.include('basic credentials');
    expect((await get('/token', basic('alice', 'pa:ss'))).status).to.equal(200);
  });

  it('routes without a guard still run, with no principal', async () => {
    const res = await get('/open', basic('alice', 'wrong'));
    expect(res.status).to.equal(200);
    expect(await res.json()).to.deep.equal({ principal: null });
  });

  it('authenticates once per request even when mounted on two routers', async () => {
    store.touches.length = 0;
    expect((await get('/second', token(ALICE_TOKEN))).status).to.equal(200);
    expect(store.touches).to.have.length(1);
  });

  it('fails closed (500) when a guard runs without authenticate mounted', async () => {
    const unwired = new Router();
    unwired.get('/unwired', requireRoles('Admin'), (ctx) => (ctx.body = { ok: true }));
    const app = createHttpApp({ logger, rootPath: '', routers: [unwired], health: async () => ({ status: 'ok' }) });
    const other = await listen(app, '127.0.0.1', 0, logger);
    try {
      const res = await fetch(`http://127.0.0.1:${other.port}/unwired`, { headers: basic('admin', 'admindefault') });
      expect(res.status).to.equal(500);
    } finally {
      await other.close(1000);
    }
  });
});
