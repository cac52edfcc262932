// Shared by the reader configuration and recipe HTTP tests: users with
// roles, and the "refused with a 400 naming the field, nothing written"
// check.
import { expect } from 'chai';
import { basic, type TestApp, type TestResponse } from '../support/app';
import { logHead } from '../support/log-head';

export const RC = '/configuration/v1/readerConfigurations';
export const RECIPES = '/configuration/v1/recipes';

/** Creates a user through the users routes (read-your-writes) and returns its Basic credentials. */
export async function createUser(app: TestApp, name: string, roles: string[]): Promise<string> {
  const password = `${name}-secret`;
  const res = await app.request('POST', '/configuration/v1/users/create', { body: { name, password, roles } });
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return basic(name, password);
}

export function errorPaths(res: TestResponse): string[] {
  return ((res.body?.errors ?? []) as Array<{ path: string }>).map((e) => e.path);
}

export function expectStatus(res: TestResponse, status: number): void {
  expect(res.status, JSON.stringify(res.body)).to.equal(status);
}

/**
 * `body` is refused with `status` by create (under its own name, which must
 * not exist) and by createOrReplace of `existing` (a stored resource of
 * `base`): each error list names `path`, nothing is appended to the log,
 * `body.name` still does not exist and `existing` reads back unchanged.
 */
export async function expectRefused(
  app: TestApp,
  base: string,
  body: Record<string, unknown>,
  path: string,
  existing: string,
  status = 400,
): Promise<TestResponse[]> {
  const head = await logHead(app.eventStoreConnectionString);
  const before = await app.request('GET', `${base}/show/${existing}`);
  expectStatus(before, 200);
  const responses = [
    await app.request('POST', `${base}/create`, { body }),
    await app.request('PUT', `${base}/createOrReplace`, { body: { ...body, name: existing } }),
  ];
  for (const res of responses) {
    expectStatus(res, status);
    expect(res.body.message).to.be.a('string');
    expect(errorPaths(res), JSON.stringify(res.body.errors)).to.include(path);
    for (const e of res.body.errors as Array<{ message: unknown }>) expect(e.message).to.be.a('string');
  }
  expect(await logHead(app.eventStoreConnectionString), 'nothing appended').to.equal(head);
  expectStatus(await app.request('GET', `${base}/show/${String(body['name'])}`), 404);
  expect((await app.request('GET', `${base}/show/${existing}`)).body, 'existing unchanged').to.deep.equal(before.body);
  return responses;
}

/** A reader definition named `name` in the DEFAULT facility, for per-reader overrides. */
export async function seedReaderDefinition(app: TestApp, name: string): Promise<void> {
  expectStatus(await app.request('POST', '/configuration/v1/readerDefinitions/create', { body: { name } }), 200);
}
