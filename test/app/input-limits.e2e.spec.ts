// The limits on input that a corpus cannot show (test/app/hostile-input has
// the corpus): a refused request is answered from its headers without its
// body being sent, a non-JSON body is a 415 instead of a silently empty
// filter or target, a refused create takes no id, and what the event store
// refuses to store is a 413.
import { connect } from 'node:net';
import { expect } from 'chai';
import { ADMIN, startTestApp, type TestApp } from '../support/app';
import { logHead } from '../support/log-head';

interface RawAnswer {
  readonly status: number;
  readonly closed: boolean;
  readonly text: string;
}

/** Writes `request` as it is on a new connection and resolves with what the service answers once it closes the connection. */
function exchange(baseUrl: string, request: string): Promise<RawAnswer> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname);
    let text = '';
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`the connection stayed open; got so far: ${text.slice(0, 200)}`));
    }, 20_000);
    socket.on('data', (d: Buffer) => (text += d.toString('latin1')));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0), closed: true, text });
    });
    socket.write(request);
  });
}

/**
 * Sends only the request line and headers of a POST announcing a
 * `length`-byte body, never the body, and resolves with what the service
 * answers and whether it closed the connection.
 */
function headersOnly(baseUrl: string, path: string, length: number, auth?: string): Promise<RawAnswer> {
  const url = new URL(`${baseUrl}${path}`);
  const headers = [`POST ${url.pathname} HTTP/1.1`, `Host: ${url.host}`, 'Content-Type: application/json', `Content-Length: ${length}`];
  if (auth) headers.push(`Authorization: ${auth}`);
  return exchange(baseUrl, `${headers.join('\r\n')}\r\n\r\n`);
}

/** The JSON error body of a raw answer, with its Content-Type checked. */
function errorBody(answer: RawAnswer): { message: string; errors: unknown[] } {
  const [head = '', body = ''] = answer.text.split('\r\n\r\n');
  expect(head, head).to.match(/\r\ncontent-type: application\/json/i);
  return JSON.parse(body) as { message: string; errors: unknown[] };
}

