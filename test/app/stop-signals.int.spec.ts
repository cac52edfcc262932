// The service stopped by a signal sent to its whole process group while an
// LLRP reader streams reads into a running job: as a terminal's Ctrl-C does
// (SIGINT to the foreground group), systemd's stop of a unit (SIGTERM to
// every process of it) or `docker stop` (SIGTERM). Through npm the service
// gets each such signal twice (npm passes on what it got itself), and an
// impatient operator may send it again. Either way the shutdown must run to
// its end: the reader is sent CLOSE_CONNECTION, every read the reader sent
// before it answered is in the event log exactly once, and the exit code is 0.
//
// Between the service and the simulated reader sits a TCP relay that reads
// the LLRP message headers of both directions (LLRP 1.1, section 4.1: 3 bits
// reserved, 3 bits version, 10 bits message type, then the 32-bit length of
// the whole message and the 32-bit message id), so what the service said and
// what reached it are seen from outside the code under test. The reader's own
// radio is silent; the test sends one read per RO_ACCESS_REPORT, each EPC
// once, so the n-th report the relay passed on carries the n-th EPC sent.
import { expect } from 'chai';
import net from 'node:net';
import path from 'node:path';
import { EventStoreDBClient } from '@eventstore/db-client';
import { tagReportEvents, tagReportsStream } from '../../src/agents/events';
import { readStream } from '../../src/core/eventstore';
import { startEmbeddedEventStore } from '../../src/eventstore/server';
import { generateLayout } from '../../src/simulator/layout';
import { SimLlrpReader } from '../../src/simulator/llrp-reader';
import { World } from '../../src/simulator/world';
import { requestAt } from '../support/app';
import { silent } from '../support/logger';
import { childEnv, parseLogLines, removeChildState, runCommand, serviceUp, CHILD_START_MS, type RunningProcess } from '../support/tagtrailProcess';
import { sleep } from '../support/wait';
import { until } from '../readers/support';

/** LLRP message types (LLRP 1.1, section 16.1.1) the relay looks for. */
const CLOSE_CONNECTION = 14;
const CLOSE_CONNECTION_RESPONSE = 4;
const RO_ACCESS_REPORT = 61;

/** Splits one direction of an LLRP stream into message types, in order. */
class LlrpHeaders {
  readonly types: number[] = [];
  private pending = Buffer.alloc(0);

  push(chunk: Buffer): void {
    this.pending = Buffer.concat([this.pending, chunk]);
    while (this.pending.length >= 10) {
      const length = this.pending.readUInt32BE(2);
      if (length < 10 || this.pending.length < length) break;
      this.types.push(this.pending.readUInt16BE(0) & 0x3ff);
      this.pending = this.pending.subarray(length);
    }
  }
}

/** A TCP relay between the service (as LLRP host) and the simulated reader. */
class LlrpRelay {
  readonly fromHost = new LlrpHeaders();
  readonly fromReader = new LlrpHeaders();
  port = 0;
  private readonly server: net.Server;
  private readonly sockets = new Set<net.Socket>();

  constructor(readerPort: number) {
    this.server = net.createServer((host) => {
      const reader = net.connect(readerPort, '127.0.0.1');
      for (const s of [host, reader]) {
        this.sockets.add(s);
        s.on('error', () => undefined);
        s.on('close', () => this.sockets.delete(s));
      }
      host.on('data', (c: Buffer) => {
        this.fromHost.push(c);
        reader.write(c);
      });
      reader.on('data', (c: Buffer) => {
        this.fromReader.push(c);
        host.write(c);
      });
      host.on('end', () => reader.end());
      reader.on('end', () => host.end());
    });
  }

