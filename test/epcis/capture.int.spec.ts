// EPCIS capture end to end with real processes: the embedded event store
// alone (`npm run eventstore`), tagtrail (api, projections, relay) as a
// child process, and a small capture endpoint started here that stores what
// it acknowledges. The test appends ItemsChanged (the engine's contract) and
// checks that every fact arrives as a valid EPCIS 2.0 document with the
// repository's credentials, after a refused request (retried) and a SIGKILL
// of tagtrail in the middle of the stream (the endpoint kills it when the
// fifth document arrives, and answers nothing for that one): after the
// restart every event arrives, and none that was acknowledged comes again.
// The restarted process's /metrics count what it pushed: the documents and
// events the endpoint acknowledged from it, its one refused request and
// retry, and a lag back at zero.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { EventStoreDBClient } from '@eventstore/db-client';
import { expect } from 'chai';
import { eventIdOf } from '../../src/epcis/mapping';
import { ADMIN } from '../support/app';
import { childEnv, runEntryPoint, type RunningProcess } from '../support/tagtrailProcess';
import { removeRedisKeys, testRedisPrefix } from '../support/redis-prefix';
import { appendChanges, change } from '../queues/support';
import { waitFor } from '../support/wait';
import { epcisErrors } from './validate';

const CHANGES_PER_EVENT = 20;
const PER_DOCUMENT = 25;
const PASSWORD = 'capture-secret-7f3a';

