// Two readers streaming numbered tag reads into one job while a test breaks
// something under the service: an LLRP reader (the simulator, its reads sent
// by hand with sendReads: one RO_ACCESS_REPORT per read) and an Impinj IoT
// reader delivering over MQTT (the simulator plays its REST interface; the
// test publishes its tag events at QoS 1 to the reader's topic on the
// machine's Mosquitto, as the reader would). Both simulators' own radios are
// silent (no tags in their world), so every read of the run is one the test
// sent, each EPC once. `expectEachStoredOnce` then checks the event log.
import { expect } from 'chai';
import mqtt from 'mqtt';
import { generateLayout } from '../../src/simulator/layout';
import { SimIotReader } from '../../src/simulator/iot-reader';
import { SimLlrpReader } from '../../src/simulator/llrp-reader';
import { World } from '../../src/simulator/world';
import { metrics } from '../../src/core/metrics';
import type { TestApp } from '../support/app';
import { silent } from '../support/logger';
import { sleep } from '../support/wait';
import { mustOf, storedObservations, until } from './support';

export const BROKER = 'mqtt://127.0.0.1:1883';

/** The service's settings the readers need: quick keepalives and reconnects, the run's own MQTT topics. */
export const streamingEnv = (topicPrefix: string): Record<string, string> => ({
  READERS_KEEPALIVE_SECONDS: '1',
  READERS_RECONNECT_MAX_SECONDS: '1',
  READERS_MQTT_URL: BROKER,
  READERS_MQTT_TOPIC_PREFIX: topicPrefix,
  JOB_ACK_TIMEOUT_SECONDS: '60',
});

/** EPC → tag reads stored for it (the readCount of every observation of it in the reader's TagsReported). */
async function readsStored(app: TestApp, reader: string): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const o of await storedObservations(app, reader)) counts.set(o.epc, (counts.get(o.epc) ?? 0) + o.readCount);
  return counts;
}

export class StreamingReaders {
  readonly llrp: SimLlrpReader;
  readonly iot: SimIotReader;
  /** EPCs each reader sent, in order. */
  readonly sent = { llrp: [] as string[], mqtt: [] as string[] };
  jobId = '';
  private readonly publisher: mqtt.MqttClient;
  private readonly password = `pw-${crypto.randomUUID()}`;
  private readonly run = crypto.randomUUID().replace(/-/g, '').slice(0, 8).toUpperCase();
  private streaming: Promise<void> | undefined;
  private going = false;
  private n = 0;

  constructor(private readonly topicPrefix: string) {
    const layout = generateLayout({ facility: 'DEFAULT', readers: 2, families: ['SPEEDWAY'], tags: 0, seed: 11, prefix: `st-${this.run.toLowerCase()}-` });
    const world = World.random(layout, 11);
    // An hour between radio windows: the simulators read nothing of their own.
    const common = { world, seed: 11, t0: Date.now(), timeScale: 1, port: 0, log: silent, windowMs: 3_600_000 };
    this.llrp = new SimLlrpReader({ ...common, reader: layout.readers[0]! });
    this.iot = new SimIotReader({ ...common, reader: layout.readers[1]!, username: 'root', password: this.password });
    this.publisher = mqtt.connect(BROKER, { clientId: `tt-test-pub-${crypto.randomUUID()}` });
  }

