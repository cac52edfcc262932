// A simulated reader speaking LLRP from the reader's side (docs/simulator.md,
// "Playing LLRP readers"): a TCP server on its own port that greets a host
// with ConnectionAttemptEvent (refusing a second host, as a reader accepts
// one), answers capabilities (an Impinj-like power and RF mode table),
// keeps the host alive with KEEPALIVE at the period it asked for, and runs
// the ROSpec it is given: the antennas, power, reader mode, session and
// search mode it names drive the same radio model the agent simulator uses,
// and reads go out as RO_ACCESS_REPORT every N tags (N of the ROReportSpec).
import net from 'node:net';
import tls from 'node:tls';
// What the host sends is read with tagtrail's decoder; what the reader sends is written by its own encoder (llrp-wire.ts).
import { IMPINJ, MSG, asksImpinjTemperature, LlrpFramer, type LlrpMessage, decodeAddRoSpec, readKeepaliveSpec, roSpecIdOf, type RoSpec } from '../llrp';
import { asksLocations, hasImpinjParam, hasParam, readAccessSpec, type SimAccessRead } from './llrp-access';
import { wireCapabilities, wireConnectionAttempt, wireEnableExtensionsResponse, wireKeepalive, wireRoAccessReport, wireStatus, wireTagReportData, wireTemperatureResponse, wireLocationReport, type WireCapabilities, type WireTagRead } from './llrp-wire';
import { RF_MODE_OF, SEARCH_MODE_OF } from '../readers';
import type { Logger } from '../core/logger';
import type { ReaderLayout } from './layout';
import { newSessionState, readWindow, type Observation, type ReadSettings, type SearchMode } from './radio';
import { readPortalWindow, type Passage, type PortalDef, type PortalNoise, type PortalReader } from './portal';
import type { World } from './world';
import type { Stats } from './stats';
import { simulatedPhase, simulatedTid } from './tag-extras';

const MODE_NAME = new Map(Object.entries(RF_MODE_OF).map(([k, v]) => [v, k]));
const SEARCH_NAME = new Map(Object.entries(SEARCH_MODE_OF).map(([k, v]) => [v, k as SearchMode]));

/** 10.00-32.50 dBm in 0.25 dB steps, indexes 1-91, as Impinj readers list it. */
export const SIM_POWER_TABLE = Array.from({ length: 91 }, (_, i) => ({ index: i + 1, dbm: 10 + i * 0.25 }));
/** Impinj mode identifiers offered (no mode 5: a configuration asking DENSE_READER_M4_TWO is refused). */
export const SIM_RF_MODES = [0, 1, 2, 3, 4, 1000, 1002, 1003, 1004];

/** A door the reader watches instead of the world (THRESHOLD): the portal model's passages and noise. */
export interface DoorPlay {
  readonly portal: PortalDef;
  readonly reader: PortalReader;
  readonly passages: readonly Passage[];
  readonly noise: PortalNoise;
}

/** What the reader reads: the world's tags through a reader of the layout, or a door's passages (antennas as the portal model places them). */
export type ReaderPlay = { readonly reader: ReaderLayout; readonly world: World } | { readonly door: DoorPlay };

export type LlrpReaderOptions = ReaderPlay & LlrpReaderSettings;

export interface LlrpReaderSettings {
  /** DeviceManufacturerName it reports (default Impinj's 25882; another maker's reader gets no Impinj extension). */
  readonly manufacturer?: number;
  readonly seed: number;
  /** Real ms of world second 0, and how much faster world time runs. */
  readonly t0: number;
  readonly timeScale: number;
  readonly host?: string;
  /** 0 = a free port. */
  readonly port: number;
  readonly log: Logger;
  /** Refuse every ADD_ROSPEC with this description (a reader that cannot run what it is given). */
  readonly refuseRoSpec?: string | null;
  /** Real ms between two read windows (default 1000). */
  readonly windowMs?: number;
  /** Run counters: a host connection counts as a check-in, each RO_ACCESS_REPORT as a report sent. */
  readonly stats?: Stats;
  /** Serve LLRP over TLS with this key and certificate (PEM), as a reader on its secure port. */
  readonly tls?: { readonly key: string; readonly cert: string } | null;
}

