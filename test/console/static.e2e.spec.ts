// The console's files as the service serves them: only the listed files,
// the page carrying the REST root path and the import map, the libraries
// from node_modules, and nothing else of the file system.
import { expect } from 'chai';
import { startTestApp, type TestApp } from '../support/app';
import { VENDOR_FILES } from '../../src/console/static';

describe('console files', function () {
  this.timeout(60_000);
  let app: TestApp;
  let root: string;
  before(async () => {
    app = await startTestApp({ ROOT_PATH: '/api/v2' });
    root = new URL('/', app.baseUrl).toString();
  });
  // Bodies a test does not read are cancelled, so no keep-alive socket outlives the tests.
  const answers: Response[] = [];
  after(async () => {
    await Promise.all(answers.map((r) => (r.bodyUsed ? undefined : r.body?.cancel())));
    await app?.stop();
  });

  const get = async (path: string): Promise<Response> => {
    const res = await fetch(new URL(path, root), { redirect: 'manual' });
    answers.push(res);
    return res;
  };

  it('links the console from / and redirects /console to /console/', async () => {
    const home = await (await get('/')).text();
    expect(home).to.contain('href="console/"').and.to.contain('href="api/v2/openapi.json"');
    const redirect = await get('/console');
    expect(redirect.status).to.equal(301);
    expect(redirect.headers.get('location')).to.equal('/console/');
  });

  it('serves the page with the REST root path and an import map of local files only', async () => {
    const res = await get('/console/');
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.match(/^text\/html/);
    const page = await res.text();
    expect(page).to.contain('<meta name="tagtrail-api-root" content="/api/v2">');
    const map = JSON.parse(/<script type="importmap">([\s\S]*?)<\/script>/.exec(page)![1]!) as { imports: Record<string, string> };
    for (const target of Object.values(map.imports)) {
      expect(target).to.match(/^\.\/vendor\//);
      const lib = await get(`/console/${target.slice(2)}`);
      expect(lib.status, target).to.equal(200);
      expect(lib.headers.get('content-type')).to.match(/^text\/javascript/);
    }
    expect(Object.keys(VENDOR_FILES)).to.include.members(Object.values(map.imports).map((t) => t.replace('./vendor/', '')));
  });

  it('serves the console modules and answers 404 for anything not listed', async () => {
    const app_ = await get('/console/app.js');
    expect(app_.status).to.equal(200);
    expect(await app_.text()).to.contain("from './api.js'");
    for (const path of ['/console/nope.js', '/console/vendor/preact.js', '/console/%2e%2e/package.json', '/console/vendor/..%2f..%2fpackage.json', '/console/../src/main.ts']) {
      const res = await get(path);
      expect(res.status, path).to.be.oneOf([404, 301, 308]);
      if (res.status === 404) expect(((await res.json()) as { message: unknown }).message).to.be.a('string');
    }
  });
});