  /** Defines both readers and starts a job on them; resolves once a first read of each is stored. */
  async start(app: TestApp): Promise<void> {
    const must = mustOf(app);
    await this.llrp.listen();
    await this.iot.listen();
    await must('PUT', '/configuration/v1/readerDefinitions/createOrReplace', { name: this.llrp.name, address: '127.0.0.1', type: 'SPEEDWAY', facility: 'DEFAULT', connection: { protocol: 'LLRP', port: this.llrp.port } });
    await must('PUT', '/configuration/v1/readerDefinitions/createOrReplace', {
      name: this.iot.name, address: '127.0.0.1', type: 'SPEEDWAY', facility: 'DEFAULT',
      connection: { protocol: 'IOT', scheme: 'http', port: this.iot.port, username: 'root', password: this.password, delivery: 'MQTT' },
    });
    await must('PUT', '/configuration/v1/readerConfigurations/createOrReplace', { name: 'st-inv', operation: 'INVENTORY', configuration: { readerMode: 'MAX_THROUGHPUT', session: 2, searchMode: 'DUAL_TARGET' } });
    await must('PUT', '/configuration/v1/recipes/createOrReplace', { name: 'st-recipe', type: 'INVENTORY', readerConfigurationName: 'st-inv', reportingInterval: 1 });
    this.jobId = String((await must('POST', '/control/v1/jobs/start', { recipeName: 'st-recipe', facility: 'DEFAULT', startDelay: 'PT0S' })).id);
    await until('the LLRP reader running its ROSpec', async () => (this.llrp.reading ? true : undefined));
    this.stream();
    await this.storedAtLeast(app, 1, 60_000);
  }

  /** Sends one read of each reader every 50 ms until `stop`. */
  private stream(): void {
    this.going = true;
    this.streaming = (async () => {
      while (this.going) {
        const epc = (reader: number): string => `AD${this.run}${reader}${(this.n).toString(16).toUpperCase().padStart(13, '0')}`;
        this.n++;
        const viaLlrp = epc(1);
        if (this.llrp.sendReads([viaLlrp])) this.sent.llrp.push(viaLlrp);
        const viaMqtt = epc(2);
        const at = new Date().toISOString();
        const event = { timestamp: at, hostname: this.iot.name, eventType: 'tagInventory', tagInventoryEvent: { epcHex: viaMqtt, antennaPort: 1, peakRssiCdbm: -5500, lastSeenTime: at } };
        // Resolves once the broker has it (PUBACK): from then on, it is the service's to store.
        await this.publisher.publishAsync(`${this.topicPrefix}/${this.iot.name}/events`, JSON.stringify(event), { qos: 1 });
        this.sent.mqtt.push(viaMqtt);
        await sleep(50);
      }
    })();
  }

  /** Stops sending. */
  async stop(): Promise<void> {
    this.going = false;
    await this.streaming;
  }

  /** Resolves once at least `atLeast` reads of each reader are stored in all. */
  async storedAtLeast(app: TestApp, atLeast: number, timeoutMs = 90_000): Promise<void> {
    await until(`${atLeast} reads of each reader stored`, async () => {
      const [llrp, viaMqtt] = await Promise.all([readsStored(app, this.llrp.name), readsStored(app, this.iot.name)]);
      return llrp.size >= atLeast && viaMqtt.size >= atLeast ? true : undefined;
    }, timeoutMs);
  }

  /**
   * Waits until every EPC sent is stored, then checks each is in the log exactly once (one
   * read, in one observation of one TagsReported), none other stored, and none dropped.
   */
  async expectEachStoredOnce(app: TestApp): Promise<void> {
    for (const [reader, sent] of [[this.llrp.name, this.sent.llrp], [this.iot.name, this.sent.mqtt]] as const) {
      const stored = await until(`every read of ${reader} stored (${sent.length} sent)`, async () => {
        const s = await readsStored(app, reader);
        return sent.every((e) => s.has(e)) ? s : undefined;
      }, 120_000).catch(async (err: Error) => {
        const s = await readsStored(app, reader);
        const missing = sent.filter((e) => !s.has(e));
        throw new Error(`${err.message}; ${missing.length} of ${sent.length} missing: ${missing.slice(0, 10).join(', ')}`);
      });
      const twice = [...stored].filter(([, n]) => n !== 1);
      expect(twice, `reads of ${reader} stored more than once`).to.deep.equal([]);
      expect([...stored.keys()].sort(), `reads of ${reader}`).to.deep.equal([...sent].sort());
      const dropped = (await metrics.readerReadsDropped.get()).values.filter((v) => v.labels['reader'] === reader && v.value > 0);
      expect(dropped, `reads of ${reader} dropped`).to.deep.equal([]);
    }
  }

  async close(): Promise<void> {
    await this.stop();
    await this.publisher.endAsync().catch(() => undefined);
    await this.llrp.close();
    await this.iot.close();
  }
}
