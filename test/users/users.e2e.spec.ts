// Users over HTTP: round trips, the rules of the domain as status codes,
// authentication following every change at once (read-your-writes), and no
// password hash in any response.
import { expect } from 'chai';
import { startTestApp, basic, type TestApp, type TestResponse } from '../support/app';
import { tokenIdOf } from '../../src/auth/token-id';

const USERS = '/configuration/v1/users';
const tokenAuth = (token: string): string => `Token {"token":"${token}"}`;

describe('users over HTTP', function () {
  this.timeout(60_000);
  let app: TestApp;
  const bodies: string[] = [];
  /** app.request, remembering every response body for the hash check at the end. */
  const call = async (
    method: string,
    path: string,
    opts?: Parameters<TestApp['request']>[2],
  ): Promise<TestResponse> => {
    const res = await app.request(method, path, opts);
    bodies.push(typeof res.body === 'string' ? res.body : (JSON.stringify(res.body) ?? ''));
    return res;
  };

  before(async () => {
    app = await startTestApp();
  });
  after(async () => {
    try {
      expect(bodies.length).to.be.greaterThan(20);
      expect(bodies.filter((b) => /argon2|passwordHash/i.test(b)), 'responses carrying a password hash').to.deep.equal([]);
    } finally {
      await app?.stop();
    }
  });

  describe('the first-start admin', () => {
    it('is the only user, an Admin holding every role', async () => {
      const res = await call('GET', `${USERS}/show`);
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal([{ name: 'admin', roles: ['Admin', 'ConfigManager', 'DataReader', 'JobRunner'] }]);
    });

    it('cannot be deleted nor demoted while it is the last Admin (409), and nothing changes', async () => {
      const del = await call('DELETE', `${USERS}/destroy/admin`);
      expect(del.status).to.equal(409);
      expect(del.body.message).to.match(/last Admin/);
      const demote = await call('PUT', `${USERS}/createOrReplace`, { body: { name: 'admin', roles: ['ConfigManager'] } });
      expect(demote.status).to.equal(409);
      const shown = await call('GET', `${USERS}/show/admin`);
      expect(shown.body.roles).to.include('Admin');
      expect((await call('GET', `${USERS}/currentUser`)).status).to.equal(200);
    });
  });

  describe('create, show, replace, delete', () => {
    it('creates a user, shows it (read-your-writes) without its password, and it can log in', async () => {
      const created = await call('POST', `${USERS}/create`, { body: { name: 'alice', password: 'alice-passphrase', roles: ['JobRunner', 'DataReader', 'JobRunner'] } });
      expect(created.status).to.equal(200);
      expect(created.body).to.deep.equal({ name: 'alice', roles: ['DataReader', 'JobRunner'] });
      const shown = await call('GET', `${USERS}/show/alice`);
      expect(shown.status).to.equal(200);
      expect(shown.body).to.deep.equal({ name: 'alice', roles: ['DataReader', 'JobRunner'] });
      const me = await call('GET', `${USERS}/currentUser`, { auth: basic('alice', 'alice-passphrase') });
      expect(me.status).to.equal(200);
      expect(me.body).to.deep.equal({ name: 'alice', roles: ['DataReader', 'JobRunner'] });
    });

    it('create refuses an existing name (409) and keeps the user as it was', async () => {
      const dup = await call('POST', `${USERS}/create`, { body: { name: 'alice', password: 'other-passphrase', roles: ['Admin'] } });
      expect(dup.status).to.equal(409);
      expect(dup.body.message).to.match(/alice/);
      expect((await call('GET', `${USERS}/show/alice`)).body.roles).to.deep.equal(['DataReader', 'JobRunner']);
      expect((await call('GET', `${USERS}/currentUser`, { auth: basic('alice', 'other-passphrase') })).status).to.equal(401);
    });

    it('create answers 400 naming each bad field', async () => {
      const res = await call('POST', `${USERS}/create`, { body: { name: 'a:b', roles: ['Root'] } });
      expect(res.status).to.equal(400);
      const paths = (res.body.errors as Array<{ path: string }>).map((e) => e.path);
      expect(paths).to.include.members(['body.name', 'body.password']);
      expect(paths.some((p) => p.startsWith('body.roles'))).to.equal(true);
      expect((await call('GET', `${USERS}/show/a:b`)).status).to.equal(404);
    });

    it('refuses the names . and .. as every other resource does (same 400), so no user exists that no URL can delete', async () => {
      const facility = await call('POST', '/configuration/v1/facilities/create', { body: { name: '..' } });
      expect(facility.status).to.equal(400);
      for (const name of ['.', '..']) {
        for (const [method, path, body] of [
          ['POST', `${USERS}/create`, { name, password: 'dot-passphrase', roles: ['DataReader'] }],
          ['PUT', `${USERS}/createOrReplace`, { name, password: 'dot-passphrase', roles: ['DataReader'] }],
        ] as const) {
          const res = await call(method, path, { body });
          expect(res.status, `${method} ${name}`).to.equal(400);
          expect(res.body.errors, `${method} ${name}`).to.deep.equal([
            { path: 'body.name', reason: `must not be "${name}" (no URL path can address it)`, message: `must not be "${name}" (no URL path can address it)` },
          ]);
        }
        expect((await call('GET', `${USERS}/currentUser`, { auth: basic(name, 'dot-passphrase') })).status, name).to.equal(401);
      }
      expect(facility.body.errors[0].reason).to.equal('must not be ".." (no URL path can address it)');
      expect((await call('GET', `${USERS}/show`)).body.map((u: { name: string }) => u.name)).to.not.include.members(['.', '..']);
    });

    it('refuses a weak new password with the reason on body.password, beside the other problems of the body, and writes nothing', async () => {
      const paths = (res: TestResponse): string[] => res.body.errors.map((e: { path: string }) => e.path);
      const short = await call('POST', `${USERS}/create`, { body: { name: 'erin', password: 'erin-pw', roles: ['DataReader'] } });
      expect(short.status).to.equal(400);
      expect(short.body.errors).to.deep.include({ path: 'body.password', reason: 'must be at least 12 characters, got 7', message: 'must be at least 12 characters, got 7' });
      const named = await call('PUT', `${USERS}/createOrReplace`, { body: { name: 'warehouse-erin', password: 'Warehouse-Erin', roles: [] } });
      expect([named.status, named.body.errors[0].reason]).to.deep.equal([400, 'must not be the user name']);
      const common = await call('POST', `${USERS}/create`, { body: { name: 'erin', password: 'Password1234', roles: [] } });
      expect(common.body.errors[0].reason).to.match(/^is one of the most common passwords/);
      // A type error (roles) and the policy (password) in one answer.
      const both = await call('POST', `${USERS}/create`, { body: { name: 'erin', password: 'admindefault', roles: ['Root'] } });
      expect(both.status).to.equal(400);
      expect(paths(both)).to.have.members(['body.roles.0', 'body.password']);
      expect((await call('GET', `${USERS}/show/erin`)).status).to.equal(404);
      expect((await call('GET', `${USERS}/show/warehouse-erin`)).status).to.equal(404);
    });

    it('a password change is held to the policy; the stored one keeps working until a good one is given', async () => {
      expect((await call('POST', `${USERS}/create`, { body: { name: 'frank', password: 'frank-passphrase', roles: ['DataReader'] } })).status).to.equal(200);
      const weak = await call('PUT', `${USERS}/createOrReplace`, { body: { name: 'frank', password: 'frank', roles: ['DataReader'] } });
      expect([weak.status, weak.body.errors]).to.deep.equal([400, [{ path: 'body.password', reason: 'must be at least 12 characters, got 5', message: 'must be at least 12 characters, got 5' }]]);
      expect((await call('GET', `${USERS}/currentUser`, { auth: basic('frank', 'frank-passphrase') })).status).to.equal(200);
      expect((await call('GET', `${USERS}/currentUser`, { auth: basic('frank', 'frank') })).status).to.equal(401);
      expect((await call('PUT', `${USERS}/createOrReplace`, { body: { name: 'frank', password: 'twelve chars', roles: ['DataReader'] } })).status).to.equal(200);
      expect((await call('GET', `${USERS}/currentUser`, { auth: basic('frank', 'twelve chars') })).status).to.equal(200);
      expect((await call('DELETE', `${USERS}/destroy/frank`)).status).to.equal(204);
    });

    it('createOrReplace without a password creates nothing: 400 naming body.password', async () => {
      const res = await call('PUT', `${USERS}/createOrReplace`, { body: { name: 'nopass', roles: ['DataReader'] } });
      expect(res.status).to.equal(400);
      expect(res.body.errors.map((e: { path: string }) => e.path)).to.deep.equal(['body.password']);
      expect((await call('GET', `${USERS}/show/nopass`)).status).to.equal(404);
    });

    it('createOrReplace creates a user with a password, then changes roles keeping the password', async () => {
      const created = await call('PUT', `${USERS}/createOrReplace`, { body: { name: 'bob', password: 'bob-passphrase', roles: ['DataReader'] } });
      expect(created.status).to.equal(200);
      expect(created.body).to.deep.equal({ name: 'bob', roles: ['DataReader'] });
      const replaced = await call('PUT', `${USERS}/createOrReplace`, { body: { name: 'bob', roles: ['ConfigManager'] } });
      expect(replaced.status).to.equal(200);
      expect(replaced.body).to.deep.equal({ name: 'bob', roles: ['ConfigManager'] });
      const me = await call('GET', `${USERS}/currentUser`, { auth: basic('bob', 'bob-passphrase') });
      expect(me.status).to.equal(200);
      expect(me.body.roles).to.deep.equal(['ConfigManager']);
      const withNull = await call('PUT', `${USERS}/createOrReplace`, { body: { name: 'bob', password: null, roles: ['ConfigManager', 'DataReader'] } });
      expect(withNull.status).to.equal(200);
      expect((await call('GET', `${USERS}/authenticate`, { auth: basic('bob', 'bob-passphrase') })).status).to.equal(200);
    });

    it('a password change takes effect at once: the old one (even just verified and cached) is 401, the new one works', async () => {
      // Verified once, so the verifier's cache holds the old password.
      expect((await call('GET', `${USERS}/currentUser`, { auth: basic('bob', 'bob-passphrase') })).status).to.equal(200);
      expect((await call('GET', `${USERS}/currentUser`, { auth: basic('bob', 'bob-passphrase') })).status).to.equal(200);
      const changed = await call('PUT', `${USERS}/createOrReplace`, { body: { name: 'bob', password: 'bob-passphrase-2', roles: ['ConfigManager'] } });
      expect(changed.status).to.equal(200);
      const old = await call('GET', `${USERS}/currentUser`, { auth: basic('bob', 'bob-passphrase') });
      expect(old.status).to.equal(401);
      expect(old.headers.get('www-authenticate')).to.match(/^Basic/);
      const fresh = await call('GET', `${USERS}/currentUser`, { auth: basic('bob', 'bob-passphrase-2') });
      expect(fresh.status).to.equal(200);
      expect(fresh.body).to.deep.equal({ name: 'bob', roles: ['ConfigManager'] });
    });

    it('delete answers 204, then the user is gone (404), cannot log in, and a second delete is 404', async () => {
      await call('POST', `${USERS}/create`, { body: { name: 'carol', password: 'carol-passphrase', roles: ['ConfigManager'] } });
      expect((await call('GET', `${USERS}/currentUser`, { auth: basic('carol', 'carol-passphrase') })).status).to.equal(200);
      const del = await call('DELETE', `${USERS}/destroy/carol`);
      expect(del.status).to.equal(204);
      expect(del.body).to.equal(undefined);
      expect((await call('GET', `${USERS}/show/carol`)).status).to.equal(404);
      expect((await call('GET', `${USERS}/currentUser`, { auth: basic('carol', 'carol-passphrase') })).status).to.equal(401);
      expect((await call('DELETE', `${USERS}/destroy/carol`)).status).to.equal(404);
      expect((await call('GET', `${USERS}/show`)).body.map((u: { name: string }) => u.name)).not.to.include('carol');
    });

    it("delete revokes the user's tokens, and a new user of the same name does not inherit them", async () => {
      await call('POST', `${USERS}/create`, { body: { name: 'dave', password: 'dave-passphrase', roles: ['JobRunner'] } });
      const issued = await call('GET', '/authentication/v1/token', { auth: basic('dave', 'dave-passphrase') });
      expect(issued.status).to.equal(200);
      const token = issued.body.token as string;
      expect((await call('GET', `${USERS}/currentUser`, { auth: tokenAuth(token) })).status).to.equal(200);
      expect((await call('DELETE', `${USERS}/destroy/dave`)).status).to.equal(204);
      expect((await call('GET', `${USERS}/currentUser`, { auth: tokenAuth(token) })).status).to.equal(401);
      // Revoked by the delete itself, not only unusable because its user is gone.
      const afterDelete = await call('GET', '/authentication/v1/listTokens/dave');
      expect(afterDelete.body.map((t: { valid: boolean }) => t.valid)).to.deep.equal([false]);
      await call('POST', `${USERS}/create`, { body: { name: 'dave', password: 'dave-passphrase-new', roles: ['JobRunner'] } });
      expect((await call('GET', `${USERS}/currentUser`, { auth: tokenAuth(token) })).status).to.equal(401);
      const listed = await call('GET', '/authentication/v1/listTokens/dave');
      expect(listed.status).to.equal(200);
      expect(listed.body.map((t: { authenticationToken: { token: string }; valid: boolean }) => [t.authenticationToken.token, t.valid])).to.deep.equal([[tokenIdOf(token), false]]);
    });

    it('with other Admins, an Admin can be deleted or demoted; the last one still cannot', async () => {
      await call('POST', `${USERS}/create`, { body: { name: 'root2', password: 'root2-passphrase', roles: ['Admin'] } });
      await call('POST', `${USERS}/create`, { body: { name: 'root3', password: 'root3-passphrase', roles: ['Admin'] } });
      const root2 = basic('root2', 'root2-passphrase');
      expect((await call('DELETE', `${USERS}/destroy/root3`, { auth: root2 })).status).to.equal(204);
      const demoted = await call('PUT', `${USERS}/createOrReplace`, { auth: root2, body: { name: 'root2', roles: ['DataReader'] } });
      expect(demoted.status).to.equal(200); // `admin` is still an Admin
      expect((await call('PUT', `${USERS}/createOrReplace`, { body: { name: 'root2', roles: ['Admin'] } })).status).to.equal(200);
      expect((await call('DELETE', `${USERS}/destroy/root2`)).status).to.equal(204);
      expect((await call('DELETE', `${USERS}/destroy/admin`)).status).to.equal(409);
    });
  });

  describe('queries', () => {
    it('show filters by role, and refuses an unknown role (400 naming query.role)', async () => {
      const all = await call('GET', `${USERS}/show`);
      expect(all.status).to.equal(200);
      const names = all.body.map((u: { name: string }) => u.name);
      expect(names).to.deep.equal([...names].sort());
      const readers = await call('GET', `${USERS}/show?role=DataReader`);
      expect(readers.status).to.equal(200);
      expect(readers.body.map((u: { name: string }) => u.name)).to.deep.equal(['admin', 'alice']);
      const configManagers = await call('GET', `${USERS}/show?role=ConfigManager`);
      expect(configManagers.body.map((u: { name: string }) => u.name)).to.deep.equal(['admin', 'bob']);
      const admins = await call('GET', `${USERS}/show?role=Admin`);
      expect(admins.body).to.deep.equal([{ name: 'admin', roles: ['Admin', 'ConfigManager', 'DataReader', 'JobRunner'] }]);
      const bad = await call('GET', `${USERS}/show?role=Root`);
      expect(bad.status).to.equal(400);
      expect(bad.body.errors[0].path).to.equal('query.role');
    });

    it('show/{username} answers 404 for an unknown user', async () => {
      const res = await call('GET', `${USERS}/show/nobody`);
      expect(res.status).to.equal(404);
      expect(res.body.message).to.match(/nobody/);
    });

    it('roles/show lists the assignable roles (Admin only)', async () => {
      const res = await call('GET', `${USERS}/roles/show`);
      expect(res.status).to.equal(200);
      expect(res.body).to.have.members(['Admin', 'ConfigManager', 'DataReader', 'JobRunner']);
      expect((await call('GET', `${USERS}/roles/show`, { auth: basic('bob', 'bob-passphrase-2') })).status).to.equal(403);
    });

    it('currentUser answers the caller, whatever its role; 401 without credentials', async () => {
      const alice = await call('GET', `${USERS}/currentUser`, { auth: basic('alice', 'alice-passphrase') });
      expect(alice.body).to.deep.equal({ name: 'alice', roles: ['DataReader', 'JobRunner'] });
      const none = await call('GET', `${USERS}/currentUser`, { auth: null });
      expect(none.status).to.equal(401);
      expect(none.headers.get('www-authenticate')).to.match(/^Basic/);
    });

    it('authenticate: 200 with the user for good Basic or Token credentials, 401 without or with bad ones', async () => {
      const ok = await call('GET', `${USERS}/authenticate`, { auth: basic('alice', 'alice-passphrase') });
      expect(ok.status).to.equal(200);
      expect(ok.body).to.deep.equal({ name: 'alice', roles: ['DataReader', 'JobRunner'] });
      const token = (await call('PUT', '/authentication/v1/token/alice')).body.token as string;
      const byToken = await call('GET', `${USERS}/authenticate`, { auth: tokenAuth(token) });
      expect(byToken.status).to.equal(200);
      expect(byToken.body.name).to.equal('alice');
      for (const auth of [null, basic('alice', 'wrong'), basic('nobody', 'x'), 'Basic !!!', tokenAuth('00000000-0000-4000-8000-000000000000'), 'Token nope']) {
        const res = await call('GET', `${USERS}/authenticate`, { auth });
        expect(res.status, String(auth)).to.equal(401);
        expect(res.headers.get('www-authenticate'), String(auth)).to.match(/^Basic/);
      }
    });

    it('user management is Admin only (403 for other roles)', async () => {
      const bob = basic('bob', 'bob-passphrase-2');
      expect((await call('GET', `${USERS}/show`, { auth: bob })).status).to.equal(403);
      expect((await call('GET', `${USERS}/show/bob`, { auth: bob })).status).to.equal(403);
      expect((await call('POST', `${USERS}/create`, { auth: bob, body: { name: 'x', password: 'x', roles: ['Admin'] } })).status).to.equal(403);
      expect((await call('PUT', `${USERS}/createOrReplace`, { auth: bob, body: { name: 'bob', roles: ['Admin'] } })).status).to.equal(403);
      expect((await call('DELETE', `${USERS}/destroy/alice`, { auth: bob })).status).to.equal(403);
      expect((await call('GET', `${USERS}/show/x`)).status).to.equal(404);
    });
  });
});
