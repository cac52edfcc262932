// Authentication tokens over HTTP: issuing (for oneself with Basic only, for
// others as Admin), the Token header, listing with lastUsed, revoking one or
// all, and validateToken in both its forms.
import { expect } from 'chai';
import { startTestApp, basic, type TestApp, type TestResponse } from '../support/app';
import { tokenIdOf } from '../../src/auth/token-id';

const AUTH = '/authentication/v1';
const ME = '/configuration/v1/users/currentUser';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const UNKNOWN = '0b6f8a9e-3c1d-4e2f-9a7b-123456789abc';
const tokenAuth = (token: string): string => `Token {"token":"${token}"}`;

interface Listed {
  authenticationToken: { token: string };
  issued: string;
  lastUsed: string | null;
  username: string;
  valid: boolean;
}

describe('authentication tokens over HTTP', function () {
  this.timeout(60_000);
  let app: TestApp;
  const bodies: string[] = [];
  const call = async (method: string, path: string, opts?: Parameters<TestApp['request']>[2]): Promise<TestResponse> => {
    const res = await app.request(method, path, opts);
    bodies.push(typeof res.body === 'string' ? res.body : (JSON.stringify(res.body) ?? ''));
    return res;
  };
  const CM = basic('cm', 'cm-passphrase');
  const READER = basic('reader', 'reader-passphrase');
  const RUNNER = basic('runner', 'runner-passphrase');

  before(async () => {
    app = await startTestApp();
    for (const [name, roles] of [['cm', ['ConfigManager']], ['reader', ['DataReader']], ['runner', ['JobRunner']]] as const) {
      const res = await app.request('POST', '/configuration/v1/users/create', { body: { name, password: `${name}-passphrase`, roles } });
      expect(res.status, name).to.equal(200);
    }
  });
  after(async () => {
    try {
      expect(bodies.length).to.be.greaterThan(20);
      expect(bodies.filter((b) => /argon2|passwordHash/i.test(b)), 'responses carrying a password hash').to.deep.equal([]);
    } finally {
      await app?.stop();
    }
  });

  describe('issuing', () => {
    it('GET /token issues a token for the caller (Basic credentials), which then authenticates with the Token header', async () => {
      const res = await call('GET', `${AUTH}/token`, { auth: CM });
      expect(res.status).to.equal(200);
      expect(Object.keys(res.body)).to.deep.equal(['token']);
      expect(res.body.token).to.match(UUID);
      const me = await call('GET', ME, { auth: tokenAuth(res.body.token) });
      expect(me.status).to.equal(200);
      expect(me.body).to.deep.equal({ name: 'cm', roles: ['ConfigManager'] });
      // Scheme case, spacing and upper-case UUIDs are the same token.
      const loose = await call('GET', ME, { auth: `token   {"token": "${String(res.body.token).toUpperCase()}"}` });
      expect(loose.status).to.equal(200);
    });

    it('GET /token: JobRunner and Admin may, DataReader may not (403)', async () => {
      expect((await call('GET', `${AUTH}/token`, { auth: RUNNER })).status).to.equal(200);
      expect((await call('GET', `${AUTH}/token`)).status).to.equal(200);
      expect((await call('GET', `${AUTH}/token`, { auth: READER })).status).to.equal(403);
    });

    it('GET /token refuses Token credentials (401 with a Basic challenge): a token cannot mint tokens', async () => {
      const token = (await call('GET', `${AUTH}/token`, { auth: CM })).body.token as string;
      const res = await call('GET', `${AUTH}/token`, { auth: tokenAuth(token) });
      expect(res.status).to.equal(401);
      expect(res.headers.get('www-authenticate')).to.match(/^Basic/);
      const adminToken = (await call('GET', `${AUTH}/token`)).body.token as string;
      expect((await call('GET', `${AUTH}/token`, { auth: tokenAuth(adminToken) })).status).to.equal(401);
      expect((await call('GET', `${AUTH}/token`, { auth: null })).status).to.equal(401);
    });

    it('PUT /token/{username} issues a token for another user (Admin only); 404 for an unknown user', async () => {
      const res = await call('PUT', `${AUTH}/token/reader`);
      expect(res.status).to.equal(200);
      expect(res.body.token).to.match(UUID);
      const me = await call('GET', ME, { auth: tokenAuth(res.body.token) });
      expect(me.body).to.deep.equal({ name: 'reader', roles: ['DataReader'] });
      expect((await call('PUT', `${AUTH}/token/reader`, { auth: CM })).status).to.equal(403);
      expect((await call('PUT', `${AUTH}/token/cm`, { auth: CM })).status).to.equal(403);
      const unknown = await call('PUT', `${AUTH}/token/nobody`);
      expect(unknown.status).to.equal(404);
      expect(unknown.body.message).to.match(/nobody/);
    });

    it('an Admin token works on Admin routes, but an unknown or malformed token is 401', async () => {
      const adminToken = (await call('PUT', `${AUTH}/token/admin`)).body.token as string;
      expect((await call('GET', '/configuration/v1/users/show', { auth: tokenAuth(adminToken) })).status).to.equal(200);
      expect((await call('GET', ME, { auth: tokenAuth(UNKNOWN) })).status).to.equal(401);
      expect((await call('GET', ME, { auth: 'Token {"token":"not-a-uuid"}' })).status).to.equal(401);
      expect((await call('GET', ME, { auth: `Token ${adminToken}` })).status).to.equal(401);
    });
  });

  describe('listing', () => {
    it('listTokens shows every token of the user, oldest first, lastUsed null until used and set after', async () => {
      await call('PUT', '/configuration/v1/users/createOrReplace', { body: { name: 'lister', password: 'lister-passphrase', roles: ['JobRunner'] } });
      const first = (await call('PUT', `${AUTH}/token/lister`)).body.token as string;
      const second = (await call('PUT', `${AUTH}/token/lister`)).body.token as string;
      const before = await call('GET', `${AUTH}/listTokens/lister`);
      expect(before.status).to.equal(200);
      const entries = before.body as Listed[];
      // Listed under their ids: the tokens themselves are not stored.
      expect(entries.map((e) => e.authenticationToken.token)).to.deep.equal([tokenIdOf(first), tokenIdOf(second)]);
      for (const e of entries) {
        expect(Object.keys(e).sort()).to.deep.equal(['authenticationToken', 'issued', 'lastUsed', 'username', 'valid']);
        expect(e.username).to.equal('lister');
        expect(e.valid).to.equal(true);
        expect(e.lastUsed).to.equal(null);
        expect(new Date(e.issued).toISOString()).to.equal(e.issued);
        expect(Date.now() - Date.parse(e.issued)).to.be.within(0, 60_000);
      }
      const t0 = Date.now();
      expect((await call('GET', ME, { auth: tokenAuth(second) })).status).to.equal(200);
      const after = (await call('GET', `${AUTH}/listTokens/lister`)).body as Listed[];
      expect(after[0]?.lastUsed).to.equal(null);
      expect(after[1]?.lastUsed).to.be.a('string');
      expect(Date.parse(String(after[1]?.lastUsed))).to.be.within(t0 - 1000, Date.now() + 1000);
    });

    it('listTokens is Admin only, and 404 for a name that never had a user nor tokens', async () => {
      expect((await call('GET', `${AUTH}/listTokens/cm`, { auth: CM })).status).to.equal(403);
      expect((await call('GET', `${AUTH}/listTokens/nobody`)).status).to.equal(404);
      const none = await call('GET', `${AUTH}/listTokens/runner2`);
      expect(none.status).to.equal(404);
    });

    it('a user without tokens has an empty listing', async () => {
      await call('POST', '/configuration/v1/users/create', { body: { name: 'tokenless', password: 'tokenless-passphrase', roles: [] } });
      const res = await call('GET', `${AUTH}/listTokens/tokenless`);
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal([]);
    });
  });

  describe('revoking', () => {
    it('revokeToken makes that token 401 at once, leaves the others, and lists it valid=false; again is fine', async () => {
      const a = (await call('PUT', `${AUTH}/token/runner`)).body.token as string;
      const b = (await call('PUT', `${AUTH}/token/runner`)).body.token as string;
      expect((await call('GET', ME, { auth: tokenAuth(a) })).status).to.equal(200);
      const res = await call('PUT', `${AUTH}/revokeToken`, { body: { token: a } });
      expect(res.status).to.equal(204);
      expect(res.body).to.equal(undefined);
      const refused = await call('GET', ME, { auth: tokenAuth(a) });
      expect(refused.status).to.equal(401);
      expect(refused.headers.get('www-authenticate')).to.match(/^Basic/);
      expect((await call('GET', ME, { auth: tokenAuth(b) })).status).to.equal(200);
      const listed = (await call('GET', `${AUTH}/listTokens/runner`)).body as Listed[];
      expect(listed.find((e) => e.authenticationToken.token === tokenIdOf(a))?.valid).to.equal(false);
      expect(listed.find((e) => e.authenticationToken.token === tokenIdOf(b))?.valid).to.equal(true);
      expect((await call('PUT', `${AUTH}/revokeToken`, { body: { token: a.toUpperCase() } })).status).to.equal(204);
    });

    it('revokeToken: 404 for an unknown token, 400 without a UUID token, 403 for non-Admins', async () => {
      const unknown = await call('PUT', `${AUTH}/revokeToken`, { body: { token: UNKNOWN } });
      expect(unknown.status).to.equal(404);
      const missing = await call('PUT', `${AUTH}/revokeToken`, { body: {} });
      expect(missing.status).to.equal(400);
      expect(missing.body.errors[0].path).to.equal('body.token');
      const notUuid = await call('PUT', `${AUTH}/revokeToken`, { body: { token: 'abc' } });
      expect(notUuid.status).to.equal(400);
      expect(notUuid.body.errors[0].path).to.equal('body.token');
      expect((await call('PUT', `${AUTH}/revokeToken`, { auth: CM, body: { token: UNKNOWN } })).status).to.equal(403);
    });

    it('revokeTokens/{username} makes every token of the user 401, and tokens issued later work', async () => {
      const tokens = [(await call('PUT', `${AUTH}/token/cm`)).body.token as string, (await call('GET', `${AUTH}/token`, { auth: CM })).body.token as string];
      for (const t of tokens) expect((await call('GET', ME, { auth: tokenAuth(t) })).status).to.equal(200);
      const res = await call('PUT', `${AUTH}/revokeTokens/cm`);
      expect(res.status).to.equal(204);
      for (const t of tokens) expect((await call('GET', ME, { auth: tokenAuth(t) })).status).to.equal(401);
      const listed = (await call('GET', `${AUTH}/listTokens/cm`)).body as Listed[];
      expect(listed.length).to.be.greaterThan(2);
      expect(listed.every((e) => !e.valid)).to.equal(true);
      const later = (await call('GET', `${AUTH}/token`, { auth: CM })).body.token as string;
      expect((await call('GET', ME, { auth: tokenAuth(later) })).status).to.equal(200);
      // Another user's tokens are untouched.
      const readerToken = (await call('PUT', `${AUTH}/token/reader`)).body.token as string;
      expect((await call('PUT', `${AUTH}/revokeTokens/cm`)).status).to.equal(204);
      expect((await call('GET', ME, { auth: tokenAuth(readerToken) })).status).to.equal(200);
    });

    it('revokeTokens: 404 for an unknown user, 403 for non-Admins', async () => {
      expect((await call('PUT', `${AUTH}/revokeTokens/nobody`)).status).to.equal(404);
      expect((await call('PUT', `${AUTH}/revokeTokens/cm`, { auth: CM })).status).to.equal(403);
    });
  });

  describe('validateToken', () => {
    let token: string;
    before(async () => {
      token = (await call('PUT', `${AUTH}/token/runner`)).body.token as string;
    });

    it('body form: 200 with the user for a valid token', async () => {
      const res = await call('POST', `${AUTH}/validateToken`, { body: { token } });
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal({ name: 'runner', roles: ['JobRunner'] });
    });

    it('path form: 200 with the user for a valid token', async () => {
      const res = await call('POST', `${AUTH}/validateToken/${token}`);
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal({ name: 'runner', roles: ['JobRunner'] });
    });

    it('401 with WWW-Authenticate for an unknown, malformed or revoked token, in both forms', async () => {
      const revoked = (await call('PUT', `${AUTH}/token/runner`)).body.token as string;
      await call('PUT', `${AUTH}/revokeToken`, { body: { token: revoked } });
      for (const bad of [UNKNOWN, 'not-a-token', revoked]) {
        const byBody = await call('POST', `${AUTH}/validateToken`, { body: { token: bad } });
        expect(byBody.status, `body ${bad}`).to.equal(401);
        expect(byBody.headers.get('www-authenticate'), `body ${bad}`).to.be.a('string');
        const byPath = await call('POST', `${AUTH}/validateToken/${bad}`);
        expect(byPath.status, `path ${bad}`).to.equal(401);
        expect(byPath.headers.get('www-authenticate'), `path ${bad}`).to.be.a('string');
      }
    });

    it('422 when no token is given (no body, empty body, blank token), 400 for a token that is not a string', async () => {
      for (const opts of [{}, { body: {} }, { body: { token: '' } }, { body: { token: null } }]) {
        const res = await call('POST', `${AUTH}/validateToken`, opts);
        expect(res.status, JSON.stringify(opts)).to.equal(422);
        expect(res.body.errors[0].path).to.equal('body.token');
      }
      expect((await call('POST', `${AUTH}/validateToken`, { body: { token: 42 } })).status).to.equal(400);
    });

    it('is Admin only, and validating is not using: lastUsed does not move', async () => {
      expect((await call('POST', `${AUTH}/validateToken`, { auth: RUNNER, body: { token } })).status).to.equal(403);
      expect((await call('POST', `${AUTH}/validateToken/${token}`, { auth: null })).status).to.equal(401);
      await call('POST', `${AUTH}/validateToken`, { body: { token } });
      const listed = (await call('GET', `${AUTH}/listTokens/runner`)).body as Listed[];
      expect(listed.find((e) => e.authenticationToken.token === tokenIdOf(token))?.lastUsed).to.equal(null);
    });

    it('a token of a deleted user is invalid', async () => {
      await call('POST', '/configuration/v1/users/create', { body: { name: 'temp', password: 'temp-passphrase', roles: ['JobRunner'] } });
      const t = (await call('GET', `${AUTH}/token`, { auth: basic('temp', 'temp-passphrase') })).body.token as string;
      expect((await call('POST', `${AUTH}/validateToken`, { body: { token: t } })).status).to.equal(200);
      expect((await call('DELETE', '/configuration/v1/users/destroy/temp')).status).to.equal(204);
      expect((await call('POST', `${AUTH}/validateToken`, { body: { token: t } })).status).to.equal(401);
      expect((await call('POST', `${AUTH}/validateToken/${t}`)).status).to.equal(401);
    });
  });
});
