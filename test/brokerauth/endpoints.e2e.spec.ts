// The RabbitMQ HTTP authentication backend endpoints through the running
// app: the exact plain-text answers the plugin expects, for POST forms and GET
// queries, following user changes at once; bad parameters are 400s.
import { setLogLevel } from '../../src/core/logger';
import { expect } from 'chai';
import { startTestApp, type TestApp } from '../support/app';
import { givenReaderWithQueue, USERS } from './support';


describe('broker authentication endpoints over HTTP', function () {
  this.timeout(60_000);
  let app: TestApp;
  let origin: string;
  /** A queue the reader configured (PUT /data/v1/items/queues). */
  let queue: string;

  /** POSTs a form as RabbitMQ does (or GETs with a query string); answers status, content type and text. */
  async function ask(path: string, params: Record<string, string>, method: 'POST' | 'GET' = 'POST') {
    const form = new URLSearchParams(params).toString();
    const res =
      method === 'POST'
        ? await fetch(`${origin}/rabbitmq/auth/${path}`, { method, headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: form })
        : await fetch(`${origin}/rabbitmq/auth/${path}?${form}`);
    return { status: res.status, type: res.headers.get('content-type') ?? '', text: await res.text() };
  }
  const answer = async (path: string, params: Record<string, string>, method: 'POST' | 'GET' = 'POST'): Promise<string> => {
    const res = await ask(path, params, method);
    expect(res.status, res.text).to.equal(200);
    expect(res.type).to.match(/^text\/plain/);
    return res.text;
  };
  const resource = (username: string, name: string, permission: string, kind = 'queue') =>
    answer('resource', { username, vhost: '/', resource: kind, name, permission, tags: '' });

  before(async () => {
    app = await startTestApp();
    origin = new URL(app.baseUrl).origin;
    queue = await givenReaderWithQueue(app);
  });
  after(async () => {
    await app?.stop();
  });

  it('user: allow (no tags) for a DataReader or Admin with its tagtrail password, by POST form or GET query', async () => {
    expect(await answer('user', { username: 'reader', password: 'reader-passphrase' })).to.equal('allow');
    expect(await answer('user', { username: 'reader', password: 'reader-passphrase' }, 'GET')).to.equal('allow');
    expect(await answer('user', { username: 'admin', password: 'admindefault', vhost: '/', client_id: 'x' })).to.equal('allow');
  });

  it('user: deny for a wrong password, an unknown user and a user without DataReader/Admin', async () => {
    expect(await answer('user', { username: 'reader', password: 'wrong' })).to.equal('deny');
    expect(await answer('user', { username: 'nobody', password: 'reader-passphrase' })).to.equal('deny');
    expect(await answer('user', { username: 'config', password: 'config-passphrase' })).to.equal('deny');
  });

  it('vhost: allow / only, for users with the role', async () => {
    expect(await answer('vhost', { username: 'reader', vhost: '/', ip: '127.0.0.1' })).to.equal('allow');
    expect(await answer('vhost', { username: 'reader', vhost: 'other', ip: '127.0.0.1' })).to.equal('deny');
    expect(await answer('vhost', { username: 'config', vhost: '/' })).to.equal('deny');
    expect(await answer('vhost', { username: 'nobody', vhost: '/' }, 'GET')).to.equal('deny');
  });

  it('resource: read and configure on a client queue; no write, no other queue, no exchange', async () => {
    expect(await resource('reader', queue, 'read')).to.equal('allow');
    expect(await resource('reader', queue, 'configure')).to.equal('allow');
    expect(await resource('reader', queue, 'write')).to.equal('deny');
    expect(await resource('reader', 'orders', 'read')).to.equal('deny');
    // The name form of a client queue, but never configured: redeclaring it would create it.
    expect(await resource('reader', queue.replace(/[0-9a-f]{12}$/, '000000000000'), 'configure')).to.equal('deny');
    expect(await resource('admin', 'amq.default', 'write', 'exchange')).to.equal('deny');
    expect(await resource('config', queue, 'read')).to.equal('deny');
  });

  it('topic: deny', async () => {
    expect(await answer('topic', { username: 'reader', vhost: '/', resource: 'topic', name: 'amq.topic', permission: 'read', routing_key: 'a.b' })).to.equal('deny');
  });

  it('follows role changes at once: a DataReader demoted to JobRunner is refused its queue', async () => {
    await app.request('POST', `${USERS}/create`, { body: { name: 'temp', password: 'temp-passphrase', roles: ['DataReader'] } });
    expect(await resource('temp', queue, 'read')).to.equal('allow');
    const res = await app.request('PUT', `${USERS}/createOrReplace`, { body: { name: 'temp', roles: ['JobRunner'] } });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(await resource('temp', queue, 'read')).to.equal('deny');
    expect(await answer('user', { username: 'temp', password: 'temp-passphrase' })).to.equal('deny');
  });

  it('logs refusals at warn with user name and reason, and never a password, not even at debug', async () => {
    const lines: string[] = [];
    const saved = { out: process.stdout.write, err: process.stderr.write };
    const capture = (chunk: unknown): boolean => (lines.push(String(chunk)), true);
    const level = setLogLevel('debug');
    process.stdout.write = capture as typeof process.stdout.write;
    process.stderr.write = capture as typeof process.stderr.write;
    try {
      expect(await answer('user', { username: 'reader', password: 'Guess-1-x7Q' })).to.equal('deny');
      expect(await answer('user', { username: 'reader', password: 'Guess-2-x7Q' }, 'GET')).to.equal('deny');
      expect(await answer('user', { username: 'reader', password: 'reader-passphrase' }, 'GET')).to.equal('allow');
    } finally {
      process.stdout.write = saved.out;
      process.stderr.write = saved.err;
      setLogLevel(level);
    }
    const parsed = lines.flatMap((l): Array<Record<string, unknown>> => {
      try {
        return [JSON.parse(l) as Record<string, unknown>];
      } catch {
        return []; // not a log line
      }
    });
    const denied = parsed.filter((l) => l['msg'] === 'broker access denied');
    expect(denied).to.have.length(2);
    expect(denied[0]).to.include({ level: 'warn', check: 'user', username: 'reader', reason: 'invalid credentials' });
    expect(lines.some((l) => l.includes('"msg":"request"') && l.includes('/rabbitmq/auth/user'))).to.equal(true);
    for (const secret of ['Guess-1', 'Guess-2', 'reader-passphrase', 'x7Q']) expect(lines.join('')).to.not.contain(secret);
  });

  it('bad parameters are 400s in the error shape, naming the field', async () => {
    const missing = await ask('user', { username: 'reader' });
    expect(missing.status).to.equal(400);
    expect(JSON.parse(missing.text).errors.map((e: { path: string }) => e.path)).to.include('body.password');
    const badPermission = await ask('resource', { username: 'reader', vhost: '/', resource: 'queue', name: queue, permission: 'all' }, 'GET');
    expect(badPermission.status).to.equal(400);
    expect(JSON.parse(badPermission.text).errors.map((e: { path: string }) => e.path)).to.include('query.permission');
    const json = await fetch(`${origin}/rabbitmq/auth/user`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"username":"reader","password":"reader-passphrase"}' });
    expect(json.status).to.equal(400);
  });

  it('is outside the REST root and needs no Authorization header; other methods are refused', async () => {
    const underRoot = await fetch(`${app.baseUrl}/rabbitmq/auth/user`, { method: 'POST', body: 'username=reader&password=reader-passphrase', headers: { 'Content-Type': 'application/x-www-form-urlencoded' } });
    expect(underRoot.status).to.equal(404);
    const put = await fetch(`${origin}/rabbitmq/auth/user`, { method: 'PUT' });
    expect(put.status).to.equal(405);
  });
});