describe('limits on input', function () {
  this.timeout(120_000);
  let app: TestApp;
  before(async () => {
    app = await startTestApp();
  });
  after(async () => app?.stop());

  it('answers a request without credentials, or over the size limit, from its headers and closes the connection', async () => {
    const nineMiB = 9 * 1024 * 1024;
    const anonymous = await headersOnly(app.baseUrl, '/configuration/v1/facilities/create', nineMiB);
    expect(anonymous.status).to.equal(401);
    expect(anonymous.text).to.match(/\r\nconnection: close\r\n/i);
    // An agent route: the agent's credentials are checked before its report is read.
    const agent = await headersOnly(app.baseUrl, '/agent/v1/readers/r1/reports', nineMiB, 'Agent cjE6bm9wZQ==');
    expect(agent.status).to.equal(401);
    const tooLarge = await headersOnly(app.baseUrl, '/configuration/v1/facilities/create', nineMiB, ADMIN);
    expect(tooLarge.status).to.equal(413);
    expect(tooLarge.text).to.contain('512 KiB');
  });

  it('answers what the HTTP parser refuses with the JSON error body too: an over-long header or path (431), bytes that are not HTTP (400)', async () => {
    const { host } = new URL(app.baseUrl);
    const root = new URL(app.baseUrl).pathname;
    const longHeader = await exchange(app.baseUrl, `GET ${root}/configuration/v1/facilities/show HTTP/1.1\r\nHost: ${host}\r\nAuthorization: ${ADMIN}\r\nX-Padding: ${'x'.repeat(20_000)}\r\n\r\n`);
    expect(longHeader.status).to.equal(431);
    expect(errorBody(longHeader)).to.deep.equal({ message: 'Request header fields too large: the request line and headers may be at most 16384 bytes in all', errors: [] });
    const longPath = await exchange(app.baseUrl, `GET ${root}/configuration/v1/facilities/show/${'f'.repeat(20_000)} HTTP/1.1\r\nHost: ${host}\r\n\r\n`);
    expect(longPath.status).to.equal(431);
    expect(errorBody(longPath).message).to.match(/^Request header fields too large/);
    const garbage = await exchange(app.baseUrl, 'HELLO THERE\r\n\r\n');
    expect(garbage.status).to.equal(400);
    expect(errorBody(garbage)).to.deep.equal({ message: 'Bad request: not a valid HTTP/1.1 request (HPE_INVALID_METHOD)', errors: [] });
    const badHeader = await exchange(app.baseUrl, `GET ${root}/about/v1/info HTTP/1.1\r\nHost: ${host}\r\nBad Header: x\r\n\r\n`);
    expect(badHeader.status).to.equal(400);
    expect(errorBody(badHeader).message).to.match(/^Bad request: not a valid HTTP\/1\.1 request \(HPE_/);
    // A path a little under the limit reaches the routes, which refuse the name as too long.
    const underLimit = await app.request('GET', `/configuration/v1/facilities/show/${'f'.repeat(10_000)}`);
    expect(underLimit.status).to.equal(400);
    expect(underLimit.body.errors[0]).to.include({ path: 'params.facilityName' });
  });

  it('answers an unknown path (404) and a method a path does not take (405) with the JSON error body, under the root path and outside it', async () => {
    const origin = new URL(app.baseUrl).origin;
    for (const [method, url, status] of [
      ['GET', `${app.baseUrl}/no/such/path`, 404],
      ['GET', `${origin}/no/such/path`, 404],
      ['DELETE', `${app.baseUrl}/configuration/v1/facilities/show`, 405],
      ['PUT', `${origin}/rabbitmq/auth/user`, 405],
      ['POST', `${origin}/healthz`, 405],
    ] as const) {
      const res = await fetch(url, { method, headers: { Authorization: ADMIN } });
      expect(res.status, `${method} ${url}`).to.equal(status);
      expect(res.headers.get('content-type'), `${method} ${url}`).to.match(/^application\/json/);
      const body = (await res.json()) as { message: string; errors: unknown[] };
      expect(body.message, `${method} ${url}`).to.be.a('string').and.not.equal('');
      expect(body.errors).to.deep.equal([]);
    }
  });

  it('answers a body that is not declared JSON with 415 and does nothing: no queue for every item, no time sync for every reader', async () => {
    const before = await logHead(app.eventStoreConnectionString);
    const filter = JSON.stringify({ fromZone: 'DOCK' });
    const queue = await app.request('PUT', '/data/v1/items/queues', { raw: filter, headers: { 'Content-Type': 'text/plain' } });
    expect(queue.status).to.equal(415);
    expect(queue.body.message).to.contain("-H 'Content-Type: application/json'");
    const res = await fetch(`${app.baseUrl}/support/v1/timeSync`, { method: 'POST', headers: { Authorization: ADMIN }, body: new Blob(['{"readerNames":["r1"]}']) });
    expect(res.status).to.equal(415);
    expect(((await res.json()) as { message: string }).message).to.contain('no Content-Type');
    expect(await logHead(app.eventStoreConnectionString)).to.equal(before);
  });

  it('states the limits of names, path parameters and query values in the OpenAPI document', async () => {
    const doc = (await app.request('GET', '/openapi.json', { auth: null })).body as {
      paths: Record<string, Record<string, { parameters: Array<{ in: string; name: string; schema: Record<string, unknown> }>; requestBody?: { content: Record<string, { schema: { properties: Record<string, Record<string, unknown>> } }> } }>>;
    };
    const operations = Object.values(doc.paths).flatMap((p) => Object.values(p));
    const pathParams = operations.flatMap((o) => o.parameters.filter((p) => p.in === 'path'));
    expect(pathParams.length).to.be.greaterThan(20);
    for (const p of pathParams) expect(p.schema['maxLength'], p.name).to.equal(256);
    const queries = operations.flatMap((o) => o.parameters.filter((p) => p.in === 'query' && p.schema['type'] === 'string' && p.schema['enum'] === undefined));
    for (const q of queries) expect(q.schema['maxLength'], q.name).to.be.a('number');
    for (const kind of ['facilities', 'zoneMaps', 'readerDefinitions', 'readerConfigurations', 'recipes', 'thresholds']) {
      const body = doc.paths[`/configuration/v1/${kind}/createOrReplace`]?.['put']?.requestBody?.content['application/json']?.schema;
      expect(body?.properties['name']?.['maxLength'], kind).to.equal(256);
    }
  });

  it('takes no threshold id for a refused create', async () => {
    const create = (body: unknown, headers: Record<string, string> = {}) =>
      app.request('POST', '/configuration/v1/thresholds/create', { raw: typeof body === 'string' ? body : JSON.stringify(body), headers });
    const valid = { name: 'door', readerArrangement: 'SIDE_BY_SIDE' };
    expect((await create(valid, { 'Content-Type': 'text/plain' })).status).to.equal(415);
    expect((await create({ ...valid, name: 'x'.repeat(257) })).status).to.equal(400);
    expect((await create({ ...valid, padding: 'x'.repeat(600 * 1024) })).status).to.equal(413);
    expect((await create({ ...valid, readers: { nope: {} } })).status).to.be.within(400, 499);
    const first = await create(valid);
    expect(first.status, JSON.stringify(first.body)).to.equal(200);
    expect(first.body.id).to.equal(1);
  });
});

describe('limits on input: what the event store refuses to store', function () {
  this.timeout(120_000);
  let app: TestApp;
  before(async () => {
    // A small append limit, so that a body under the HTTP limit exceeds it.
    app = await startTestApp({ EVENTSTORE_MAX_APPEND_SIZE: '8192' });
  });
  after(async () => app?.stop());

  it('keeps configuration bodies under half of it', async () => {
    const res = await app.request('POST', '/configuration/v1/facilities/create', { body: { name: 'f', padding: 'x'.repeat(5000) } });
    expect(res.status).to.equal(413);
    expect(res.body.message).to.contain('4 KiB');
  });

  it('answers 413 with a message when what a request stores exceeds one append, and nothing is stored', async () => {
    const exported = await app.request('GET', '/support/v1/configuration');
    expect(exported.status).to.equal(200);
    const before = await logHead(app.eventStoreConnectionString);
    const zones = Array.from({ length: 200 }, (_, i) => ({ name: `zone-${i}`, floor: null, points: [{ x: i, y: 0, z: 0 }, { x: i + 1, y: 0, z: 0 }, { x: i + 1, y: 1, z: 0 }] }));
    const big = { stream: 'zoneMap-big', events: [{ id: crypto.randomUUID(), type: 'ZoneMapCreated', data: { name: 'big', resource: { name: 'big', facility: 'DEFAULT', zones } }, metadata: {} }] };
    // The archive route takes large bodies; the one event is over the 8 KiB the store takes.
    const res = await app.request('POST', '/support/v1/configuration', { body: { ...exported.body, streams: [big] } });
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).to.equal(413);
    expect(res.body.message).to.match(/too large to store: the event store takes at most 8192 bytes/);
    expect(await logHead(app.eventStoreConnectionString)).to.equal(before);
    expect((await app.request('GET', '/configuration/v1/zoneMaps/show/big')).status).to.equal(404);
  });
});
