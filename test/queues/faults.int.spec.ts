// Fault tests of the relay with real processes: the embedded event store runs
// alone (`npm run eventstore`), tagtrail (api, projections, relay, jobs) as a
// child process like `npm start`, and the test appends ItemsChanged (the
// engine's contract) as a stream while
// 1. tagtrail is SIGKILLed mid-stream and restarted: every expected message
//    arrives (duplicates allowed, recognised by messageId);
// 2. the broker closes the relay's connection (rabbitmqctl close_connection):
//    the relay reconnects and nothing is lost.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { EventStoreDBClient } from '@eventstore/db-client';
import { expect } from 'chai';
import { relayConnectionName } from '../../src/queues/relay';
import { ADMIN } from '../support/app';
import { childEnv, runEntryPoint, type RunningProcess, CHILD_START_MS } from '../support/tagtrailProcess';
import { removeRedisKeys, testRedisPrefix } from '../support/redis-prefix';
import { appendChanges, change, consume, type Consumer } from './support';
import { sleep } from '../support/wait';

const run = promisify(execFile);
const CHANGES_PER_EVENT = 20;

/** Closes, from the broker side, every connection named `name`; returns how many. */
async function closeConnectionsNamed(name: string): Promise<number> {
  // The table format prints pids as close_connection takes them (<rabbit@host.N.N.N>).
  const { stdout } = await run('rabbitmqctl', ['-q', 'list_connections', 'pid', 'client_properties']);
  const marker = JSON.stringify(['connection_name', name]).replace(/^\[/, '{').replace(/\]$/, '}');
  const pids = stdout.split('\n').filter((l) => l.includes(marker)).map((l) => l.split('\t')[0] ?? '');
  for (const pid of pids) await run('rabbitmqctl', ['close_connection', pid, 'fault test: closed by the broker']);
  return pids.length;
}

describe('relay faults (child processes): SIGKILL and broker-side connection close lose nothing', function () {
  this.timeout(300_000);
  const dataDir = mkdtempSync(join(tmpdir(), 'tagtrail-relay-faults-'));
  const keyPrefix = testRedisPrefix();
  let store: RunningProcess | undefined;
  let service: RunningProcess | undefined;
  let baseUrl = '';
  let esPort = 0;
  let client: EventStoreDBClient | undefined;
  let consumer: Consumer | undefined;
  const expected = new Set<string>();

  const startService = async (): Promise<RunningProcess> => {
    const proc = runEntryPoint('src/main.ts', childEnv({
      ROLES: 'api,projections,relay,jobs', PORT: '0', HOST: '127.0.0.1', EVENTSTORE_PORT: String(esPort),
      DATA_DIR: dataDir, REDIS_KEY_PREFIX: keyPrefix, LOG_LEVEL: 'info', SHUTDOWN_TIMEOUT_MS: '5000',
    }));
    const listening = await proc.waitForLog((l) => l.msg === 'http listening', CHILD_START_MS);
    await proc.waitForLog((l) => l.msg === 'relay started', CHILD_START_MS);
    baseUrl = `http://127.0.0.1:${Number(listening['port'])}/itemsense`;
    return proc;
  };
  const kill = async (p: RunningProcess | undefined, signal: NodeJS.Signals): Promise<void> => {
    if (!p || p.child.exitCode !== null || p.child.signalCode !== null) return;
    p.child.kill(signal);
    const killer = setTimeout(() => p.child.kill('SIGKILL'), 10_000);
    await p.exited;
    clearTimeout(killer);
  };
  /** Appends `events` ItemsChanged of CHANGES_PER_EVENT changes, recording the messageIds they must produce. */
  const stream = async (events: number, pauseMs = 0): Promise<void> => {
    if (!client) throw new Error('no client');
    for (let i = 0; i < events; i++) {
      const changes = Array.from({ length: CHANGES_PER_EVENT }, (_, k) => change({ epc: `E28000000000${String(expected.size + k).padStart(12, '0')}` }));
      const id = await appendChanges(client, changes);
      changes.forEach((_, k) => expected.add(`${id}:${k}`));
      if (pauseMs > 0) await sleep(pauseMs);
    }
  };
  const allArrived = async (timeoutMs = 60_000): Promise<void> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const ids = consumer?.ids() ?? new Set<string>();
      const missing = [...expected].filter((id) => !ids.has(id));
      if (missing.length === 0) return;
      if (Date.now() > deadline) throw new Error(`${missing.length} of ${expected.size} messages never arrived, e.g. ${missing.slice(0, 3).join(', ')}`);
      await sleep(200);
    }
  };

  before(async () => {
    store = runEntryPoint('src/eventstore/main.ts', childEnv({ EVENTSTORE_PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'info' }));
    esPort = Number((await store.waitForLog((l) => l.msg === 'started', CHILD_START_MS))['port']);
    client = EventStoreDBClient.connectionString(`esdb://127.0.0.1:${esPort}?tls=false`);
    service = await startService();
    const res = await fetch(`${baseUrl}/data/v1/items/queues`, { method: 'PUT', headers: { Authorization: ADMIN, 'Content-Type': 'application/json' }, body: '{}' });
    expect(res.status).to.equal(200);
    consumer = await consume(((await res.json()) as { queue: string }).queue);
  });

  after(async () => {
    await consumer?.close();
    await client?.dispose().catch(() => undefined);
    await kill(service, 'SIGTERM');
    await kill(store, 'SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
    await removeRedisKeys(keyPrefix);
  });

  it('SIGKILL mid-stream, events appended while down, restart: every message arrives', async () => {
    await stream(50);
    // Kill once the relay is visibly in the middle of the stream.
    const deadline = Date.now() + 30_000;
    while ((consumer?.messages.length ?? 0) < 100) {
      if (Date.now() > deadline) throw new Error('relay published nothing');
      await sleep(20);
    }
    service?.child.kill('SIGKILL');
    expect(await service?.exited).to.equal('SIGKILL');
    const atKill = consumer?.ids().size ?? 0;
    await stream(30); // the log goes on while tagtrail is down
    service = await startService();
    await stream(30);
    await allArrived();
    expect(atKill, 'killed mid-stream').to.be.lessThan(expected.size);
    expect(consumer?.ids().size).to.equal(expected.size);
  });

  it('the broker closes the relay connection mid-stream: it reconnects and nothing is lost', async () => {
    const pid = service?.child.pid;
    if (pid === undefined) throw new Error('no service');
    const before = expected.size;
    const streaming = stream(150, 20);
    while ((consumer?.ids().size ?? 0) < before + 200) await sleep(20);
    expect(await closeConnectionsNamed(relayConnectionName(pid)), 'relay connections closed').to.be.at.least(1);
    await service?.waitForLog((l) => l.msg === 'amqp reconnected' && String(l['component']).includes('relay'), 30_000);
    await streaming;
    await allArrived();
    expect(consumer?.ids().size).to.equal(expected.size);
  });
});
