// Crash test of MQTT delivery, the whole service as a child process
// (`node --require tsx/cjs src/main.ts`): an IoT reader (the simulator plays
// its REST interface) runs a job with delivery MQTT; the test publishes a
// numbered stream of tag events to the reader's topic at QoS 1, as the reader
// would. Once the service has stored some of them but not all, it is SIGKILLed
// while the stream goes on (the broker queues what arrives meanwhile for tagtrail's
// persistent session), restarted on the same data directory and Redis prefix,
// and the stream goes on. Every published EPC must end up in a TagsReported of
// the reader, once: QoS 1 is at least once, so a delivery stored but not yet
// acknowledged at the kill comes again, and its reportId (made from the
// delivery) is answered as stored.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EventStoreDBClient } from '@eventstore/db-client';
import { expect } from 'chai';
import mqtt from 'mqtt';
import { tagReportEvents, tagReportsStream } from '../../src/agents/events';
import { readStream } from '../../src/core/eventstore';
import { generateLayout } from '../../src/simulator/layout';
import { SimIotReader } from '../../src/simulator/iot-reader';
import { World } from '../../src/simulator/world';
import { ADMIN } from '../support/app';
import { removeRedisKeys, testRedisPrefix } from '../support/redis-prefix';
import { childEnv, runEntryPoint, serviceUp, type RunningProcess } from '../support/tagtrailProcess';
import { until } from './support';
import { silent } from '../support/logger';

const BROKER = 'mqtt://127.0.0.1:1883';
const BEFORE_KILL = 60;
const WHILE_DOWN = 40;
const AFTER_RESTART = 60;
const MAX_BATCHES = 5;
/** Numbered EPCs of the test, apart from the simulator's own tags. */
const epc = (n: number): string => `AB0000000000${n.toString(16).toUpperCase().padStart(12, '0')}`;

interface Service {
  readonly proc: RunningProcess;
  readonly baseUrl: string;
  readonly client: EventStoreDBClient;
}

