// An Impinj IoT reader delivering over the HTTP stream starts reading as soon
// as it is told to, and its first tag events can reach tagtrail before its
// answer to the start does. Here a reader written by hand (the few REST
// endpoints the link calls) sends its events on the stream first and answers
// the start half a second later: the link keeps those reads and stores them in
// the job, each once.
import http from 'node:http';
import { expect } from 'chai';
import { appWithEnv, mustOf, storedObservations, until } from './support';

const EVENTS = 15;
const epc = (n: number): string => `AC1100000000000000000${n.toString(16).toUpperCase().padStart(3, '0')}`;

describe('IoT reader over the HTTP stream: reads before the answer to the start', function () {
  this.timeout(120_000);
  const app = appWithEnv({ READERS_KEEPALIVE_SECONDS: '1', READERS_RECONNECT_MAX_SECONDS: '1', JOB_ACK_TIMEOUT_SECONDS: '60' });
  const streams = new Set<http.ServerResponse>();
  let starts = 0;
  const reader = http.createServer((req, res) => {
    const path = (req.url ?? '').replace(/^\/api\/v1/, '');
    const answer = (status: number, body?: unknown): void => {
      res.writeHead(status, body === undefined ? {} : { 'Content-Type': 'application/json' });
      res.end(body === undefined ? undefined : JSON.stringify(body));
    };
    req.resume();
    if (req.method === 'GET' && path === '/status') return answer(200, { status: 'idle' });
    if (req.method === 'GET' && path === '/system/image') return answer(200, { primaryFirmware: '8.2.1-hand' });
    if (req.method === 'GET' && path === '/data/stream') {
      res.writeHead(200, { 'Content-Type': 'application/x-ndjson' });
      res.write('\r\n');
      streams.add(res);
      res.on('close', () => streams.delete(res));
      return;
    }
    if (req.method === 'PUT' && path === '/profiles/inventory/presets/tagtrail') return answer(204);
    if (req.method === 'POST' && path === '/profiles/inventory/presets/tagtrail/start') {
      // The reader reads at once: its events go out on the stream before the answer to the start.
      if (starts++ === 0) {
        const at = new Date().toISOString();
        for (const s of streams) for (let n = 0; n < EVENTS; n++) s.write(`${JSON.stringify({ timestamp: at, hostname: 'hand', eventType: 'tagInventory', tagInventoryEvent: { epcHex: epc(n), antennaPort: 1, peakRssiCdbm: -5000, lastSeenTime: at } })}\n`);
      }
      setTimeout(() => answer(204), 500);
      return;
    }
    if (req.method === 'POST' && path === '/profiles/stop') return answer(204);
    answer(404, { message: `no ${req.method} ${path}` });
  });

  before(async () => {
    await new Promise<void>((resolve) => reader.listen(0, '127.0.0.1', () => resolve()));
  });
  after(async () => {
    for (const s of streams) s.destroy();
    reader.closeAllConnections();
    await new Promise<void>((resolve) => reader.close(() => resolve()));
  });

  it('keeps them and stores them in the job once it is known', async () => {
    const must = mustOf(app());
    const name = `hand-${crypto.randomUUID().slice(0, 8)}`;
    const port = (reader.address() as { port: number }).port;
    await must('PUT', '/configuration/v1/readerDefinitions/createOrReplace', { name, address: '127.0.0.1', type: 'SPEEDWAY', facility: 'DEFAULT', connection: { protocol: 'IOT', scheme: 'http', port, username: 'root', password: 'pw', delivery: 'STREAM' } });
    await must('PUT', '/configuration/v1/readerConfigurations/createOrReplace', { name: 'hand-inv', operation: 'INVENTORY', configuration: { readerMode: 'MAX_THROUGHPUT', session: 2, searchMode: 'DUAL_TARGET' } });
    await must('PUT', '/configuration/v1/recipes/createOrReplace', { name: 'hand-recipe', type: 'INVENTORY', readerConfigurationName: 'hand-inv', reportingInterval: 1 });
    await until('the link streaming', async () => (streams.size > 0 ? true : undefined));
    await must('POST', '/control/v1/jobs/start', { recipeName: 'hand-recipe', facility: 'DEFAULT', startDelay: 'PT0S' });
    const sent = Array.from({ length: EVENTS }, (_, n) => epc(n));
    const stored = await until('every read stored', async () => {
      const o = await storedObservations(app(), name);
      return sent.every((e) => o.some((x) => x.epc === e)) ? o : undefined;
    });
    expect(stored.map((o) => [o.epc, o.readCount]).sort()).to.deep.equal(sent.map((e) => [e, 1]).sort());
  });
});