interface ReaderRoSpec {
  readonly spec: RoSpec;
  enabled: boolean;
  /** An ImpinjLISpec: the reader reports where tags are, not tag reads. */
  readonly location: boolean;
}

export class SimLlrpReader {
  private server: net.Server | undefined;
  private host: net.Socket | undefined;
  private readonly rospecs = new Map<number, ReaderRoSpec>();
  private readonly accessSpecs = new Map<number, { readonly read: SimAccessRead; enabled: boolean }>();
  private keepaliveTimer: NodeJS.Timeout | undefined;
  private readTimer: NodeJS.Timeout | undefined;
  private running: RoSpec | undefined;
  private nextId = 1;
  private readonly state = newSessionState();
  private windowFrom = 0;
  port = 0;
  readsSent = 0;
  /** What the reader says of its temperature (degrees Celsius) when asked (Impinj's GET_READER_CONFIG extension). */
  temperature = 41;
  readonly capabilities: WireCapabilities;

  private t0: number;

  constructor(private readonly o: LlrpReaderOptions) {
    this.t0 = o.t0;
    const reader = 'door' in o ? o.door.reader : o.reader;
    const ids = reader.antennas.map((a) => a.id);
    // xArray and xSpan readers (Impinj's only) say they locate tags and decide direction themselves, over a door too.
    const locates = (reader.family === 'XARRAY' || reader.family === 'XSPAN') && (o.manufacturer ?? IMPINJ.VENDOR) === IMPINJ.VENDOR;
    this.capabilities = { computesLocations: locates, maxAntennas: Math.max(1, ...ids), manufacturer: o.manufacturer ?? IMPINJ.VENDOR, model: 2001002, firmware: '7.6.1-sim', transmitPower: SIM_POWER_TABLE, rfModes: SIM_RF_MODES };
  }

  get name(): string {
    return 'door' in this.o ? this.o.door.reader.name : this.o.reader.name;
  }

