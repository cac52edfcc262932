// One process pushes to the EPCIS repositories at a time (docs/epcis.md,
// "Capture"): two captures on one Redis namespace, as two relay processes
// run them; the second stands by without pushing while the first holds the
// capture lease, and takes over when the first stops, in the middle of a
// document the repository never acknowledged. Every event arrives, none that
// was acknowledged is sent again. The service (without the relay role)
// records the repository; the captures run in this process with a short
// lease against its event store and Redis; the repository is a small
// endpoint started here.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { EventStoreDBClient } from '@eventstore/db-client';
import { expect } from 'chai';
import { loadConfigOrThrow } from '../../src/config';
import { connectRedis, type RedisClient } from '../../src/core/redis/connect';
import { RedisKeys } from '../../src/core/redis/keys';
import { secretBox } from '../../src/core/secret-box';
import { eventIdOf } from '../../src/epcis/mapping';
import { startEpcisCapture } from '../../src/epcis/capture/capture';
import { ConfigReadModel } from '../../src/core/resource/readmodel';
import { startTestApp, type TestApp } from '../support/app';
import { expectStatus } from '../readerconfigurations/e2e-support';
import { testLogger } from '../support/eventstore';
import { appendChanges, change } from '../queues/support';
import { recordingLogger, type LogLine } from '../queues/relay-fixture';
import { sleep, waitFor } from '../support/wait';

const PER_DOCUMENT = 5;
// Long enough that a busy machine's event-loop stalls do not let a lease lapse by accident.
const LEASE_MS = 3000;

