// Every route that takes a JSON body: malformed JSON and wrong types answer
// 400 with a message (and field errors for wrong types), and append nothing.
import { expect } from 'chai';
import { startTestApp, type TestApp } from '../support/app';
import { routeSpecs } from '../support/routes';
import { logHead } from '../support/log-head';

const fill = (path: string): string => path.replace(/:([A-Za-z0-9_]+)/g, 'no-such-$1');

describe('bad input on every body-taking route', function () {
  this.timeout(120_000);
  let app: TestApp;
  before(async () => {
    app = await startTestApp();
  });
  after(async () => app?.stop());

  it('malformed JSON and wrong types are 400 and change nothing', async () => {
    const specs = (await routeSpecs()).filter((r) => r.body !== undefined);
    expect(specs.length).to.be.greaterThan(0);
    const before = await logHead(app.eventStoreConnectionString);
    for (const r of specs) {
      const path = fill(r.path);
      const malformed = await app.request(r.method.toUpperCase(), path, { raw: '{"name": ' });
      const wrong = await app.request(r.method.toUpperCase(), path, { body: { name: 42, facility: [], zones: 'x', type: 7 } });
      // Agent routes authenticate the agent before reading the body (test/agents covers their 400s).
      if (r.roles === 'public' && r.path.startsWith('/agent/')) {
        expect(malformed.status, `${r.method} ${r.path} malformed, no agent credentials`).to.equal(401);
        expect(wrong.status, `${r.method} ${r.path} wrong types, no agent credentials`).to.equal(401);
        continue;
      }
      expect(malformed.status, `${r.method} ${r.path} malformed`).to.equal(400);
      expect(malformed.body.message, `${r.method} ${r.path} malformed`).to.be.a('string');
      expect(wrong.status, `${r.method} ${r.path} wrong types`).to.equal(400);
      expect(wrong.body.errors, `${r.method} ${r.path} wrong types`).to.be.an('array');
      expect(wrong.body.errors.length, `${r.method} ${r.path} wrong types`).to.be.greaterThan(0);
      for (const e of wrong.body.errors as Array<{ path: string; reason: string }>) {
        expect(e.path, `${r.method} ${r.path}`).to.match(/^body/);
        expect(e.reason.length, `${r.method} ${r.path} ${e.path}`).to.be.greaterThan(0);
      }
    }
    expect(await logHead(app.eventStoreConnectionString)).to.equal(before);
  });
});
