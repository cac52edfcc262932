// Every kind of secret tagtrail holds, set through the REST API with a
// distinctive random value and then used (the IoT reader password to call a
// simulated reader, the EPCIS password and bearer token to push to two
// repositories, the SNMP community in a trap, user passwords to log in over
// REST and the broker's login endpoint, an agent secret to check in, access
// tokens to authenticate, validate and revoke), is found in clear nowhere the
// service keeps or shows data: no event of the log (data and metadata, every
// stream), no Redis key or value under the service's prefix, no answer of a
// GET route (each one the OpenAPI document lists without a path parameter,
// and each resource shown by name), not the configuration archive (which
// holds the sealed ones in no form), not the retained log file nor its
// export, not a line the process logged, even at debug. Each secret is looked
// for as it is, in base64, and inside the Basic or Agent credentials that
// carry it. A secret added to tagtrail later belongs in SECRETS below.
import { EventStoreDBClient } from '@eventstore/db-client';
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { agentAuthorization } from '../../src/agents/guard';
import { encodeEvent } from '../../src/core/events';
import { healthEvents, healthStream, type HealthStreamEvent } from '../../src/health/events';
import { generateLayout } from '../../src/simulator/layout';
import { SimIotReader } from '../../src/simulator/iot-reader';
import { World } from '../../src/simulator/world';
import { logFiles } from '../../src/support/log-file';
import { basic, startTestApp, waitForCaughtUp, type TestApp } from '../support/app';
import { captureLogs, type CapturedLogs } from '../support/log-capture';
import { silent } from '../support/logger';
import { redisDump } from '../support/redis-dump';
import { retainedLogLines } from '../support/retained-log';
import { waitFor } from '../support/wait';
import { appendChanges, change } from '../queues/support';
import { Listener } from '../snmp/listener';

const secret = (kind: string): string => `${kind}-${randomUUID()}`;
const base64 = (text: string): string => Buffer.from(text).toString('base64');

const USER = `user-${randomUUID().slice(0, 8)}`;
const EPCIS_USER = 'tagtrail-partner';
/** Every secret of the test: name -> value. */
const SECRETS = {
  iotPassword: secret('iot-password'),
  epcisPassword: secret('epcis-password'),
  epcisBearerToken: secret('epcis-bearer'),
  snmpCommunity: secret('snmp-community'),
  userPassword: secret('user-password'),
  userPasswordReplaced: secret('user-password-2'),
  agentSecret: '', // issued by tagtrail
  token: '', // issued by tagtrail
  tokenIssuedForUser: '', // issued by tagtrail
};
type SecretName = keyof typeof SECRETS;

/** The forms a secret may take: as it is, in base64, and in the credentials that carry it. */
function formsOf(name: SecretName, value: string): string[] {
  const forms = [value, base64(value)];
  if (name === 'iotPassword') forms.push(base64(`root:${value}`));
  if (name === 'epcisPassword') forms.push(base64(`${EPCIS_USER}:${value}`));
  if (name.startsWith('userPassword')) forms.push(base64(`${USER}:${value}`));
  if (name === 'agentSecret') forms.push(agentAuthorization('agent-reader', value));
  return forms;
}

/** The secrets (by name) any of whose forms `text` holds. */
function secretsIn(text: string): SecretName[] {
  return (Object.entries(SECRETS) as Array<[SecretName, string]>).filter(([name, value]) => value !== '' && formsOf(name, value).some((f) => text.includes(f))).map(([name]) => name);
}

const text = (v: unknown): string => (v instanceof Uint8Array ? Buffer.from(v).toString('utf8') : JSON.stringify(v ?? null));

/** A capture endpoint that acknowledges every document and records the Authorization header of each repository (by path). */
class CaptureEndpoint {
  readonly authorizations = new Map<string, Set<string>>();
  private readonly server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    req.on('end', () => {
      const seen = this.authorizations.get(req.url ?? '') ?? new Set<string>();
      seen.add(req.headers.authorization ?? '');
      this.authorizations.set(req.url ?? '', seen);
      res.writeHead(202).end();
    });
  });

  async listen(): Promise<string> {
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  close(): void {
    this.server.close();
  }
}

