// Tokens are bearer secrets: only their digests are stored (event store and
// Redis), they are never logged (stdout, the retained log file, the log
// export), listTokens shows ids that revokeToken accepts, and tokens written
// in the older form (the token itself in the events and in Redis) keep
// working after an upgrade, with Redis rewritten to hold no token.
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { EventStoreDBClient, jsonEvent } from '@eventstore/db-client';
import { createClient } from 'redis';
import { startTestApp, basic, ADMIN, type TestApp } from '../support/app';
import { captureLogs, type CapturedLogs } from '../support/log-capture';
import { redisDump } from '../support/redis-dump';
import { tokenIdOf } from '../../src/auth/token-id';
import { waitFor } from '../support/wait';

const AUTH = '/authentication/v1';
const ME = '/configuration/v1/users/currentUser';
const tokenAuth = (token: string): string => `Token {"token":"${token}"}`;
const WRONG_PASSWORD = 'not-the-password-7f3a';

/** The raw JSON of every event of a stream. */
async function rawEvents(app: TestApp, stream: string): Promise<string> {
  const client = EventStoreDBClient.connectionString(app.eventStoreConnectionString);
  const out: string[] = [];
  try {
    for await (const e of client.readStream(stream)) out.push(JSON.stringify(e.event?.data));
  } finally {
    await client.dispose();
  }
  return out.join('\n');
}

async function exportedLogs(app: TestApp, since: string): Promise<string> {
  const res = await fetch(`${app.baseUrl}/support/v1/logs?extended=true&from=${encodeURIComponent(since)}`, { headers: { Authorization: ADMIN } });
  expect(res.status).to.equal(200);
  return gunzipSync(Buffer.from(await res.arrayBuffer())).toString('utf8');
}

const eventually = <T>(what: string, probe: () => Promise<T | undefined>): Promise<T> => waitFor(what, probe, { timeoutMs: 20_000, intervalMs: 100 });

