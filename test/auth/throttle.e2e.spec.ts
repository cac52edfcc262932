// Failed-login throttling through the running app: after five wrong
// passwords a user is held back at that address (429 with Retry-After, even
// with the right password, which is not checked), while the same user logs in
// from another address; the broker's login endpoint is throttled the same
// way; good logins are never counted. And the figures docs/operations.md
// gives, measured: how many of a burst of parallel guesses get a password
// check, under many user names from one address and for one user, and how
// many of a burst sent the moment a hold ends (the service's clock is moved
// past the hold rather than waited for).
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
      expect((await app.request('POST', '/configuration/v1/users/create', { body: { name, password: `${name}-passphrase`, roles } })).status).to.equal(200);
    }
  });
  after(async () => app?.stop());

  it('REST: five wrong passwords are 401s, then 429 with Retry-After even for the right one; another address logs in', async () => {
    const me = `${app.baseUrl}${ME}`;
    // Good logins are not counted: many of them change nothing.
    for (let i = 0; i < 8; i++) expect((await request(me, { auth: basic('alice', 'alice-passphrase'), from: '127.0.0.1' })).status).to.equal(200);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await request(me, { auth: basic('alice', `guess-${i}`), from: '127.0.0.1' })).status);
    expect(statuses).to.deep.equal([401, 401, 401, 401, 401, 401]);
    const held = await request(me, { auth: basic('alice', 'wrong-again'), from: '127.0.0.1' });
    expect(held.status).to.equal(429);
    expect(Number(held.retryAfter)).to.be.within(1, 2);
    expect(JSON.parse(held.body)).to.include({ message: 'Too many failed logins; retry later' });
    const right = await request(me, { auth: basic('alice', 'alice-passphrase'), from: '127.0.0.1' });
    expect(right.status, 'the right password is not checked while held back').to.equal(429);
    // The same user from another address, and another user from this one, are not held back.
    expect((await request(me, { auth: basic('alice', 'alice-passphrase'), from: '127.0.0.2' })).status).to.equal(200);
    expect((await request(me, { auth: basic('admin', 'admindefault'), from: '127.0.0.1' })).status).to.equal(200);
  });

  /** How a burst of parallel attempts went: answered after a password check, or held back unchecked (429). */
  const tally = (answers: readonly Answer[], checked: (a: Answer) => boolean) => ({
    checked: answers.filter(checked).length,
    heldBack: answers.filter((a) => a.status === 429).length,
    other: answers.filter((a) => !checked(a) && a.status !== 429).map((a) => `${a.status} ${a.body}`),
  });
  const restChecked = (a: Answer): boolean => a.status === 401;
  const brokerChecked = (a: Answer): boolean => a.status === 200 && a.body === 'deny';
  const parallel = (n: number, attempt: (i: number) => Promise<Answer>): Promise<Answer[]> => Promise.all(Array.from({ length: n }, (_, i) => attempt(i)));
  /** Ends the hold of the 429s in `answers`: the service's clock moves past their Retry-After. */
  const endHold = (answers: readonly Answer[]): void => app.clock.advance(Math.max(...answers.map((a) => Number(a.retryAfter ?? 0))) * 1000);

  it('REST, 80 parallel guesses under 80 user names from one address: 31 password checks (the address\'s 30 free failures and the one that closes it), 49 held back', async () => {
    const me = `${app.baseUrl}${ME}`;
    const run = crypto.randomUUID().slice(0, 8);
    const answers = await parallel(80, (i) => request(me, { auth: basic(`nobody-${run}-${i}`, 'guess'), from: '127.0.0.4' }));
    expect(tally(answers, restChecked)).to.deep.equal({ checked: 31, heldBack: 49, other: [] });
    // The address is held back: another user's right password from it is not checked either.
    expect((await request(me, { auth: basic('alice', 'alice-passphrase'), from: '127.0.0.4' })).status).to.equal(429);
  });

  /** 50 guesses at once get 6 checks; 12 sent the moment the hold ends get one, whose failure holds the user again for 2 s. */
  const guessesAroundAHold = async (guess: () => Promise<Answer>, checked: (a: Answer) => boolean): Promise<void> => {
    const first = await parallel(50, guess);
    expect(tally(first, checked)).to.deep.equal({ checked: 6, heldBack: 44, other: [] });
    endHold(first);
    const burst = await parallel(12, guess);
    expect(tally(burst, checked)).to.deep.equal({ checked: 1, heldBack: 11, other: [] });
    expect(burst.filter((a) => a.status === 429).map((a) => a.retryAfter)).to.deep.equal(Array(11).fill('2'));
  };

  it('REST, 50 parallel guesses for one user from one address: 6 checks, 44 held back; after the hold, a burst of 12 gets one check and is held again', async () => {
    const me = `${app.baseUrl}${ME}`;
    await guessesAroundAHold(() => request(me, { auth: basic('alice', 'not-it'), from: '127.0.0.5' }), restChecked);
  });

  it('broker login endpoint, 50 parallel guesses for one user: 6 checks, 44 held back; after the hold, a burst of 12 gets one check and is held again', async () => {
    const user = `${origin}/rabbitmq/auth/user`;
    await guessesAroundAHold(() => request(user, { method: 'POST', from: '127.0.0.6', form: { username: 'reader', password: 'not-it' } }), brokerChecked);
  });

  it('good logins in parallel are never held back, and leave nothing counted', async () => {
    const me = `${app.baseUrl}${ME}`;
    const good = await parallel(40, () => request(me, { auth: basic('reader', 'reader-passphrase'), from: '127.0.0.7' }));
    expect(good.map((a) => a.status)).to.deep.equal(Array(40).fill(200));
    const guesses = await parallel(6, () => request(me, { auth: basic('reader', 'not-it'), from: '127.0.0.7' }));
    expect(guesses.map((a) => a.status), '40 good logins counted nothing: six wrong passwords are all checked').to.deep.equal(Array(6).fill(401));
  });

  it('broker login endpoint: the same, answered 429 with Retry-After; REST logins of that user are unaffected', async () => {
    const user = `${origin}/rabbitmq/auth/user`;
    const ask = (password: string): Promise<Answer> => request(user, { method: 'POST', from: '127.0.0.3', form: { username: 'reader', password } });
    expect((await ask('reader-passphrase')).body).to.equal('allow');
    const answers: string[] = [];
    for (let i = 0; i < 6; i++) answers.push((await ask(`guess-${i}`)).body);
    expect(answers).to.deep.equal(['deny', 'deny', 'deny', 'deny', 'deny', 'deny']);
    const held = await ask('reader-passphrase');
    expect(held.status).to.equal(429);
    expect(Number(held.retryAfter)).to.be.within(1, 2);
    expect(held.body).to.equal('deny');
    expect((await request(`${app.baseUrl}${ME}`, { auth: basic('reader', 'reader-passphrase'), from: '127.0.0.3' })).status).to.equal(200);
  });
});