describe('no secret is kept or shown in clear', function () {
  this.timeout(180_000);
  const dataDir = mkdtempSync(join(tmpdir(), 'tagtrail-secrets-in-clear-'));
  const layout = generateLayout({ facility: 'DEFAULT', readers: 1, families: ['SPEEDWAY'], tags: 1, seed: 5, prefix: 'sec-' });
  const reader = new SimIotReader({ reader: layout.readers[0]!, world: World.random(layout, 5), seed: 5, t0: Date.now(), timeScale: 1, port: 0, username: 'root', password: SECRETS.iotPassword, log: silent });
  const capture = new CaptureEndpoint();
  let snmp: Listener | undefined;
  let logs: CapturedLogs | undefined;
  let app: TestApp;
  let client: EventStoreDBClient | undefined;
  const since = new Date(Date.now() - 1000).toISOString();
  const until = <T>(what: string, probe: () => Promise<T | undefined>): Promise<T> => waitFor(what, probe, { timeoutMs: 30_000, intervalMs: 200, retryErrors: true });
  const ok = (res: { status: number; body: unknown }, what: string): void => {
    expect(res.status, `${what}: ${JSON.stringify(res.body)}`).to.be.oneOf([200, 204]);
  };

  before(async () => {
    // Debug, so every line reaches the retained file; captured, not printed.
    logs = captureLogs();
    await reader.listen();
    snmp = await Listener.open();
    // No engine: the test appends the item events EPCIS capture pushes.
    app = await startTestApp({ DATA_DIR: dataDir, ROLES: 'eventstore,api,projections,relay,readers', READERS_KEEPALIVE_SECONDS: '1' });
    client = EventStoreDBClient.connectionString(app.eventStoreConnectionString);
  });

  after(async () => {
    await snmp?.close();
    await client?.dispose();
    await app?.stop();
    logs?.restore();
    await reader.close();
    capture.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('an IoT reader password calls the reader', async () => {
    const connection = { protocol: 'IOT', scheme: 'http', port: reader.port, password: SECRETS.iotPassword, delivery: 'STREAM' };
    ok(await app.request('POST', '/configuration/v1/readerDefinitions/create', { body: { name: reader.name, address: '127.0.0.1', type: 'SPEEDWAY', facility: 'DEFAULT', connection } }), 'reader definition');
    await until('the reader reached with its password', async () => ((await app.request('GET', `/health/v1/readers/${reader.name}`)).body?.version?.Firmware === '8.2.1-sim' ? true : undefined));
  });

  it('EPCIS credentials reach their repositories', async () => {
    const base = await capture.listen();
    const repositories = [
      { name: 'basic', captureUrl: `${base}/basic`, username: EPCIS_USER, password: SECRETS.epcisPassword },
      { name: 'bearer', captureUrl: `${base}/bearer`, bearerToken: SECRETS.epcisBearerToken },
    ];
    for (const body of repositories) ok(await app.request('PUT', '/configuration/v1/epcisRepositories/createOrReplace', { body }), `repository ${body.name}`);
    await appendChanges(client!, [change({ epc: 'E28000000000000000005EC1' })]);
    await until('both repositories sent a document with their credentials', async () =>
      capture.authorizations.get('/basic')?.has(`Basic ${base64(`${EPCIS_USER}:${SECRETS.epcisPassword}`)}`) &&
      capture.authorizations.get('/bearer')?.has(`Bearer ${SECRETS.epcisBearerToken}`) ? true : undefined);
  });

  it('the SNMP community goes out in a trap', async () => {
    ok(await app.request('PUT', '/configuration/v1/settings/SNMP', { body: { authConfig: { type: 'V2_COMMUNITY', communityName: SECRETS.snmpCommunity }, trapTargetConfig: { host: '127.0.0.1', port: snmp!.port } } }), 'SNMP settings');
    const e = { type: 'HealthEventReported', data: { readerName: reader.name, eventTime: new Date().toISOString(), type: 'CONNECTION', code: 'NETWORK', args: {} } } as HealthStreamEvent;
    await client!.appendToStream(healthStream(reader.name), [encodeEvent(healthEvents, e, { user: 'test' })]);
    const [first] = await snmp!.waitFor(1, 30_000);
    expect(first!.community).to.equal(SECRETS.snmpCommunity);
  });

  it('user passwords log in (REST and broker), a replaced one no longer does', async () => {
    const USERS = '/configuration/v1/users';
    ok(await app.request('POST', `${USERS}/create`, { body: { name: USER, password: SECRETS.userPassword, roles: ['DataReader'] } }), 'user');
    expect((await app.request('GET', `${USERS}/currentUser`, { auth: basic(USER, SECRETS.userPassword) })).status).to.equal(200);
    ok(await app.request('PUT', `${USERS}/createOrReplace`, { body: { name: USER, password: SECRETS.userPasswordReplaced, roles: ['DataReader'] } }), 'password replaced');
    expect((await app.request('GET', `${USERS}/currentUser`, { auth: basic(USER, SECRETS.userPasswordReplaced) })).status).to.equal(200);
    expect((await app.request('GET', `${USERS}/currentUser`, { auth: basic(USER, SECRETS.userPassword) })).status).to.equal(401);
    const form = new URLSearchParams({ username: USER, password: SECRETS.userPasswordReplaced }).toString();
    const broker = await fetch(`${new URL(app.baseUrl).origin}/rabbitmq/auth/user`, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: form });
    expect(await broker.text()).to.match(/^allow/);
  });

  it('an agent secret checks in', async () => {
    ok(await app.request('POST', '/configuration/v1/readerDefinitions/create', { body: { name: 'agent-reader' } }), 'agent reader');
    const issued = await app.request('PUT', '/agent/v1/readers/agent-reader/secret');
    ok(issued, 'agent secret');
    SECRETS.agentSecret = issued.body.secret as string;
    const checkin = { agentId: 'sim-1', versions: { App: '1.0.0', Firmware: '7.6.1' }, state: 'IDLE' };
    expect((await app.request('POST', '/agent/v1/readers/agent-reader/checkin', { body: checkin, auth: agentAuthorization('agent-reader', SECRETS.agentSecret) })).status).to.equal(200);
  });

  it('tokens authenticate, validate and are revoked', async () => {
    const AUTH = '/authentication/v1';
    SECRETS.token = (await app.request('GET', `${AUTH}/token`)).body.token as string;
    SECRETS.tokenIssuedForUser = (await app.request('PUT', `${AUTH}/token/${USER}`)).body.token as string;
    expect((await app.request('GET', '/configuration/v1/users/currentUser', { auth: `Token {"token":"${SECRETS.token}"}` })).status).to.equal(200);
    expect((await app.request('POST', `${AUTH}/validateToken/${SECRETS.token}`)).status).to.equal(200);
    expect((await app.request('POST', `${AUTH}/validateToken`, { body: { token: SECRETS.tokenIssuedForUser } })).status).to.equal(200);
    expect((await app.request('PUT', `${AUTH}/revokeToken`, { body: { token: SECRETS.tokenIssuedForUser } })).status).to.equal(204);
  });

  describe('then, with every secret set and used', () => {
    before(async () => {
      expect(Object.entries(SECRETS).filter(([, v]) => v === ''), 'every secret set').to.deep.equal([]);
      await waitForCaughtUp(app);
    });

    it('no event of the log holds one, in its data or metadata; the sealed ones are there sealed', async () => {
      const found = new Map<string, SecretName[]>();
      const sealedIn = new Set<string>();
      let events = 0;
      for await (const r of client!.readAll()) {
        const e = r.event;
        if (e === undefined) continue;
        events += 1;
        const data = `${text(e.data)}\n${text(e.metadata)}`;
        const held = secretsIn(data);
        if (held.length > 0) found.set(`${e.streamId} ${e.type}`, held);
        if (data.includes('sealed:v1:')) sealedIn.add(e.streamId);
      }
      expect(events).to.be.greaterThan(20);
      expect(Object.fromEntries(found)).to.deep.equal({});
      expect([...sealedIn]).to.include.members([`readerDefinition-${reader.name}`, 'epcisRepository-basic', 'epcisRepository-bearer', 'settings-SNMP']);
    });

    it('no Redis key or value under the service\'s prefix holds one', async () => {
      const dump = await redisDump(app.keyPrefix);
      expect(dump).to.contain(`${app.keyPrefix}v1:config:epcisRepository`).and.to.contain(`${app.keyPrefix}v1:snmp:settings`);
      expect(secretsIn(dump)).to.deep.equal([]);
    });

    it('no answer of a GET route holds one, the configuration archive none in any form', async () => {
      const openapi = (await app.request('GET', '/openapi.json')).body as { paths: Record<string, Record<string, unknown>> };
      const gets = Object.entries(openapi.paths).filter(([p, ops]) => ops['get'] !== undefined && !p.includes('{')).map(([p]) => p);
      const shown = [`/configuration/v1/readerDefinitions/show/${reader.name}`, '/configuration/v1/epcisRepositories/show/basic', '/configuration/v1/epcisRepositories/show/bearer', `/configuration/v1/users/show/${USER}`];
      expect(gets).to.include.members(['/configuration/v1/settings/SNMP', '/configuration/v1/epcisRepositories/show', '/support/v1/configuration']);
      const found: Record<string, SecretName[]> = {};
      for (const path of [...gets, ...shown]) {
        const res = await app.request('GET', path);
        const held = secretsIn(typeof res.body === 'string' ? res.body : text(res.body));
        if (held.length > 0) found[`GET ${path} (${res.status})`] = held;
      }
      expect(found).to.deep.equal({});
      const archive = text((await app.request('GET', '/support/v1/configuration')).body);
      expect(archive).to.contain('settings-SNMP').and.to.contain(`readerDefinition-${reader.name}`);
      expect(archive, 'the archive holds a sealed secret').not.to.contain('sealed:');
    });

    it('no line of the retained log file, its export or the process\'s output holds one', async () => {
      const files = logFiles(dataDir);
      expect(files).to.have.length.greaterThan(0);
      const retained = files.map((f) => readFileSync(f, 'utf8')).join('');
      const exported = (await retainedLogLines(app, `?extended=true&from=${encodeURIComponent(since)}`)).map((l) => JSON.stringify(l)).join('\n');
      const printed = logs!.lines.join('');
      for (const [where, lines] of [['retained log file', retained], ['log export', exported], ['process output', printed]] as const) {
        // Debug lines are there (the request lines), so the check could fail ...
        expect(lines, where).to.contain('validateToken/***');
        // ... and no secret is.
        expect(secretsIn(lines), where).to.deep.equal([]);
      }
    });
  });
});
