// Failed-login throttling through the running app: after five wrong
// passwords a user is held back at that address (429 with Retry-After, even
// with the right password, which is not checked), while the same user logs in
// from another address; the broker's login endpoint is throttled the same
// way; good logins are never counted.
import { expect } from 'chai';
import http from 'node:http';
import { startTestApp, basic, type TestApp } from '../support/app';

const ME = '/configuration/v1/users/currentUser';

interface Answer {
  readonly status: number;
  readonly retryAfter: string | undefined;
  readonly body: string;
}

/** A request from a chosen loopback source address (every 127.x address reaches the app). */
function request(url: string, opts: { method?: string; auth?: string; from: string; form?: Record<string, string> }): Promise<Answer> {
  const body = opts.form ? new URLSearchParams(opts.form).toString() : undefined;
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method: opts.method ?? 'GET',
        localAddress: opts.from,
        headers: {
          ...(opts.auth ? { Authorization: opts.auth } : {}),
          ...(body ? { 'Content-Type': 'application/x-www-form-urlencoded', 'Content-Length': Buffer.byteLength(body) } : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const retryAfter = res.headers['retry-after'];
          resolve({ status: res.statusCode ?? 0, retryAfter: Array.isArray(retryAfter) ? retryAfter[0] : retryAfter, body: Buffer.concat(chunks).toString('utf8') });
        });
      },
    );
    req.on('error', reject);
    if (body) req.write(body);
    req.end();
  });
}

describe('failed-login throttling over HTTP', function () {
  this.timeout(120_000);
  let app: TestApp;
  let origin: string;

  before(async () => {
    app = await startTestApp();
    origin = new URL(app.baseUrl).origin;
    for (const [name, roles] of [['alice', ['ConfigManager']], ['reader', ['DataReader']]] as const) {
      expect((await app.request('POST', '/configuration/v1/users/create', { body: { name, password: `${name}-pw`, roles } })).status).to.equal(200);
    }
  });
  after(async () => app?.stop());

  it('REST: five wrong passwords are 401s, then 429 with Retry-After even for the right one; another address logs in', async () => {
    const me = `${app.baseUrl}${ME}`;
    // Good logins are not counted: many of them change nothing.
    for (let i = 0; i < 8; i++) expect((await request(me, { auth: basic('alice', 'alice-pw'), from: '127.0.0.1' })).status).to.equal(200);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await request(me, { auth: basic('alice', `guess-${i}`), from: '127.0.0.1' })).status);
    expect(statuses).to.deep.equal([401, 401, 401, 401, 401, 401]);
    const held = await request(me, { auth: basic('alice', 'wrong-again'), from: '127.0.0.1' });
    expect(held.status).to.equal(429);
    expect(Number(held.retryAfter)).to.be.within(1, 2);
    expect(JSON.parse(held.body)).to.include({ message: 'Too many failed logins; retry later' });
    const right = await request(me, { auth: basic('alice', 'alice-pw'), from: '127.0.0.1' });
    expect(right.status, 'the right password is not checked while held back').to.equal(429);
    // The same user from another address, and another user from this one, are not held back.
    expect((await request(me, { auth: basic('alice', 'alice-pw'), from: '127.0.0.2' })).status).to.equal(200);
    expect((await request(me, { auth: basic('admin', 'admindefault'), from: '127.0.0.1' })).status).to.equal(200);
  });

  it('broker login endpoint: the same, answered 429 with Retry-After; REST logins of that user are unaffected', async () => {
    const user = `${origin}/rabbitmq/auth/user`;
    const ask = (password: string): Promise<Answer> => request(user, { method: 'POST', from: '127.0.0.3', form: { username: 'reader', password } });
    expect((await ask('reader-pw')).body).to.equal('allow');
    const answers: string[] = [];
    for (let i = 0; i < 6; i++) answers.push((await ask(`guess-${i}`)).body);
    expect(answers).to.deep.equal(['deny', 'deny', 'deny', 'deny', 'deny', 'deny']);
    const held = await ask('reader-pw');
    expect(held.status).to.equal(429);
    expect(Number(held.retryAfter)).to.be.within(1, 2);
    expect(held.body).to.equal('deny');
    expect((await request(`${app.baseUrl}${ME}`, { auth: basic('reader', 'reader-pw'), from: '127.0.0.3' })).status).to.equal(200);
  });
});