describe('EPCIS capture (child processes): retries, SIGKILL mid-stream and restart lose nothing and resend nothing acknowledged', function () {
  this.timeout(180_000);
  const dataDir = mkdtempSync(join(tmpdir(), 'tagtrail-epcis-capture-'));
  const keyPrefix = testRedisPrefix();
  let store: RunningProcess | undefined;
  let service: RunningProcess | undefined;
  let baseUrl = '';
  let esPort = 0;
  let client: EventStoreDBClient | undefined;
  let endpoint: Server | undefined;
  const expected = new Set<string>();
  /** eventIDs of the acknowledged documents, in arrival order (duplicates kept). */
  const acknowledged: string[] = [];
  const invalid: string[] = [];
  const authorizations = new Set<string>();
  let requests = 0;
  let killAt = 0;
  /** The process answered now (1, then 2 after the restart), and what the endpoint acknowledged from the second one. */
  let generation = 1;
  let refuseNext = false;
  const fromSecond = { documents: 0, events: 0 };

  const startService = async (): Promise<RunningProcess> => {
    const proc = runEntryPoint('src/main.ts', childEnv({
      ROLES: 'api,projections,relay', PORT: '0', HOST: '127.0.0.1', EVENTSTORE_PORT: String(esPort),
      DATA_DIR: dataDir, REDIS_KEY_PREFIX: keyPrefix, LOG_LEVEL: 'debug', SHUTDOWN_TIMEOUT_MS: '5000',
    }));
    const listening = await proc.waitForLog((l) => l.msg === 'http listening', 45_000);
    baseUrl = `http://127.0.0.1:${Number(listening['port'])}/itemsense`;
    return proc;
  };
  const stream = async (events: number): Promise<void> => {
    for (let i = 0; i < events; i++) {
      const changes = Array.from({ length: CHANGES_PER_EVENT }, (_, k) => change({ epc: `E28000000000${String(expected.size + k).padStart(12, '0')}` }));
      const id = await appendChanges(client!, changes);
      changes.forEach((_, k) => expected.add(eventIdOf(id, String(k))));
    }
  };
  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      requests += 1;
      authorizations.add(req.headers.authorization ?? '');
      if (req.headers.authorization !== `Basic ${Buffer.from(`partner:${PASSWORD}`).toString('base64')}`) {
        res.writeHead(401).end();
        return;
      }
      if (requests === 1 || refuseNext) {
        refuseNext = false;
        res.writeHead(503, { 'Retry-After': '1' }).end('busy');
        return;
      }
      if (requests === killAt) {
        // The crash: tagtrail dies while this document is in flight; it is never acknowledged.
        service?.child.kill('SIGKILL');
        req.socket.destroy();
        return;
      }
      const doc = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { epcisBody: { eventList: Array<{ eventID: string }> } };
      const errors = epcisErrors(doc);
      if (errors.length > 0) invalid.push(...errors);
      acknowledged.push(...doc.epcisBody.eventList.map((e) => e.eventID));
      if (generation === 2) {
        fromSecond.documents += 1;
        fromSecond.events += doc.epcisBody.eventList.length;
      }
      res.writeHead(202, { Location: `/capture/${requests}` }).end();
    });
  };

  before(async () => {
    endpoint = createServer(handle);
    await new Promise<void>((r) => endpoint!.listen(0, '127.0.0.1', r));
    store = runEntryPoint('src/eventstore/main.ts', childEnv({ EVENTSTORE_PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'info' }));
    esPort = Number((await store.waitForLog((l) => l.msg === 'started', 45_000))['port']);
    client = EventStoreDBClient.connectionString(`esdb://127.0.0.1:${esPort}?tls=false`);
    service = await startService();
  });

  after(async () => {
    await client?.dispose().catch(() => undefined);
    for (const p of [service, store]) {
      if (p && p.child.exitCode === null && p.child.signalCode === null) {
        p.child.kill('SIGTERM');
        await p.exited;
      }
    }
    endpoint?.close();
    rmSync(dataDir, { recursive: true, force: true });
    await removeRedisKeys(keyPrefix);
  });

  it('configures a repository whose credentials are never shown', async () => {
    const port = (endpoint!.address() as AddressInfo).port;
    const body = { name: 'partner', captureUrl: `http://127.0.0.1:${port}/epcis/v2/capture`, username: 'partner', password: PASSWORD, maxEventsPerDocument: PER_DOCUMENT };
    const put = await fetch(`${baseUrl}/configuration/v1/epcisRepositories/createOrReplace`, { method: 'PUT', headers: { Authorization: ADMIN, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    const text = await put.text();
    expect(put.status, text).to.equal(200);
    expect(text).not.to.contain(PASSWORD);
    expect(JSON.parse(text)).to.include({ passwordSet: true, username: 'partner' });
    const show = await (await fetch(`${baseUrl}/configuration/v1/epcisRepositories/show`, { headers: { Authorization: ADMIN } })).text();
    expect(show).not.to.contain(PASSWORD);
  });

  it('pushes every event; a SIGKILL mid-stream and a restart lose nothing and resend nothing acknowledged', async () => {
    // Documents: the first request is refused (503) and retried; the fifth kills tagtrail.
    killAt = 6;
    await stream(20);
    await waitFor('tagtrail killed by the endpoint', () => service?.child.signalCode === 'SIGKILL', { timeoutMs: 60_000 });
    const atKill = acknowledged.length;
    // Four documents of at most PER_DOCUMENT (a batch of the log may end one early) were acknowledged.
    expect(atKill, 'killed mid-stream').to.be.within(4, 4 * PER_DOCUMENT);
    await stream(10); // the log goes on while tagtrail is down
    generation = 2;
    refuseNext = true;
    service = await startService();
    await stream(5);
    await waitFor(`all ${expected.size} events acknowledged`, () => new Set(acknowledged).size === expected.size, { timeoutMs: 90_000, intervalMs: 200 });
    expect(invalid, 'every document passes the EPCIS 2.0 schema').to.deep.equal([]);
    expect([...new Set(acknowledged)].sort()).to.deep.equal([...expected].sort());
    expect(acknowledged.length, 'no acknowledged event sent again').to.equal(expected.size);
    expect([...authorizations]).to.deep.equal([`Basic ${Buffer.from(`partner:${PASSWORD}`).toString('base64')}`]);
    const logs = [...(service?.stdoutLines ?? []), ...(service?.stderrLines ?? [])].join('\n');
    expect(logs).not.to.contain(PASSWORD);
    expect(logs).to.contain('epcis capture');
  });

  it('the pushing process\'s /metrics count its documents, events, failure and retry; its lag returns to zero', async () => {
    const scrape = async (): Promise<string> => {
      const res = await fetch(`${baseUrl}/metrics`, { headers: { Authorization: ADMIN } });
      expect(res.status).to.equal(200);
      return res.text();
    };
    /** The value of a series of repository "partner" (and the given labels), undefined when absent. */
    const value = (text: string, metric: string, labels = ''): number | undefined => {
      const line = text.split('\n').find((l) => l.startsWith(`${metric}{`) && l.includes('repository="partner"') && l.includes(labels));
      return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
    };
    const caughtUp = await waitFor('capture lag back to zero', async () => {
      const text = await scrape();
      return value(text, 'tagtrail_epcis_capture_lag_events') === 0 ? text : undefined;
    }, { timeoutMs: 30_000, intervalMs: 250 });
    expect(fromSecond.documents).to.be.greaterThan(0);
    expect(value(caughtUp, 'tagtrail_epcis_capture_documents_total'), 'documents').to.equal(fromSecond.documents);
    expect(value(caughtUp, 'tagtrail_epcis_capture_events_total'), 'events').to.equal(fromSecond.events);
    expect(value(caughtUp, 'tagtrail_epcis_capture_failures_total', 'reason="http_503"'), 'refused requests').to.equal(1);
    expect(value(caughtUp, 'tagtrail_epcis_capture_retries_total'), 'retries').to.equal(1);
    expect(value(caughtUp, 'tagtrail_epcis_capture_lag_seconds'), 'lag in seconds').to.equal(0);
    expect(caughtUp).not.to.contain(PASSWORD);
    expect(caughtUp).not.to.contain('/epcis/v2/capture');
  });
});