  /** Starts listening (again, on the same port after `disappear`). */
  async listen(): Promise<number> {
    const tlsOptions = this.o.tls;
    const server = tlsOptions ? tls.createServer({ key: tlsOptions.key, cert: tlsOptions.cert }, (socket) => this.accept(socket)) : net.createServer((socket) => this.accept(socket));
    // A host that fails the handshake (it refused our certificate) is no concern of the reader's.
    server.on('tlsClientError', () => undefined);
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port || this.o.port, this.o.host ?? '127.0.0.1', () => resolve());
    });
    this.port = (server.address() as net.AddressInfo).port;
    return this.port;
  }

  /** The reader goes away: its connection drops and nobody answers on its port until `listen`. */
  async disappear(): Promise<void> {
    this.stopReading();
    clearInterval(this.keepaliveTimer);
    this.host?.destroy();
    this.host = undefined;
    const server = this.server;
    this.server = undefined;
    if (server) await new Promise<void>((r) => server.close(() => r()));
  }

  async close(): Promise<void> {
    await this.disappear();
  }

  private now(): number {
    return Date.now();
  }

  private accept(socket: net.Socket): void {
    socket.setNoDelay(true);
    if (this.host !== undefined && !this.host.destroyed) {
      // One host at a time (status 2: a client-initiated connection already exists).
      socket.end(wireConnectionAttempt(0, this.now() * 1000, 2));
      return;
    }
    this.host = socket;
    this.rospecs.clear();
    const framer = new LlrpFramer();
    socket.on('data', (chunk: Buffer) => {
      try {
        for (const m of framer.push(chunk)) this.onMessage(socket, m);
      } catch (err) {
        this.o.log.warn('LLRP host sent bytes that do not frame; closing', { reader: this.name, err: (err as Error).message });
        socket.destroy();
      }
    });
    socket.on('close', () => {
      if (this.host === socket) {
        this.host = undefined;
        this.stopReading();
        clearInterval(this.keepaliveTimer);
      }
    });
    socket.on('error', () => undefined);
    socket.write(wireConnectionAttempt(0, this.now() * 1000, 0));
    this.o.stats?.add(this.name, 'checkins');
    this.o.log.info('LLRP host connected', { reader: this.name, from: `${socket.remoteAddress}:${socket.remotePort}` });
  }

  private ok(type: number, id: number): Buffer {
    return wireStatus(type, id);
  }

  private onMessage(socket: net.Socket, m: LlrpMessage): void {
    const reply = (b: Buffer): void => void socket.write(b);
    switch (m.type) {
      case MSG.GET_READER_CAPABILITIES:
        return reply(wireCapabilities(m.id, this.capabilities));
      case MSG.GET_READER_CONFIG:
        return reply(asksImpinjTemperature(m) ? wireTemperatureResponse(m.id, this.temperature) : this.ok(MSG.GET_READER_CONFIG_RESPONSE, m.id));
      case MSG.SET_READER_CONFIG: {
        // Impinj's definition allows ImpinjLocationReporting (subtype 1544) only in an ROReportSpec: a reader refuses it here.
        if (hasImpinjParam(m.body, 1, 1544)) return reply(wireStatus(MSG.SET_READER_CONFIG_RESPONSE, m.id, 102, 'ImpinjLocationReporting is not allowed in SET_READER_CONFIG'));
        // A SET_READER_CONFIG without a KeepaliveSpec (a location configuration, say) leaves the keepalives as they are.
        if (hasParam(m.body, 1, 220)) {
          const period = readKeepaliveSpec(m);
          clearInterval(this.keepaliveTimer);
          if (period > 0) this.keepaliveTimer = setInterval(() => socket.write(wireKeepalive(this.nextId++)), period);
        }
        return reply(this.ok(MSG.SET_READER_CONFIG_RESPONSE, m.id));
      }
      case MSG.CUSTOM_MESSAGE: {
        const vendor = m.body.length >= 5 ? m.body.readUInt32BE(0) : 0;
        if (vendor === IMPINJ.VENDOR && m.body.readUInt8(4) === IMPINJ.ENABLE_EXTENSIONS) return reply(wireEnableExtensionsResponse(m.id));
        return reply(wireStatus(MSG.ERROR_MESSAGE, m.id, 109, 'unsupported custom message'));
      }
      case MSG.ADD_ROSPEC: {
        const spec = decodeAddRoSpec(m);
        const refusal = this.o.refuseRoSpec ?? this.check(spec);
        if (refusal !== null) {
          this.o.log.info('ROSpec refused', { reader: this.name, reason: refusal });
          return reply(wireStatus(MSG.ADD_ROSPEC_RESPONSE, m.id, 301, refusal));
        }
        this.rospecs.set(spec.roSpecId, { spec, enabled: false, location: asksLocations(m.body) });
        return reply(this.ok(MSG.ADD_ROSPEC_RESPONSE, m.id));
      }
      case MSG.ENABLE_ROSPEC:
      case MSG.START_ROSPEC:
      case MSG.STOP_ROSPEC:
      case MSG.DELETE_ROSPEC:
        return reply(this.rospecCommand(m));
      case MSG.ADD_ACCESSSPEC:
      case MSG.ENABLE_ACCESSSPEC:
      case MSG.DELETE_ACCESSSPEC:
        return reply(this.accessSpecCommand(m));
      case MSG.CLOSE_CONNECTION:
        socket.end(this.ok(MSG.CLOSE_CONNECTION_RESPONSE, m.id));
        return;
      case MSG.KEEPALIVE_ACK:
        return;
      default:
        return reply(wireStatus(MSG.ERROR_MESSAGE, m.id, 109, `message type ${m.type} is not supported`));
    }
  }

  /** What a reader would refuse in a ROSpec: antennas it lacks, table indexes it does not have. */
  private check(spec: RoSpec): string | null {
    const max = this.capabilities.maxAntennas;
    const bad = spec.antennaIds.filter((a) => a !== 0 && (a < 1 || a > max));
    if (bad.length > 0) return `AntennaID ${bad.join(',')} out of range 1-${max}`;
    for (const a of spec.antennas) {
      if (a.transmitPowerIndex !== null && !SIM_POWER_TABLE.some((e) => e.index === a.transmitPowerIndex)) return `TransmitPower index ${a.transmitPowerIndex} not in the power table`;
      if (a.modeIndex !== null && !SIM_RF_MODES.includes(a.modeIndex)) return `ModeIndex ${a.modeIndex} not in the RF mode table`;
    }
    return null;
  }

  /** ADD / ENABLE / DELETE_ACCESSSPEC: a reader keeps AccessSpecs until deleted; only a C1G2Read is honoured. */
  private accessSpecCommand(m: LlrpMessage): Buffer {
    const responseType = m.type + 10;
    if (m.type === MSG.ADD_ACCESSSPEC) {
      const asked = readAccessSpec(m.body);
      if (asked === null) return wireStatus(responseType, m.id, 300, 'only AccessSpecs of one C1G2Read are supported');
      if (this.accessSpecs.has(asked.accessSpecId)) return wireStatus(responseType, m.id, 300, `AccessSpec ${asked.accessSpecId} exists`);
      this.accessSpecs.set(asked.accessSpecId, { read: asked, enabled: false });
      return this.ok(responseType, m.id);
    }
    const id = m.body.length >= 4 ? m.body.readUInt32BE(0) : 0;
    if (m.type === MSG.DELETE_ACCESSSPEC && id === 0) this.accessSpecs.clear();
    else if (!this.accessSpecs.has(id)) return wireStatus(responseType, m.id, 300, `no AccessSpec ${id}`);
    else if (m.type === MSG.DELETE_ACCESSSPEC) this.accessSpecs.delete(id);
    else this.accessSpecs.get(id)!.enabled = true;
    return this.ok(responseType, m.id);
  }

  /** What an enabled AccessSpec reads of a tag: its TID words when it reads the TID bank. */
  private accessReadOf(epc: string): WireTagRead['accessRead'] {
    for (const { read, enabled } of this.accessSpecs.values()) {
      if (!enabled || read.bank !== 2) continue;
      return { accessSpecId: read.accessSpecId, opSpecId: read.opSpecId, words: simulatedTid(epc).slice(read.wordPointer * 4, (read.wordPointer + read.wordCount) * 4) };
    }
    return null;
  }

  private rospecCommand(m: LlrpMessage): Buffer {
    const id = roSpecIdOf(m);
    const responseType = m.type + 10;
    if (m.type === MSG.DELETE_ROSPEC) {
      if (id === 0) this.rospecs.clear();
      else if (!this.rospecs.delete(id)) return wireStatus(responseType, m.id, 300, `no ROSpec ${id}`);
      if (this.running !== undefined && (id === 0 || this.running.roSpecId === id)) this.stopReading();
      return this.ok(responseType, m.id);
    }
    const r = this.rospecs.get(id);
    if (r === undefined) return wireStatus(responseType, m.id, 300, `no ROSpec ${id}`);
    if (m.type === MSG.ENABLE_ROSPEC) r.enabled = true;
    else if (m.type === MSG.START_ROSPEC) {
      if (!r.enabled) return wireStatus(responseType, m.id, 300, `ROSpec ${id} is not enabled`);
      this.startReading(r);
    } else if (m.type === MSG.STOP_ROSPEC) this.stopReading();
    return this.ok(responseType, m.id);
  }

  private settingsOf(spec: RoSpec): ReadSettings {
    const first = spec.antennas[0];
    const power = first?.transmitPowerIndex == null ? null : (SIM_POWER_TABLE.find((e) => e.index === first.transmitPowerIndex)?.dbm ?? null);
    return {
      operation: 'INVENTORY',
      readerMode: first?.modeIndex == null ? 'MAX_THROUGHPUT' : (MODE_NAME.get(first.modeIndex) ?? 'MAX_THROUGHPUT'),
      session: first?.session ?? 2,
      searchMode: first?.impinjSearchMode == null ? null : (SEARCH_NAME.get(first.impinjSearchMode) ?? null),
      polarization: false,
      antennas: spec.antennaIds.includes(0) ? null : [...spec.antennaIds],
      disabledAntennas: [],
      transmitPowerInDbm: power,
    };
  }

  /** World time 0 from now on is `t0` (real epoch ms): a run whose world starts once its jobs run. */
  startWorld(t0: number): void {
    this.t0 = t0;
  }

  private worldSeconds(ms: number): number {
    return ((ms - this.t0) / 1000) * this.o.timeScale;
  }

  /** What the ROSpec's antennas read between two world times (seconds). */
  private observe(settings: ReadSettings, from: number, to: number): Observation[] {
    if (!('door' in this.o)) return readWindow({ world: this.o.world, reader: this.o.reader, settings, from, to, seed: this.o.seed, state: this.state });
    const door = this.o.door;
    const reads = readPortalWindow({ portal: door.portal, reader: door.reader, passages: door.passages, from, to, readerMode: settings.readerMode, noise: door.noise, seed: this.o.seed });
    return settings.antennas === null ? reads : reads.filter((o) => settings.antennas?.includes(o.antennaId));
  }

  private startReading(r: ReaderRoSpec): void {
    const spec = r.spec;
    this.stopReading();
    this.running = spec;
    this.windowFrom = this.now();
    if (this.o.stats) this.o.stats.reader(this.name).state = 'RUNNING_JOB';
    const settings: ReadSettings = { ...this.settingsOf(spec), ...(r.location ? { operation: 'LOCATION' } : {}) };
    const every = this.o.windowMs ?? 1000;
    this.readTimer = setInterval(() => {
      const to = this.now();
      const observations = this.observe(settings, this.worldSeconds(this.windowFrom), this.worldSeconds(to));
      this.windowFrom = to;
      const realUs = (worldS: number): number => (this.t0 + (worldS * 1000) / this.o.timeScale) * 1000;
      // Locating: each located tag an ImpinjExtendedTagInformation with an UPDATE of its place (centimetres).
      const reads = r.location ? observations.flatMap((o) => (o.x === null || o.y === null ? [] : [wireLocationReport({ epc: o.epc, timestampUs: realUs(o.lastSeen), xCm: Math.round(o.x * 100), yCm: Math.round(o.y * 100), confidence: 1, type: 1 })])) : observations.map((o) =>
        wireTagReportData({ epc: o.epc, antennaId: o.antennaId, peakRssiCdbm: Math.round(o.peakRssi * 100), firstSeenUs: realUs(o.firstSeen), lastSeenUs: realUs(o.lastSeen), seenCount: o.readCount, roSpecId: spec.roSpecId, impinjPeakRssi: spec.impinjPeakRssi,
          phaseAngle: spec.impinjPhase ? simulatedPhase(o.epc, realUs(o.lastSeen) / 1000) : null, tid: spec.impinjTid ? simulatedTid(o.epc) : null, accessRead: this.accessReadOf(o.epc) }),
      );
      // Every N tags a report (N = 0: all of the window in one); all written at once, so the host meets coalesced messages.
      const n = spec.reportEveryN > 0 ? spec.reportEveryN : Math.max(1, reads.length);
      const out: Buffer[] = [];
      for (let i = 0; i < reads.length; i += n) out.push(wireRoAccessReport(this.nextId++, reads.slice(i, i + n)));
      if (out.length > 0 && this.host !== undefined) this.host.write(Buffer.concat(out));
      this.readsSent += reads.length;
      this.o.stats?.add(this.name, 'reportsSent', out.length);
      this.o.stats?.add(this.name, 'reportsAccepted', out.length);
      this.o.stats?.add(this.name, 'observations', reads.length);
    }, every);
  }

  /** Whether a ROSpec is running (the host started one). */
  get reading(): boolean {
    return this.running !== undefined;
  }

  /**
   * Sends these tags as read now, outside the radio model (benchmarks drive a known load through the
   * host's decoder): RO_ACCESS_REPORTs of 100 TagReportData each. False when no ROSpec runs.
   */
  sendReads(epcs: readonly string[], antennaId = 1): boolean {
    const spec = this.running;
    if (spec === undefined || this.host === undefined) return false;
    const us = Date.now() * 1000;
    const out: Buffer[] = [];
    for (let i = 0; i < epcs.length; i += 100) {
      const reads = epcs.slice(i, i + 100).map((epc, k) => wireTagReportData({ epc, antennaId, peakRssiCdbm: -5500 - k, firstSeenUs: us, lastSeenUs: us, seenCount: 1, roSpecId: spec.roSpecId, impinjPeakRssi: spec.impinjPeakRssi }));
      out.push(wireRoAccessReport(this.nextId++, reads));
    }
    this.host.write(Buffer.concat(out));
    this.readsSent += epcs.length;
    return true;
  }

  private stopReading(): void {
    if (this.o.stats && this.running) this.o.stats.reader(this.name).state = 'IDLE';
    clearInterval(this.readTimer);
    this.readTimer = undefined;
    this.running = undefined;
  }
}
