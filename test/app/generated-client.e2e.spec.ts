// A client generated from the served OpenAPI document works: openapi-typescript
// turns the document into types (about 600 KB, so generated here rather than
// kept in the repository), a small program written against them with
// openapi-fetch must compile under strict TypeScript (so the generated types
// say what the service takes and answers), and then runs a configuration
// round trip against the service.
import { execFile } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import openapiTS, { astToString } from 'openapi-typescript';
import { ADMIN, startTestApp, type TestApp } from '../support/app';

const REPO = join(__dirname, '..', '..');

// The client program. Response types are looked up by operationId, as users
// of generated clients do; the @ts-expect-error line fails the compile if the
// generated body types let a wrong field through.
const PROGRAM = `
import createClient from 'openapi-fetch';
import type { operations, paths } from './api';

type Facility = operations['createFacility']['responses'][200]['content']['application/json'];
type ZoneMap = operations['showZoneMap']['responses'][200]['content']['application/json'];

export async function roundTrip(baseUrl: string, authorization: string, name: string) {
  const client = createClient<paths>({ baseUrl, headers: { Authorization: authorization } });
  const created = await client.POST('/configuration/v1/facilities/create', { body: { name } });
  const facility: Facility | undefined = created.data;
  const zoneMap = { name: name + '-map', facility: name, zones: [{ name: 'Dock', points: [{ x: 0, y: 0 }, { x: 4, y: 3 }] }] };
  const stored = await client.PUT('/configuration/v1/zoneMaps/createOrReplace', { body: zoneMap });
  const path = { zoneMapName: zoneMap.name };
  const shown = await client.GET('/configuration/v1/zoneMaps/show/{zoneMapName}', { params: { path } });
  const shownMap: ZoneMap | undefined = shown.data;
  const listed = await client.GET('/configuration/v1/facilities/show');
  const destroyed = await client.DELETE('/configuration/v1/zoneMaps/destroy/{zoneMapName}', { params: { path } });
  const gone = await client.GET('/configuration/v1/zoneMaps/show/{zoneMapName}', { params: { path } });
  const facilityGone = await client.DELETE('/configuration/v1/facilities/destroy/{facilityName}', { params: { path: { facilityName: name } } });
  return {
    created: { status: created.response.status, name: facility?.name },
    stored: { status: stored.response.status, zones: stored.data?.zones.map((z) => z.name) },
    shown: { status: shown.response.status, facility: shownMap?.facility, points: shownMap?.zones[0]?.points.length },
    listed: listed.data?.map((f) => f.name).includes(name),
    destroyed: destroyed.response.status,
    gone: { status: gone.response.status, message: typeof gone.error?.message },
    facilityGone: facilityGone.response.status,
  };
}

export function neverCalled(baseUrl: string) {
  const client = createClient<paths>({ baseUrl });
  // @ts-expect-error a facility's body has a name, not a nome
  return client.POST('/configuration/v1/facilities/create', { body: { nome: 'x' } });
}
`;

const TSCONFIG = {
  compilerOptions: { target: 'ES2022', module: 'commonjs', moduleResolution: 'node10', strict: true, noEmit: true, skipLibCheck: true, esModuleInterop: true, types: [] },
  files: ['round-trip.ts'],
};

describe('a client generated from the OpenAPI document', function () {
  this.timeout(120_000);
  let app: TestApp;
  let dir: string;
  before(async () => {
    app = await startTestApp();
    dir = mkdtempSync(join(tmpdir(), 'tagtrail-generated-client-'));
    // The program resolves openapi-fetch (and tsc its types) from the repository's packages.
    symlinkSync(realpathSync(join(REPO, 'node_modules')), join(dir, 'node_modules'));
  });
  after(async () => {
    await app?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('compiles against the generated types and runs a configuration round trip', async () => {
    const res = await app.request('GET', '/openapi.json', { auth: null });
    expect(res.status).to.equal(200);
    writeFileSync(join(dir, 'api.d.ts'), astToString(await openapiTS(res.body as never)));
    writeFileSync(join(dir, 'round-trip.ts'), PROGRAM);
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(TSCONFIG));
    const tsc = join(REPO, 'node_modules', 'typescript', 'bin', 'tsc');
    const compiled = await promisify(execFile)(process.execPath, [tsc, '-p', join(dir, 'tsconfig.json')]).then(
      () => 'ok',
      (err: { stdout?: string; message: string }) => err.stdout || err.message,
    );
    expect(compiled, 'tsc over the generated types and the program').to.equal('ok');

    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the program exists only in this run's directory
    const { roundTrip } = require(join(dir, 'round-trip.ts')) as { roundTrip(baseUrl: string, authorization: string, name: string): Promise<unknown> };
    const name = `generated-${Date.now()}`;
    expect(await roundTrip(app.baseUrl, ADMIN, name)).to.deep.equal({
      created: { status: 200, name },
      stored: { status: 200, zones: ['Dock'] },
      shown: { status: 200, facility: name, points: 2 },
      listed: true,
      destroyed: 204,
      gone: { status: 404, message: 'string' },
      facilityGone: 204,
    });
  });
});