describe('EPCIS capture lease: one process pushes; a standby takes over when it stops, losing and resending nothing', function () {
  this.timeout(120_000);
  let app: TestApp;
  let client: EventStoreDBClient | undefined;
  let redis: RedisClient | undefined;
  let endpoint: Server | undefined;
  const captures: Array<{ stop(): Promise<void> }> = [];
  const expected = new Set<string>();
  /** eventIDs of the acknowledged documents, in arrival order (duplicates kept). */
  const acknowledged: string[] = [];
  let requests = 0;
  let holdAt = 0;
  /** The request the endpoint keeps unanswered (the first capture stops while it is in flight). */
  let held: { res: ServerResponse; events: string[] } | undefined;

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      requests += 1;
      const doc = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { epcisBody: { eventList: Array<{ eventID: string }> } };
      const events = doc.epcisBody.eventList.map((e) => e.eventID);
      if (requests === holdAt) {
        held = { res, events };
        return;
      }
      acknowledged.push(...events);
      res.writeHead(202).end();
    });
  };
  /** One ItemsChanged of `events` changes: one batch of the log, so documents of exactly PER_DOCUMENT events. */
  const stream = async (events: number): Promise<void> => {
    const changes = Array.from({ length: events }, (_, k) => change({ epc: `E28000000000${String(expected.size + k).padStart(12, '0')}` }));
    const id = await appendChanges(client!, changes);
    changes.forEach((_, k) => expected.add(eventIdOf(id, String(k))));
  };
  const start = (lines: LogLine[]): { stop(): Promise<void> } => {
    const keys = new RedisKeys(app.keyPrefix);
    const capture = startEpcisCapture({
      client: client!, redis: redis!, keys, logger: recordingLogger(lines), readModel: new ConfigReadModel(redis!, keys),
      // The repository has no credentials: any key serves.
      locationBaseUrl: 'https://tagtrail.test/epcis/', checkEveryMs: 200, leaseMs: LEASE_MS, secrets: secretBox(randomBytes(32)),
    });
    captures.push(capture);
    return capture;
  };
  const logged = (lines: LogLine[], msg: string): boolean => lines.some((l) => l.msg === msg);

  before(async () => {
    endpoint = createServer(handle);
    await new Promise<void>((r) => endpoint!.listen(0, '127.0.0.1', r));
    // No relay role: the only captures are the two this test starts.
    app = await startTestApp({ ROLES: 'eventstore,api,projections' });
    client = EventStoreDBClient.connectionString(app.eventStoreConnectionString);
    redis = await connectRedis(loadConfigOrThrow({}).redisUrl, testLogger('redis'), 5000);
  });

  after(async () => {
    for (const c of captures) await c.stop();
    held?.res.destroy();
    await client?.dispose().catch(() => undefined);
    await redis?.quit().catch(() => undefined);
    await new Promise((r) => endpoint?.close(r));
    await app?.stop();
  });

  it('the standby pushes nothing while the first holds the lease, then resends the unacknowledged document and goes on', async () => {
    const port = (endpoint!.address() as AddressInfo).port;
    const put = await app.request('PUT', '/configuration/v1/epcisRepositories/createOrReplace', {
      body: { name: 'partner', captureUrl: `http://127.0.0.1:${port}/epcis/v2/capture`, maxEventsPerDocument: PER_DOCUMENT },
    });
    expectStatus(put, 200);
    const linesA: LogLine[] = [];
    const linesB: LogLine[] = [];
    const a = start(linesA);
    await waitFor('the first capture pushing', () => logged(linesA, 'epcis capture: pushing to repository'));
    start(linesB);
    await waitFor('the second capture standing by', () => logged(linesB, 'epcis capture: standby, another relay holds the lease'));

    // The third document is held unanswered: the first capture stops while it is in flight.
    holdAt = 3;
    await stream(3 * PER_DOCUMENT);
    await waitFor('the third document in flight', () => held);
    const inFlight = held!.events;
    expect(acknowledged.length, 'two documents acknowledged before').to.equal(2 * PER_DOCUMENT);
    expect(inFlight.some((id) => acknowledged.includes(id)), 'the held document is new').to.equal(false);
    expect(logged(linesB, 'epcis capture: pushing to repository'), 'the standby pushed meanwhile').to.equal(false);

    await a.stop();
    // Never acknowledged: the repository drops it (the first capture is gone).
    held!.res.destroy();
    await waitFor('the standby taking over', () => logged(linesB, 'epcis capture: lease acquired, taking over') && logged(linesB, 'epcis capture: pushing to repository'));
    await stream(2 * PER_DOCUMENT);
    await waitFor(`all ${expected.size} events acknowledged`, () => new Set(acknowledged).size === expected.size, { timeoutMs: 30_000, intervalMs: 100 });
    await sleep(500); // a resend of anything already acknowledged would arrive meanwhile
    expect([...new Set(acknowledged)].sort()).to.deep.equal([...expected].sort());
    expect(acknowledged.length, 'no acknowledged event sent again').to.equal(expected.size);
    expect(acknowledged.filter((id) => inFlight.includes(id)).sort(), 'the document in flight at the stop arrives once').to.deep.equal([...inFlight].sort());
  });

  it('Redis lost what the capture kept there, then the capture restarted: nothing acknowledged is sent again', async () => {
    for (const c of captures.splice(0)) await c.stop();
    const keys = new RedisKeys(app.keyPrefix);
    for (const pattern of [`${keys.base}v1:epcis-capture*`, `${keys.checkpointPrefix}epcis-capture*`]) {
      for await (const found of redis!.scanIterator({ MATCH: pattern, COUNT: 500 })) if (found.length) await redis!.del(found);
    }
    const before = acknowledged.length;
    const lines: LogLine[] = [];
    start(lines);
    await waitFor('the capture pushing again', () => logged(lines, 'epcis capture: pushing to repository'));
    await stream(2 * PER_DOCUMENT);
    await waitFor(`all ${expected.size} events acknowledged`, () => new Set(acknowledged).size === expected.size, { timeoutMs: 30_000, intervalMs: 100 });
    await sleep(500); // a resend of the log would arrive meanwhile
    expect(acknowledged.length - before, 'only the new events').to.equal(2 * PER_DOCUMENT);
  });
});
