// The OpenAPI document and the router are built from the same route table;
// this proves nothing reaches the router around the table, and that the
// document served is complete.
import SwaggerParser from '@apidevtools/swagger-parser';
import { expect } from 'chai';
import { startTestApp, type TestApp } from '../support/app';
import { buildRouteInventory } from '../support/routes';

interface Layer {
  path: string;
  methods: string[];
}

describe('OpenAPI document', function () {
  this.timeout(30_000);
  let app: TestApp;
  before(async () => {
    app = await startTestApp();
  });
  after(async () => app?.stop());

  it('is served without credentials and documents every route of the router, and nothing else', async () => {
    const res = await app.request('GET', '/openapi.json', { auth: null });
    expect(res.status).to.equal(200);
    expect(res.body.openapi).to.match(/^3\./);
    const documented = new Set<string>();
    for (const [path, ops] of Object.entries(res.body.paths as Record<string, Record<string, unknown>>)) {
      for (const method of Object.keys(ops)) documented.add(`${method.toUpperCase()} ${path}`);
    }
    const routed = new Set<string>();
    for (const layer of (await buildRouteInventory()) as Layer[]) {
      for (const m of layer.methods.filter((x) => x !== 'HEAD')) routed.add(`${m} ${layer.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}')}`);
    }
    expect([...routed].filter((r) => !documented.has(r)), 'routed but not documented').to.deep.equal([]);
    expect([...documented].filter((d) => !routed.has(d)), 'documented but not routed').to.deep.equal([]);
    expect(documented.size).to.be.greaterThan(5);
  });

  it('is a valid OpenAPI 3.0 document for a standard validator (what code generators load)', async () => {
    const res = await app.request('GET', '/openapi.json', { auth: null });
    // validate() throws naming the first offending place; it dereferences in place, so give it a copy.
    await SwaggerParser.validate(structuredClone(res.body));
    expect(res.body.openapi).to.equal('3.0.3');
  });

  it('gives each operation its roles, or marks it public', async () => {
    const res = await app.request('GET', '/openapi.json', { auth: null });
    for (const ops of Object.values(res.body.paths as Record<string, Record<string, { 'x-roles'?: string[]; security?: unknown[] }>>)) {
      for (const op of Object.values(ops)) expect(op['x-roles'] !== undefined || Array.isArray(op.security)).to.equal(true);
    }
  });
});
