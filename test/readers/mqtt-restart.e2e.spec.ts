// MQTT deliveries the broker kept for tagtrail while its link to an IoT
// reader was down are stored in the reader's job even when the job cannot be
// started on the reader again (the reader answers 503 to the preset start):
// every delivery tagtrail acknowledges is in a TagsReported of the job.
import { EventStoreDBClient } from '@eventstore/db-client';
import { expect } from 'chai';
import mqtt from 'mqtt';
import { tagReportEvents, tagReportsStream } from '../../src/agents/events';
import { readStream } from '../../src/core/eventstore';
import { generateLayout } from '../../src/simulator/layout';
import { SimIotReader } from '../../src/simulator/iot-reader';
import { World } from '../../src/simulator/world';
import { sleep } from '../support/wait';
import { appWithEnv, until } from './support';
import { silent } from '../support/logger';

const BROKER = 'mqtt://127.0.0.1:1883';
const epc = (n: number): string => `AC0000000000${n.toString(16).toUpperCase().padStart(12, '0')}`;

describe('IoT reader over MQTT: deliveries kept by the broker while the job cannot be restarted on the reader', function () {
  this.timeout(120_000);
  const topicPrefix = `tagtrail-test/${crypto.randomUUID()}`;
  const app = appWithEnv({ READERS_KEEPALIVE_SECONDS: '1', READERS_RECONNECT_MAX_SECONDS: '1', READERS_MQTT_URL: BROKER, READERS_MQTT_TOPIC_PREFIX: topicPrefix });
  const password = `pw-${crypto.randomUUID()}`;
  const layout = generateLayout({ facility: 'DEFAULT', readers: 1, families: ['SPEEDWAY'], tags: 3, seed: 5, prefix: `mqr-${Date.now().toString(36)}-` });
  let sim: SimIotReader;
  let publisher: mqtt.MqttClient;
  let store: EventStoreDBClient | undefined;
  // Made when the file runs, not when it is loaded: the reader's world starts at t0 (a serial run loads every file first).
  before(() => {
    sim = new SimIotReader({ reader: layout.readers[0]!, world: World.random(layout, 5), seed: 5, t0: Date.now(), timeScale: 1, port: 0, username: 'root', password, log: silent, windowMs: 300 });
    publisher = mqtt.connect(BROKER, { clientId: `tt-test-pub-${crypto.randomUUID()}` });
  });
  after(async () => {
    await sim?.close();
    await publisher?.endAsync().catch(() => undefined);
    await store?.dispose();
  });

  it('stores them in the job the reader acknowledged', async () => {
    const must = async (method: string, path: string, body?: unknown): Promise<any> => { // eslint-disable-line @typescript-eslint/no-explicit-any
      const res = await app().request(method, path, body === undefined ? {} : { body });
      expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).to.be.oneOf([200, 204]);
      return res.body;
    };
    store = EventStoreDBClient.connectionString(app().eventStoreConnectionString);
    const storedEpcs = async (): Promise<Set<string>> => {
      const events = (await readStream(store as EventStoreDBClient, tagReportsStream(sim.name), tagReportEvents)).events;
      return new Set(events.flatMap((e) => e.data.observations.map((o) => o.epc)));
    };
    await sim.listen();
    await must('PUT', '/configuration/v1/readerDefinitions/createOrReplace', {
      name: sim.name, address: '127.0.0.1', type: 'SPEEDWAY', facility: 'DEFAULT',
      connection: { protocol: 'IOT', scheme: 'http', port: sim.port, username: 'root', password, delivery: 'MQTT' },
    });
    await must('PUT', '/configuration/v1/readerConfigurations/createOrReplace', { name: 'mqr-inv', operation: 'INVENTORY', configuration: { readerMode: 'MAX_THROUGHPUT', session: 2, searchMode: 'DUAL_TARGET' } });
    await must('PUT', '/configuration/v1/recipes/createOrReplace', { name: 'mqr-recipe', type: 'INVENTORY', readerConfigurationName: 'mqr-inv', reportingInterval: 1 });
    const job = await must('POST', '/control/v1/jobs/start', { recipeName: 'mqr-recipe', facility: 'DEFAULT', startDelay: 'PT0S' });
    await until('the simulated reader reads in the job', async () => ((await storedEpcs()).size > 0 ? true : undefined));

    // The reader goes away: tagtrail's link drops (and its MQTT session waits at the broker).
    const port = sim.port;
    await sim.close();
    await until('connection lost recorded', async () => {
      const res = await app().request('POST', '/health/v1/events', { body: { readerNames: [sim.name], codes: ['NETWORK'] } });
      return res.body?.events?.length > 0 ? true : undefined;
    });
    await sleep(500);
    // Published at QoS 1 while tagtrail is not subscribed, as the reader would: the broker keeps them.
    const count = 25;
    for (let n = 0; n < count; n++) {
      const at = new Date().toISOString();
      await publisher.publishAsync(`${topicPrefix}/${sim.name}/events`, JSON.stringify({ timestamp: at, hostname: sim.name, eventType: 'tagInventory', tagInventoryEvent: { epcHex: epc(n), antennaPort: 1, peakRssiCdbm: -6000, lastSeenTime: at } }), { qos: 1 });
    }
    // The reader comes back unable to start the inventory.
    sim.failStart = 503;
    sim.port = port;
    await sim.listen();
    const stored = await until('every kept delivery stored in the job', async () => {
      const s = await storedEpcs();
      return [...Array(count).keys()].every((n) => s.has(epc(n))) ? s : undefined;
    });
    expect(stored.size).to.be.greaterThanOrEqual(count);
    const shown = await must('GET', `/control/v1/jobs/show/${job.id}`);
    expect(shown.status).to.equal('RUNNING');
    expect(shown.failedReaderNames).to.deep.equal([]);
  });
});