describe('IoT reader over MQTT: SIGKILL mid-stream and restart (child process)', function () {
  this.timeout(180_000);
  const dataDir = mkdtempSync(join(tmpdir(), 'tagtrail-mqtt-crash-'));
  const keyPrefix = testRedisPrefix();
  const topicPrefix = `tagtrail-test/${crypto.randomUUID()}`;
  const password = `pw-${crypto.randomUUID()}`;
  const layout = generateLayout({ facility: 'DEFAULT', readers: 1, families: ['SPEEDWAY'], tags: 1, seed: 3, prefix: `mqc-${Date.now().toString(36)}-` });
  const sim = new SimIotReader({ reader: layout.readers[0]!, world: World.random(layout, 3), seed: 3, t0: Date.now(), timeScale: 1, port: 0, username: 'root', password, log: silent, windowMs: 500 });
  const reader = sim.name;
  const publisher = mqtt.connect(BROKER, { clientId: `tt-test-pub-${crypto.randomUUID()}` });
  let service: Service | undefined;

  const start = async (): Promise<Service> => {
    const proc = runEntryPoint(
      'src/main.ts',
      childEnv({
        DATA_DIR: dataDir,
        REDIS_KEY_PREFIX: keyPrefix,
        LOG_LEVEL: 'info',
        READERS_MQTT_URL: BROKER,
        READERS_MQTT_TOPIC_PREFIX: topicPrefix,
        READERS_KEEPALIVE_SECONDS: '1',
        READERS_LEASE_SECONDS: '2',
        JOB_ACK_TIMEOUT_SECONDS: '60',
        SHUTDOWN_TIMEOUT_MS: '5000',
      }),
    );
    const up = await serviceUp(proc);
    return { proc, client: EventStoreDBClient.connectionString(up.connectionString), baseUrl: up.baseUrl };
  };

  after(async () => {
    if (service) {
      await service.client.dispose().catch(() => undefined);
      service.proc.child.kill('SIGTERM');
      const killer = setTimeout(() => service?.proc.child.kill('SIGKILL'), 10_000);
      await service.proc.exited;
      clearTimeout(killer);
    }
    await sim.close();
    await publisher.endAsync().catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
    await removeRedisKeys(keyPrefix);
  });

  const must = async (method: string, path: string, body?: unknown): Promise<any> => { // eslint-disable-line @typescript-eslint/no-explicit-any
    if (!service) throw new Error('no service');
    const headers: Record<string, string> = { Authorization: ADMIN };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const res = await fetch(`${service.baseUrl}${path}`, { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
    const text = await res.text();
    expect(res.status, `${method} ${path}: ${text}`).to.be.oneOf([200, 202, 204]);
    return text.length ? JSON.parse(text) : undefined;
  };
  /** EPC → how many TagsReported of the reader hold it. */
  const stored = async (): Promise<Map<string, number>> => {
    if (!service) throw new Error('no service');
    const counts = new Map<string, number>();
    for (const e of (await readStream(service.client, tagReportsStream(reader), tagReportEvents)).events) {
      for (const epcs of new Set(e.data.observations.map((o) => o.epc))) counts.set(epcs, (counts.get(epcs) ?? 0) + 1);
    }
    return counts;
  };
  /** The readers role's log lines of the running service, for a failure's message. */
  const readerLogs = (): string => (service ? [...service.proc.stdoutLines, ...service.proc.stderrLines].filter((l) => l.includes('tagtrail.readers')).slice(-30).join('\n') : '');
  let next = 0;
  /** Publishes tag events `next` .. `next + n - 1` at QoS 1 (each awaited: the broker has it). */
  const publish = async (n: number): Promise<void> => {
    for (const end = next + n; next < end; next++) {
      const at = new Date().toISOString();
      const event = { timestamp: at, hostname: reader, eventType: 'tagInventory', tagInventoryEvent: { epcHex: epc(next), antennaPort: 1, peakRssiCdbm: -5500, lastSeenTime: at } };
      await publisher.publishAsync(`${topicPrefix}/${reader}/events`, JSON.stringify(event), { qos: 1 });
    }
  };
  const ours = (counts: Map<string, number>): number => [...Array(next).keys()].filter((n) => counts.has(epc(n))).length;

  it('every EPC published at QoS 1 is stored, once, when the restarted service has caught up', async () => {
    await sim.listen();
    service = await start();
    await must('PUT', '/configuration/v1/readerDefinitions/createOrReplace', {
      name: reader, address: '127.0.0.1', type: 'SPEEDWAY', facility: 'DEFAULT',
      connection: { protocol: 'IOT', scheme: 'http', port: sim.port, username: 'root', password, delivery: 'MQTT' },
    });
    await must('PUT', '/configuration/v1/readerConfigurations/createOrReplace', { name: 'mqc-inv', operation: 'INVENTORY', configuration: { readerMode: 'MAX_THROUGHPUT', session: 2, searchMode: 'DUAL_TARGET' } });
    await must('PUT', '/configuration/v1/recipes/createOrReplace', { name: 'mqc-recipe', type: 'INVENTORY', readerConfigurationName: 'mqc-inv', reportingInterval: 1 });
    const job = await must('POST', '/control/v1/jobs/start', { recipeName: 'mqc-recipe', facility: 'DEFAULT', startDelay: 'PT0S' });
    await service.proc.waitForLog((l) => l.msg === 'reader started its job' && l['jobId'] === job.id, 60_000);

    // Publish until the service has stored part of the stream but not all of it (else one more
    // batch), then kill it while publishing goes on.
    for (let batches = 1; ; batches++) {
      await publish(BEFORE_KILL);
      const storedSoFar = await until('some of the stream stored', async () => {
        const n = ours(await stored());
        return n >= 5 ? n : undefined;
      }, 60_000).catch((err: Error) => {
        throw new Error(`${readerLogs()}\n${err.message}`);
      });
      if (storedSoFar < next) break;
      if (batches === MAX_BATCHES) throw new Error(`the service had stored each of ${MAX_BATCHES} batches before the kill could come mid-stream`);
    }
    const killed = service;
    const publishing = publish(WHILE_DOWN);
    killed.proc.child.kill('SIGKILL');
    expect(await killed.proc.exited).to.equal('SIGKILL');
    await killed.client.dispose().catch(() => undefined);
    service = undefined;
    await publishing;
    const publishedBeforeRestart = next;

    service = await start();
    await publish(AFTER_RESTART);
    const counts = await until('every published EPC stored', async () => {
      const c = await stored();
      return ours(c) === next ? c : undefined;
    }, 90_000).catch(async (err: Error) => {
      const c = await stored();
      const missing = [...Array(next).keys()].filter((n) => !c.has(epc(n)));
      throw new Error(`${readerLogs()}\n${err.message}; missing ${missing.length} of ${next} (published before the restart: ${publishedBeforeRestart}): ${missing.join(', ')}`);
    });
    // A delivery stored but not acknowledged at the kill came again: answered as stored, not stored twice.
    for (let n = 0; n < next; n++) expect(counts.get(epc(n)), epc(n)).to.equal(1);
  });
});
