// The role matrix: every route of the route table (so slices added later are
// covered without touching this file), called without credentials, by a user
// of each role and by a user without roles. What the guard promises:
//   - no credentials: 401 (public routes excepted);
//   - Admin, or a role the route lists: past the guard (neither 401 nor 403);
//   - any other role, or none: 403.
// Path parameters become `no-such-<param>` (`:token` excepted, see fill) and
// body-taking routes get `{}`, so handlers answer 400/404 and change nothing
// that matters; the point is only which side of the guard each caller ends
// up on. No route is skipped.
import { expect } from 'chai';
import { startTestApp, basic, type TestApp } from '../support/app';
import { routeSpecs } from '../support/routes';
import type { RouteSpec } from '../../src/core/http/routes';

const ROLES = ['DataReader', 'JobRunner', 'ConfigManager', 'Admin'] as const;

interface Caller {
  readonly label: string;
  readonly auth: string | null;
  /** undefined: no credentials at all */
  readonly roles: readonly string[] | undefined;
}

/**
 * `no-such-<param>` for every path parameter, except `:token`: validateToken
 * answers an unknown token with 401 by design (spec, Authentication), which
 * this matrix could not tell from the guard's 401; a real token of a matrix
 * user takes its place, so the route still answers past its guard (200).
 */
const fill = (path: string, token: string): string =>
  path.replace(/:([A-Za-z0-9_]+)/g, (_m, param: string) => (param === 'token' ? token : `no-such-${param}`));

type Expectation = 'unauthenticated' | 'allowed' | 'forbidden';

/** Agent routes are 'public' to the user guard but need an agent secret (none of these callers has one). */
const isAgentRoute = (spec: RouteSpec): boolean => spec.roles === 'public' && spec.path.startsWith('/agent/');

function expected(spec: RouteSpec, caller: Caller): Expectation {
  if (isAgentRoute(spec)) return 'unauthenticated';
  if (spec.roles === 'public') return 'allowed';
  if (caller.roles === undefined) return 'unauthenticated';
  if (caller.roles.includes('Admin')) return 'allowed';
  // An empty role list means any authenticated user (requireRoles()).
  if (spec.roles.length === 0) return 'allowed';
  return spec.roles.some((r) => caller.roles?.includes(r)) ? 'allowed' : 'forbidden';
}

function matches(e: Expectation, status: number): boolean {
  switch (e) {
    case 'unauthenticated':
      return status === 401;
    case 'forbidden':
      return status === 403;
    case 'allowed':
      return status !== 401 && status !== 403;
  }
}

describe('role matrix over every route', function () {
  this.timeout(120_000);
  let app: TestApp;
  let specs: readonly RouteSpec[];
  const callers: Caller[] = [{ label: 'no credentials', auth: null, roles: undefined }];
  const results: Array<{ spec: RouteSpec; caller: Caller; status: number }> = [];

  before(async () => {
    app = await startTestApp();
    specs = await routeSpecs();
    for (const role of ROLES) {
      const name = `matrix-${role.toLowerCase()}`;
      const res = await app.request('POST', '/configuration/v1/users/create', { body: { name, password: `${name}-passphrase`, roles: [role] } });
      expect(res.status, `create ${name}`).to.equal(200);
      callers.push({ label: role, auth: basic(name, `${name}-passphrase`), roles: [role] });
    }
    const res = await app.request('POST', '/configuration/v1/users/create', { body: { name: 'matrix-none', password: 'matrix-none-passphrase', roles: [] } });
    expect(res.status, 'create matrix-none').to.equal(200);
    callers.push({ label: 'no roles', auth: basic('matrix-none', 'matrix-none-passphrase'), roles: [] });
    const issued = await app.request('PUT', '/authentication/v1/token/matrix-none');
    expect(issued.status, 'token for matrix-none').to.equal(200);
    const token = String(issued.body.token);

    for (const spec of specs) {
      for (const caller of callers) {
        const r = await app.request(spec.method.toUpperCase(), fill(spec.path, token), {
          auth: caller.auth,
          ...(spec.body !== undefined ? { body: {} } : {}),
        });
        results.push({ spec, caller, status: r.status });
      }
    }
  });
  after(async () => app?.stop());

  it('covers every route of the table, the users and token routes among them', () => {
    expect(results.length).to.equal(specs.length * callers.length);
    const paths = new Set(specs.map((s) => `${s.method} ${s.path}`));
    for (const p of [
      'post /configuration/v1/users/create',
      'get /configuration/v1/users/currentUser',
      'get /authentication/v1/token',
      'put /authentication/v1/token/:username',
      'post /authentication/v1/validateToken/:token',
      'get /configuration/v1/facilities/show',
    ]) {
      expect(paths.has(p), p).to.equal(true);
    }
  });

  it('every caller lands on the side of the guard its roles say', () => {
    const wrong = results
      .filter(({ spec, caller, status }) => !matches(expected(spec, caller), status))
      .map(({ spec, caller, status }) => `${spec.method.toUpperCase()} ${spec.path} as ${caller.label} (route roles ${JSON.stringify(spec.roles)}): expected ${expected(spec, caller)}, got ${status}`);
    expect(wrong).to.deep.equal([]);
  });

  it('no route answers 5xx to any of these calls', () => {
    const failed = results
      .filter(({ status }) => status >= 500)
      .map(({ spec, caller, status }) => `${spec.method.toUpperCase()} ${spec.path} as ${caller.label}: ${status}`);
    expect(failed).to.deep.equal([]);
  });

  it('the user routes have the roles of the interface', () => {
    const rolesOf = (method: string, path: string): unknown => specs.find((s) => s.method === method && s.path === path)?.roles;
    const all = ['Admin', 'ConfigManager', 'DataReader', 'JobRunner'];
    expect(rolesOf('get', '/configuration/v1/users/currentUser')).to.have.members(all);
    expect(rolesOf('get', '/configuration/v1/users/authenticate')).to.have.members(all);
    expect(rolesOf('get', '/authentication/v1/token')).to.have.members(['ConfigManager', 'Admin', 'JobRunner']);
    for (const s of specs.filter((x) => x.path.startsWith('/configuration/v1/users/') && !/currentUser|authenticate/.test(x.path))) {
      expect(s.roles, s.path).to.deep.equal(['Admin']);
    }
    for (const s of specs.filter((x) => x.path.startsWith('/authentication/v1/') && x.path !== '/authentication/v1/token')) {
      expect(s.roles, s.path).to.deep.equal(['Admin']);
    }
  });
});