  async listen(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as net.AddressInfo).port;
  }

  /** RO_ACCESS_REPORTs passed on to the service before the reader's answer to CLOSE_CONNECTION (all of them if none came). */
  reportsBeforeClose(): number {
    const types = this.fromReader.types;
    const end = types.indexOf(CLOSE_CONNECTION_RESPONSE);
    return (end < 0 ? types : types.slice(0, end)).filter((t) => t === RO_ACCESS_REPORT).length;
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

interface Case {
  readonly title: string;
  /** The command that runs the service, leading its own process group. */
  readonly command: readonly [string, readonly string[]];
  readonly signal: NodeJS.Signals;
  /** Send the signal to the group a second time once shutdown has started. */
  readonly twice: boolean;
}

const CASES: readonly Case[] = [
  // systemd (KillMode=control-group) or a container: node leads its group; an operator repeats the stop.
  { title: 'node alone, SIGTERM to its group, then SIGTERM again during shutdown', command: [process.execPath, ['--require', 'tsx/cjs', 'src/main.ts']], signal: 'SIGTERM', twice: true },
  // A terminal's Ctrl-C under npm: SIGINT to npm and node, and npm passes its own on to node.
  { title: 'under npm (npm run dev), SIGINT to the group: the service gets it twice', command: ['npm', ['run', '--silent', 'dev']], signal: 'SIGINT', twice: false },
];

describe('stopping by a signal to the process group during LLRP ingestion', function () {
  this.timeout(300_000);
  after(async () => removeChildState());

  for (const c of CASES) {
    describe(c.title, () => {
      let proc: RunningProcess | undefined;
      let sim: SimLlrpReader | undefined;
      let relay: LlrpRelay | undefined;
      let streaming: Promise<void> | undefined;
      let going = false;

      afterEach(async () => {
        going = false;
        await streaming;
        if (proc && proc.child.exitCode === null && proc.child.signalCode === null) {
          process.kill(-(proc.child.pid as number), 'SIGKILL');
          await proc.exited;
        }
        await relay?.close();
        await sim?.close();
      });

      it('closes the reader connection with CLOSE_CONNECTION, stores every read the reader sent, and exits 0', async () => {
        const env = childEnv({ READERS_KEEPALIVE_SECONDS: '1', READERS_RECONNECT_MAX_SECONDS: '1', JOB_ACK_TIMEOUT_SECONDS: '60', SHUTDOWN_TIMEOUT_MS: '30000', LOG_LEVEL: 'info' });
        const run = crypto.randomUUID().replace(/-/g, '').slice(0, 8).toUpperCase();
        const layout = generateLayout({ facility: 'DEFAULT', readers: 1, families: ['SPEEDWAY'], tags: 0, seed: 3, prefix: `sig-${run.toLowerCase()}-` });
        // An hour between radio windows: the reader reads nothing of its own.
        sim = new SimLlrpReader({ reader: layout.readers[0]!, world: World.random(layout, 3), seed: 3, t0: Date.now(), timeScale: 1, port: 0, log: silent, windowMs: 3_600_000 });
        await sim.listen();
        relay = new LlrpRelay(sim.port);
        await relay.listen();

        proc = runCommand(c.command[0], c.command[1], env, { detached: true });
        const { baseUrl, connectionString } = await serviceUp(proc);
        const request = requestAt(baseUrl);
        const must = async (method: string, p: string, body: unknown): Promise<any> => { // eslint-disable-line @typescript-eslint/no-explicit-any
          const res = await request(method, p, { body });
          expect(res.status, `${method} ${p}: ${JSON.stringify(res.body)}`).to.equal(200);
          return res.body;
        };
        await must('PUT', '/configuration/v1/readerDefinitions/createOrReplace', { name: sim.name, address: '127.0.0.1', type: 'SPEEDWAY', facility: 'DEFAULT', connection: { protocol: 'LLRP', port: relay.port } });
        await must('PUT', '/configuration/v1/readerConfigurations/createOrReplace', { name: 'sig-inv', operation: 'INVENTORY', configuration: { readerMode: 'MAX_THROUGHPUT', session: 2, searchMode: 'DUAL_TARGET' } });
        await must('PUT', '/configuration/v1/recipes/createOrReplace', { name: 'sig-recipe', type: 'INVENTORY', readerConfigurationName: 'sig-inv', reportingInterval: 1 });
        await must('POST', '/control/v1/jobs/start', { recipeName: 'sig-recipe', facility: 'DEFAULT', startDelay: 'PT0S' });
        const reader = sim;
        await until('the reader running its ROSpec', async () => (reader.reading ? true : undefined), CHILD_START_MS);

        // One read every 20 ms, each EPC once, until the reader stops reading or the test ends.
        const sent: string[] = [];
        going = true;
        streaming = (async () => {
          for (let n = 0; going; n++) {
            const epc = `AD${run}${n.toString(16).toUpperCase().padStart(14, '0')}`;
            if (reader.sendReads([epc])) sent.push(epc);
            await sleep(20);
          }
        })();

        // Reads are being stored when the signal comes.
        const store = EventStoreDBClient.connectionString(connectionString);
        const storedEpcs = async (client: EventStoreDBClient): Promise<string[]> => {
          const { events } = await readStream(client, tagReportsStream(reader.name), tagReportEvents);
          return events.flatMap((e) => e.data.observations.flatMap((o) => Array<string>(o.readCount).fill(o.epc)));
        };
        try {
          await until('reads stored while the job runs', async () => ((await storedEpcs(store)).length >= 20 ? true : undefined), 60_000);
        } finally {
          await store.dispose();
        }

        const group = -(proc.child.pid as number);
        process.kill(group, c.signal);
        if (c.twice) {
          await proc.waitForLog((l) => l.msg === 'shutdown started', 30_000);
          process.kill(group, c.signal);
        }
        const code = await proc.exited;
        going = false;
        await streaming;
        const output = [...proc.stdoutLines, ...proc.stderrLines].join('\n');
        expect(code, output).to.equal(0);
        const logs = parseLogLines(proc.stdoutLines);
        expect(logs.filter((l) => l.msg === 'shutdown finished').map((l) => l['code']), output).to.deep.equal([0]);
        // A second delivery during shutdown was let be. npm's copy of a signal may come so close
        // after the original that the kernel merges the two; the signal sent again always counts.
        const repeats = logs.filter((l) => l.msg?.startsWith('signal repeated during shutdown')).map((l) => l['signal']);
        if (c.twice) expect(repeats).to.deep.equal([c.signal]);
        else expect(repeats.filter((s) => s === c.signal).length, JSON.stringify(repeats)).to.equal(repeats.length).and.to.be.at.most(1);

        expect(relay.fromHost.types, 'the service sent CLOSE_CONNECTION').to.include(CLOSE_CONNECTION);
        expect(relay.fromReader.types, 'the reader answered it').to.include(CLOSE_CONNECTION_RESPONSE);
        const delivered = sent.slice(0, relay.reportsBeforeClose());
        expect(delivered.length).to.be.at.least(20);

        // The log as the stopped service left it on disk.
        const embedded = await startEmbeddedEventStore({ dataDir: path.join(String(env['DATA_DIR']), 'eventstore'), port: 0, logger: silent });
        const client = EventStoreDBClient.connectionString(embedded.connectionString);
        try {
          const stored = await storedEpcs(client);
          const missing = delivered.filter((e) => !stored.includes(e));
          expect(missing, `${missing.length} of ${delivered.length} reads the reader sent are not in the log`).to.deep.equal([]);
          expect(stored.length, 'each read stored once').to.equal(new Set(stored).size);
          expect(stored.every((e) => delivered.includes(e)), 'no read the reader did not send').to.equal(true);
        } finally {
          await client.dispose();
          await embedded.close();
        }
      });
    });
  }
});
