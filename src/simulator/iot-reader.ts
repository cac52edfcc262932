// A simulated reader speaking the Impinj IoT device interface from the
// reader's side (docs/simulator.md): the REST endpoints tagtrail uses
// (status, inventory presets, start/stop, MQTT settings, the HTTP event
// stream) behind HTTP Basic, and the same radio model as the other readers;
// tag events go to every open stream and, once MQTT is configured, to the
// broker (QoS 1).
import http from 'node:http';
import mqtt, { type MqttClient } from 'mqtt';
import type { Logger } from '../core/logger';
import type { ReaderLayout } from './layout';
import { newSessionState, readWindow, type ReadSettings, type SearchMode } from './radio';
import type { World } from './world';
import type { Stats } from './stats';
import { simulatedPhase, simulatedTid } from './tag-extras';
import { IOT_BODIES_SCHEMA, RF_MODE_OF } from '../readers';
import { schemaProblem, type SchemaDocument } from './json-schema';
import type { Observation } from './radio';

const MODE_NAME = new Map(Object.entries(RF_MODE_OF).map(([k, v]) => [v, k]));
const SCHEMA = IOT_BODIES_SCHEMA as unknown as SchemaDocument;
const SEARCH: Readonly<Record<string, SearchMode>> = { 'single-target': 'SINGLE_TARGET', 'dual-target': 'DUAL_TARGET', 'single-target-with-suppression': 'TAG_FOCUS' };

export interface IotReaderOptions {
  readonly reader: ReaderLayout;
  readonly world: World;
  readonly seed: number;
  readonly t0: number;
  readonly timeScale: number;
  readonly port: number;
  readonly username: string;
  readonly password: string;
  readonly log: Logger;
  readonly windowMs?: number;
  /** Refuse every preset with this message (400), as a reader refusing settings it cannot apply. */
  readonly refusePreset?: string | null;
  /** Run counters: a status call counts as a check-in, each window's events as a report sent. */
  readonly stats?: Stats;
  /** The highest transmitPowerCdbm of its region, stated in its preset schema (3300: an R700 on PoE+ under FCC rules). */
  readonly maxPowerCdbm?: number;
  /** Where its reads come from instead of the world's radio model (a doorway, say): observations of [from, to), world seconds. */
  readonly source?: (from: number, to: number) => Observation[];
}

/** A preset as the schema lets it through (required members present). */
export interface Preset {
  eventConfig?: { tagInventory?: { tidHex?: string; phaseAngle?: string } };
  antennaConfigs: Array<{ antennaPort: number; transmitPowerCdbm: number; rfMode: number; inventorySession: number; inventorySearchMode: string; fastId?: string }>;
}

class BodyRefused extends Error {
  override name = 'BodyRefused';
}

/** Attempts of a webhook delivery answered 503 (the first one included). */
const WEBHOOK_ATTEMPTS = 4;

/** Answers a request: a status and, if any, a JSON body. */
type Send = (status: number, body?: unknown) => void;

export class SimIotReader {
  private server: http.Server | undefined;
  private readonly presets = new Map<string, Preset>();
  private readonly streams = new Set<http.ServerResponse>();
  private mqttClient: MqttClient | undefined;
  private mqttTopic = '';
  private webhook: { url: string; authorization: string } | undefined;
  webhookFailures = 0;
  private timer: NodeJS.Timeout | undefined;
  private activePreset: string | null = null;
  private readonly state = newSessionState();
  private windowFrom = 0;
  port = 0;
  readsSent = 0;
  /** When set, starting a preset answers this status (a reader in trouble: 503 while it boots, say). */
  failStart: number | null = null;
  /** System commands received: reboots, the clock set (PUT /system/time), upgrade files. */
  reboots = 0;
  clockSetTo: string | null = null;
  readonly upgrades: Array<{ name: string; bytes: number }> = [];
  /** A reader keeping time by NTP refuses PUT /system/time, as the interface documents; its servers as GET /system/time/ntp/servers lists them. */
  ntp = false;
  ntpServers: Array<{ serverId: number; server: string; serverType: string; status: string }> = [];
  /** The last preset defined (PUT /profiles/inventory/presets/{id}), as sent. */
  lastPreset: Preset | null = null;
  /** Bodies refused for not fitting the interface's schema, with why. */
  readonly refusedBodies: string[] = [];
  private bootingUntil = 0;
  /** What GET /system/image says of the booted firmware (primaryFirmware); an installed upgrade changes it. */
  firmwareVersion = '8.2.1-sim';
  /** The installation under way or last done (GET /system/image/upgrade). */
  private install: { version: string; doneAt: number } | null = null;
  /** GET /system/temperature's `systemTemperature` (degrees Celsius). */
  temperature = 43;