describe('tokens are stored as digests and never logged', function () {
  this.timeout(120_000);
  let app: TestApp;
  let dataDir: string;
  let prefix: string;
  let logs: CapturedLogs | undefined;

  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'tagtrail-secrets-'));
    prefix = `tagtrail-test-${randomUUID()}:`;
    // Debug, so request lines reach stdout and the retained file whatever
    // level they are logged at; stdout is captured, not printed.
    logs = captureLogs();
    app = await startTestApp({ DATA_DIR: dataDir, REDIS_KEY_PREFIX: prefix, LOG_LEVEL: 'debug' });
  });

  after(async () => {
    logs?.restore();
    await app?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('a token issued, used, validated and revoked appears in no event, Redis key or log line', async () => {
    const since = new Date(Date.now() - 1000).toISOString();
    const token = (await app.request('GET', `${AUTH}/token`)).body.token as string;
    expect((await app.request('GET', ME, { auth: tokenAuth(token) })).status).to.equal(200);
    expect((await app.request('POST', `${AUTH}/validateToken/${token}`)).status).to.equal(200);
    expect((await app.request('POST', `${AUTH}/validateToken`, { body: { token } })).status).to.equal(200);
    expect((await app.request('GET', ME, { auth: basic('admin', WRONG_PASSWORD) })).status).to.equal(401);

    // listTokens shows the token's id, which is not the token and revokes it.
    const listed = (await app.request('GET', `${AUTH}/listTokens/admin`)).body as Array<{ authenticationToken: { token: string }; valid: boolean; lastUsed: string | null }>;
    expect(listed).to.have.length(1);
    const id = listed[0]!.authenticationToken.token;
    expect(id).to.equal(tokenIdOf(token)).and.not.equal(token);
    expect(listed[0]!.lastUsed).to.be.a('string');
    expect((await app.request('PUT', `${AUTH}/revokeToken`, { body: { token: id } })).status).to.equal(204);
    expect((await app.request('GET', ME, { auth: tokenAuth(token) })).status).to.equal(401);
    expect((await app.request('GET', `${AUTH}/listTokens/admin`)).body[0].valid).to.equal(false);

    const events = await rawEvents(app, 'tokens-admin');
    expect(events).to.include('tokenSha256');
    expect(events).to.not.include(token);
    const redis = await redisDump(prefix);
    expect(redis).to.include(id);
    expect(redis).to.not.include(token);

    const exported = await exportedLogs(app, since);
    const printed = logs!.lines.join('');
    for (const [where, text] of [['stdout', printed], ['log export', exported]] as const) {
      // The requests were logged (so the check below could fail) ...
      expect(text, where).to.include('validateToken/***');
      // ... without the token or the password.
      expect(text, where).to.not.include(token);
      expect(text, where).to.not.include(WRONG_PASSWORD);
    }
  });

  it('tokens of the older form (the token itself in the events and in Redis) still work after an upgrade, and leave Redis', async () => {
    const client = EventStoreDBClient.connectionString(app.eventStoreConnectionString);
    const inLog = randomUUID();
    const inRedis = randomUUID();
    const issued = new Date().toISOString();
    try {
      // Events as the service wrote them before tokens were stored hashed.
      await client.appendToStream('tokens-admin', [
        jsonEvent({ type: 'TokenIssued', data: { token: inLog, username: 'admin', issued } }),
        jsonEvent({ type: 'TokenIssued', data: { token: inRedis, username: 'admin', issued } }),
      ]);
    } finally {
      await client.dispose();
    }
    await eventually('the old-form token authenticates', async () => ((await app.request('GET', ME, { auth: tokenAuth(inLog) })).status === 200 ? true : undefined));
    const listed = ((await app.request('GET', `${AUTH}/listTokens/admin`)).body as Array<{ authenticationToken: { token: string } }>).map((e) => e.authenticationToken.token);
    expect(listed).to.include.members([tokenIdOf(inLog), tokenIdOf(inRedis)]);

    // Make Redis look as the older version left it: the token itself as the
    // hash field, with a last-used time, and the checkpoint already past the
    // events (so the projection does not rewrite it).
    await app.stop({ keepRedis: true });
    const redis = createClient({ url: process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379' });
    await redis.connect();
    const used = '2026-01-02T03:04:05.000Z';
    try {
      const docs = `${prefix}v1:tokens`;
      const doc = JSON.parse((await redis.hGet(docs, tokenIdOf(inRedis)))!) as Record<string, unknown>;
      await redis.hDel(docs, tokenIdOf(inRedis));
      await redis.hSet(docs, inRedis, JSON.stringify({ token: inRedis, username: 'admin', issued, valid: true, seq: doc['seq'] }));
      await redis.hSet(`${prefix}v1:token-last-used`, inRedis, used);
    } finally {
      await redis.quit();
    }
    expect(await redisDump(prefix)).to.include(inRedis);

    app = await startTestApp({ DATA_DIR: dataDir, REDIS_KEY_PREFIX: prefix, LOG_LEVEL: 'debug' });
    // The last-used time moved to the token's id.
    const after = (await app.request('GET', `${AUTH}/listTokens/admin`)).body as Array<{ authenticationToken: { token: string }; lastUsed: string | null }>;
    expect(after.find((e) => e.authenticationToken.token === tokenIdOf(inRedis))?.lastUsed).to.equal(used);
    expect((await app.request('GET', ME, { auth: tokenAuth(inRedis) })).status).to.equal(200);
    expect((await app.request('GET', ME, { auth: tokenAuth(inLog) })).status).to.equal(200);
    const dump = await redisDump(prefix);
    expect(dump).to.not.include(inRedis);
    expect(dump).to.not.include(inLog);
    // Revoking an old-form token by the token itself works too.
    expect((await app.request('PUT', `${AUTH}/revokeToken`, { body: { token: inLog } })).status).to.equal(204);
    expect((await app.request('GET', ME, { auth: tokenAuth(inLog) })).status).to.equal(401);
  });
});