  constructor(private readonly o: IotReaderOptions) {}

  get name(): string {
    return this.o.reader.name;
  }

  private get maxPower(): number {
    return this.o.maxPowerCdbm ?? 3300;
  }

  async listen(): Promise<number> {
    const server = http.createServer((req, res) => void this.handle(req, res));
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port || this.o.port, '127.0.0.1', () => resolve());
    });
    this.port = (server.address() as { port: number }).port;
    return this.port;
  }

  async close(): Promise<void> {
    this.stopReading();
    for (const s of this.streams) s.destroy();
    this.streams.clear();
    await this.mqttClient?.endAsync().catch(() => undefined);
    this.mqttClient = undefined;
    const server = this.server;
    this.server = undefined;
    server?.closeAllConnections();
    if (server) await new Promise<void>((r) => server.close(() => r()));
  }

  /** A JSON body that fits `definition` of the interface's schema; else a BodyRefused (answered 400 with why, as a reader does). */
  private async body(req: http.IncomingMessage, definition: string): Promise<unknown> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      throw new BodyRefused('the body is not JSON');
    }
    const problem = schemaProblem(SCHEMA, definition, parsed);
    if (problem !== null) {
      this.refusedBodies.push(`${req.method} ${req.url}: ${problem}`);
      throw new BodyRefused(problem);
    }
    return parsed;
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const send: Send = (status, body) => {
      res.writeHead(status, body === undefined ? {} : { 'Content-Type': 'application/json' });
      res.end(body === undefined ? undefined : JSON.stringify(body));
    };
    const expected = `Basic ${Buffer.from(`${this.o.username}:${this.o.password}`).toString('base64')}`;
    if (req.headers.authorization !== expected) return send(401, { message: 'Unauthorized' });
    const path = (req.url ?? '').replace(/^\/api\/v1/, '');
    // Rebooting: not answering for a while, as a reader does.
    if (Date.now() < this.bootingUntil) {
      req.socket.destroy();
      return;
    }
    try {
      // Each route group answers and says so, or leaves the request to the next.
      const handled =
        (await this.systemRoutes(req, path, send)) ||
        (await this.imageRoutes(req, path, send)) ||
        this.statusRoutes(req, path, send) ||
        (await this.presetRoutes(req, path, send)) ||
        (await this.deliveryRoutes(req, res, path, send));
      if (!handled) send(404, { message: `no ${req.method} ${path}` });
    } catch (err) {
      // A body the interface refuses is the client's fault; anything else the reader's own.
      return send(err instanceof BodyRefused ? 400 : 500, { message: (err as Error).message });
    }
  }

  /** Reboot, the system time and its NTP settings. */
  private async systemRoutes(req: http.IncomingMessage, path: string, send: Send): Promise<boolean> {
    if (req.method === 'POST' && path === '/system/reboot') {
      this.reboots++;
      send(204);
      this.reboot();
      return true;
    }
    if (req.method === 'GET' && path === '/system/time/ntp') {
      send(200, { active: this.ntp });
      return true;
    }
    if (req.method === 'GET' && path === '/system/time/ntp/servers') {
      send(200, this.ntpServers);
      return true;
    }
    if (req.method !== 'PUT' || path !== '/system/time') return false;
    if (this.ntp) {
      send(403, { message: 'the system time cannot be set while NTP is enabled' });
      return true;
    }
    const t = (await this.body(req, 'SystemTime')) as { systemTime: string };
    if (Number.isNaN(Date.parse(t.systemTime))) send(400, { message: 'systemTime must be an RFC 3339 time' });
    else {
      this.clockSetTo = t.systemTime;
      send(204);
    }
    return true;
  }

  /** A firmware image upload and the state of its installation. */
  private async imageRoutes(req: http.IncomingMessage, path: string, send: Send): Promise<boolean> {
    if (path !== '/system/image/upgrade') return false;
    if (req.method === 'POST') {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const form = await new Response(Buffer.concat(chunks), { headers: { 'Content-Type': req.headers['content-type'] ?? '' } }).formData();
      const file = form.get('upgradeFile');
      if (!(file instanceof Blob)) {
        send(400, { message: 'upgradeFile is required' });
        return true;
      }
      const name = (file as File).name;
      this.upgrades.push({ name, bytes: file.size });
      // Installs for a second; the version is the one in the file name (img-8.4.0.upgx: 8.4.0).
      this.install = { version: /(\d[\w.+-]*)\.[A-Za-z]+$/.exec(name)?.[1] ?? name, doneAt: Date.now() + 1000 };
      send(202, { message: 'upgrade accepted' });
      return true;
    }
    if (req.method !== 'GET') return false;
    const i = this.install;
    if (i === null) send(200, { status: 'ready', message: '' });
    else if (Date.now() < i.doneAt) send(200, { status: 'installing', message: `installing ${i.version}` });
    else {
      this.firmwareVersion = i.version;
      send(200, { status: 'successful', message: 'the new image is active' });
    }
    return true;
  }

  /** Status (a check-in) and temperature. */
  private statusRoutes(req: http.IncomingMessage, path: string, send: Send): boolean {
    if (req.method !== 'GET') return false;
    if (path === '/status') {
      this.o.stats?.add(this.name, 'checkins');
      send(200, { status: this.activePreset ? 'running' : 'idle', ...(this.activePreset ? { activePreset: { id: this.activePreset, profile: 'inventory' } } : {}), time: new Date().toISOString() });
      return true;
    }
    if (path === '/system/image') {
      send(200, { primaryFirmware: this.firmwareVersion });
      return true;
    }
    if (path === '/profiles/inventory/presets-schema') {
      // The reader's own limits, as a reader fills its schema for its region.
      send(200, { type: 'object', properties: { antennaConfigs: { type: 'array', items: { type: 'object', properties: { transmitPowerCdbm: { type: 'integer', minimum: 1000, maximum: this.maxPower } } } } } });
      return true;
    }
    if (path !== '/system/temperature') return false;
    send(200, { systemTemperature: this.temperature });
    return true;
  }

  /** Inventory presets: define, start, stop. */
  private async presetRoutes(req: http.IncomingMessage, path: string, send: Send): Promise<boolean> {
    const preset = /^\/profiles\/inventory\/presets\/([^/]+)(\/start)?$/.exec(path);
    if (preset && req.method === 'PUT' && !preset[2]) {
      const p = (await this.body(req, 'InventoryRequest')) as Preset;
      const refusal = this.o.refusePreset ?? this.check(p);
      if (refusal) send(400, { message: refusal });
      else {
        this.presets.set(decodeURIComponent(preset[1] as string), p);
        this.lastPreset = p;
        send(204);
      }
      return true;
    }
    if (preset && req.method === 'POST' && preset[2]) {
      const id = decodeURIComponent(preset[1] as string);
      const p = this.presets.get(id);
      if (!p) send(404, { message: `no preset ${id}` });
      else if (this.failStart !== null) send(this.failStart, { message: 'the reader cannot start an inventory now' });
      else {
        this.startReading(id, p);
        send(204);
      }
      return true;
    }
    if (req.method !== 'POST' || path !== '/profiles/stop') return false;
    this.stopReading();
    send(204);
    return true;
  }

  /** Where reads go: MQTT, a webhook, or the HTTP stream. */
  private async deliveryRoutes(req: http.IncomingMessage, res: http.ServerResponse, path: string, send: Send): Promise<boolean> {
    if (req.method === 'PUT' && path === '/mqtt') {
      const m = (await this.body(req, 'MqttConfiguration')) as { brokerHostname: string; brokerPort?: number; clientId: string; eventTopic: string };
      await this.mqttClient?.endAsync().catch(() => undefined);
      this.mqttClient = await mqtt.connectAsync(`mqtt://${m.brokerHostname}:${m.brokerPort ?? 1883}`, { clientId: `${m.clientId}-${process.pid}`, reconnectPeriod: 1000 });
      this.mqttTopic = m.eventTopic;
      send(204);
      return true;
    }
    if (req.method === 'PUT' && path === '/webhooks/event') {
      const w = (await this.body(req, 'EventWebhookConfiguration')) as { active?: boolean; serverConfiguration?: { url: string; authentication?: { username?: string; password?: string } } };
      const server = w.serverConfiguration;
      const auth = server?.authentication;
      // Inactive, or no server to post to: no deliveries.
      this.webhook = w.active === true && server !== undefined ? { url: server.url, authorization: auth ? `Basic ${Buffer.from(`${auth.username ?? ''}:${auth.password ?? ''}`).toString('base64')}` : '' } : undefined;
      send(204);
      return true;
    }
    if (req.method !== 'GET' || path !== '/data/stream') return false;
    res.writeHead(200, { 'Content-Type': 'application/x-ndjson' });
    res.write('\r\n');
    this.streams.add(res);
    res.on('close', () => this.streams.delete(res));
    return true;
  }

  /** Stops reading, drops every stream and answers nothing for a second. */
  private reboot(): void {
    this.stopReading();
    this.bootingUntil = Date.now() + 1000;
    for (const s of this.streams) s.destroy();
    this.streams.clear();
  }

  private check(p: Preset): string | null {
    const ports = this.o.reader.antennas.length;
    for (const a of p.antennaConfigs) {
      if (a.antennaPort > ports) return `antennaPort ${a.antennaPort} is not one of 1-${ports}`;
      if (a.transmitPowerCdbm < 1000 || a.transmitPowerCdbm > this.maxPower) return `transmitPowerCdbm ${a.transmitPowerCdbm} is outside 1000-${this.maxPower}`;
    }
    return null;
  }

  private settingsOf(p: Preset): ReadSettings {
    const first = p.antennaConfigs[0];
    return {
      operation: 'INVENTORY',
      readerMode: first === undefined ? 'MAX_THROUGHPUT' : (MODE_NAME.get(first.rfMode) ?? 'MAX_THROUGHPUT'),
      session: first?.inventorySession ?? 2,
      searchMode: first === undefined ? null : (SEARCH[first.inventorySearchMode] ?? null),
      polarization: false,
      antennas: p.antennaConfigs.map((a) => a.antennaPort),
      disabledAntennas: [],
      transmitPowerInDbm: first === undefined ? null : first.transmitPowerCdbm / 100,
    };
  }

  private startReading(id: string, p: Preset): void {
    this.stopReading();
    this.activePreset = id;
    this.windowFrom = Date.now();
    const settings = this.settingsOf(p);
    const ports = new Set(p.antennaConfigs.map((a) => a.antennaPort));
    // The reader has a tag's TID only from antennas running fastId; tidHex alone reports none.
    const tidPorts = new Set(p.eventConfig?.tagInventory?.tidHex === 'enabled' ? p.antennaConfigs.filter((a) => a.fastId === 'enabled').map((a) => a.antennaPort) : []);
    const withPhase = p.eventConfig?.tagInventory?.phaseAngle === 'enabled';
    const world = (ms: number): number => ((ms - this.o.t0) / 1000) * this.o.timeScale;
    const real = (s: number): string => new Date(this.o.t0 + (s * 1000) / this.o.timeScale).toISOString();
    this.timer = setInterval(() => {
      const to = Date.now();
      const from = world(this.windowFrom);
      const observations = this.o.source ? this.o.source(from, world(to)).filter((o) => ports.has(o.antennaId)) : readWindow({ world: this.o.world, reader: this.o.reader, settings, from, to: world(to), seed: this.o.seed, state: this.state });
      this.windowFrom = to;
      const events = observations.map((o) => ({
        timestamp: real(o.lastSeen),
        hostname: this.name,
        eventType: 'tagInventory',
        tagInventoryEvent: {
          epcHex: o.epc, antennaPort: o.antennaId, antennaName: `Antenna ${o.antennaId}`, peakRssiCdbm: Math.round(o.peakRssi * 100), lastSeenTime: real(o.lastSeen),
          ...(tidPorts.has(o.antennaId) ? { tidHex: simulatedTid(o.epc) } : {}),
          ...(withPhase ? { phaseAngle: simulatedPhase(o.epc, Date.parse(real(o.lastSeen))) } : {}),
        },
      }));
      // Something tagtrail does not know, now and then: it must be ignored.
      events.push({ timestamp: new Date().toISOString(), hostname: this.name, eventType: 'inventoryStatus', tagInventoryEvent: undefined as never });
      for (const s of this.streams) for (const e of events) s.write(`${JSON.stringify(e)}\n`);
      if (this.mqttClient) for (const e of events) this.mqttClient.publish(this.mqttTopic, JSON.stringify(e), { qos: 1 });
      if (this.webhook) void this.post(this.webhook, events);
      this.readsSent += observations.length;
      this.o.stats?.add(this.name, 'reportsSent');
      this.o.stats?.add(this.name, 'reportsAccepted');
      this.o.stats?.add(this.name, 'observations', observations.length);
    }, this.o.windowMs ?? 1000);
  }

  /**
   * A webhook batch: the events of a window as one JSON array. A 503 is sent again after its
   * Retry-After, a few times, as a reader retries (tagtrail answers 503 while it cannot store it
   * yet, e.g. before the reader's start in its job is recorded).
   */
  private async post(w: { url: string; authorization: string }, events: unknown[]): Promise<void> {
    const body = JSON.stringify(events);
    for (let attempt = 1; ; attempt++) {
      const res = await fetch(w.url, { method: 'POST', headers: { 'Content-Type': 'application/json', ...(w.authorization ? { Authorization: w.authorization } : {}) }, body }).catch(() => undefined);
      if (res !== undefined && res.status >= 200 && res.status <= 299) return;
      if (res?.status !== 503 || attempt === WEBHOOK_ATTEMPTS || this.server === undefined) {
        this.webhookFailures++;
        return;
      }
      // Unref'd: a reader closed meanwhile is not kept waiting for it.
      await new Promise((resolve) => setTimeout(resolve, Number(res.headers.get('retry-after') ?? 1) * 1000).unref());
    }
  }

  private stopReading(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    this.activePreset = null;
  }
}
