// The parts a simulator run is set up from, in the order runSimulation
// (./run.ts) uses them: the world, the readers that tagtrail connects to
// (LLRP, IoT), the agents of the zone readers, and the demo's door.
import { readFileSync } from 'node:fs';
import type { Logger } from '../core/logger';
import { DEFAULT_UPGRADE_MS, SimAgent } from './agent';
import type { Clock } from './clock';
import { createPortalConfiguration, demoPortals } from './portal-demo';
import { agentAuth, enc, HttpClient, HttpError, type Transport } from './http';
import { issueSecret } from './demo';
import { defaultAntennas, FAMILIES, generateLayout, generatedEpc, type Family, type Layout, type ReaderLayout, type Zone } from './layout';
import type { SimOptions } from './options';
import { parseScenario, type Scenario } from './scenario';
import { Stats } from './stats';
import { World } from './world';
import { SimLlrpReader } from './llrp-reader';
import { SimIotReader } from './iot-reader';
import { DEMO_PORTAL_NOISE, portalReaders, randomPassages, type Passage } from './portal';

async function layoutFromService(admin: HttpClient, o: SimOptions): Promise<Layout> {
  const defs = await admin.request('GET', '/configuration/v1/readerDefinitions/show');
  if (defs.status !== 200 || !Array.isArray(defs.body)) throw new HttpError('list reader definitions', defs);
  const mine = (defs.body as Array<Record<string, unknown>>).filter((d) => (d['facility'] ?? o.facility) === o.facility).slice(0, o.readers ?? undefined);
  if (mine.length === 0) throw new Error(`facility "${o.facility}" has no reader definitions to play: run with --demo to create some, or give --scenario`);
  const readers: ReaderLayout[] = mine.map((d) => {
    const type = d['type'];
    const family: Family = (FAMILIES as readonly unknown[]).includes(type) ? (type as Family) : 'SPEEDWAY';
    const p = (d['placement'] ?? {}) as Record<string, unknown>;
    const num = (k: string, dflt: number): number => (typeof p[k] === 'number' ? (p[k] as number) : dflt);
    const placement = { x: num('x', 0), y: num('y', 0), z: num('z', 4), floor: p['floor'] === undefined || p['floor'] === null ? null : String(p['floor']) };
    return { name: String(d['name']), family, placement, antennas: defaultAntennas(family, placement) };
  });
  const current = await admin.request('GET', `/control/v1/currentZoneMap/show/${enc(o.facility)}`);
  let zones: Zone[];
  let zoneMapName: string;
  const shown = current.status === 200 && typeof current.body === 'object' && current.body !== null ? (current.body as { name: unknown }) : undefined;
  // A facility without a current zone map answers {name: null}.
  if (shown !== undefined && typeof shown.name === 'string') {
    const zm = shown as { name: string; zones: Array<{ name: string; floor: string | null; points: Array<{ x: number; y: number }> }> };
    zones = zm.zones.map((z) => ({ name: z.name, floor: z.floor, points: z.points }));
    zoneMapName = zm.name;
  } else {
    // No zone map: tags dwell in zones of our own around the readers (the service places them in FACILITY).
    zones = readers.map((r, i) => ({ name: `sim-area-${i + 1}`, floor: r.placement.floor, points: [{ x: r.placement.x - 6, y: r.placement.y - 5 }, { x: r.placement.x + 6, y: r.placement.y + 5 }] }));
    zoneMapName = '(none)';
  }
  const tags = Array.from({ length: o.tags }, (_, i) => ({ epc: generatedEpc(o.seed, i), tid: null }));
  return { facility: o.facility, zoneMapName, zones, readers, tags };
}

/** LLRP ports of the existing reader definitions (connection.protocol LLRP), by reader name. */
async function definitionPorts(admin: HttpClient): Promise<Map<string, number>> {
  const defs = await admin.request('GET', '/configuration/v1/readerDefinitions/show');
  if (defs.status !== 200 || !Array.isArray(defs.body)) throw new HttpError('list reader definitions', defs);
  const out = new Map<string, number>();
  for (const d of defs.body as Array<{ name: string; connection?: { protocol?: string; port?: number } | null }>) {
    if (d.connection?.protocol === 'LLRP' && typeof d.connection.port === 'number') out.set(d.name, d.connection.port);
  }
  return out;
}

/** What the run plays: a scenario's world, a generated one (--demo), or the service's own reader definitions. */
export async function prepareWorld(o: SimOptions, admin: HttpClient): Promise<{ scenario: Scenario | null; layout: Layout; world: World }> {
  let scenario: Scenario | null = null;
  if (o.scenario) scenario = parseScenario(readFileSync(o.scenario, 'utf8'), { facility: o.facility, prefix: o.prefix });
  let layout: Layout;
  if (scenario) layout = { ...scenario.layout, readers: scenario.layout.readers.slice(0, o.readers ?? undefined) };
  else if (o.demo) layout = generateLayout({ facility: o.facility, readers: o.readers ?? 4, families: o.families, tags: o.tags, seed: o.seed, prefix: o.prefix });
  else layout = await layoutFromService(admin, o);
  const world = scenario ? World.scripted(layout, o.seed, scenario.moves) : World.random(layout, o.seed);
  return { scenario, layout, world };
}

/** What every part of a run shares. */
export interface RunContext {
  readonly o: SimOptions;
  readonly admin: HttpClient;
  readonly clock: Clock;
  readonly log: Logger;
  readonly transport: Transport;
  readonly scenario: Scenario | null;
  readonly layout: Layout;
  readonly world: World;
  readonly stats: Stats;
  /** When the readers' worlds start (their timelines begin at the job's start). */
  readonly t0: number;
}

/** Readers tagtrail connects to (LLRP or IoT), listening, and how their reader definitions reach them. */
export interface ProtocolReaders {
  readonly llrp: SimLlrpReader[];
  readonly iot: SimIotReader[];
  readonly connections: Map<string, { address: string; connection: Record<string, unknown> }> | undefined;
}

export async function startProtocolReaders(ctx: RunContext): Promise<ProtocolReaders> {
  const { o, admin, layout, world, stats, log, scenario, t0 } = ctx;
  // LLRP: every reader is a TCP server tagtrail's readers role connects to; no agents.
  const llrp: SimLlrpReader[] = [];
  if (o.protocol === 'llrp') {
    const ports = o.demo || scenario ? new Map<string, number>() : await definitionPorts(admin);
    for (const [i, r] of layout.readers.entries()) {
      const port = o.llrpPort > 0 ? o.llrpPort + i : (ports.get(r.name) ?? 0);
      const sim = new SimLlrpReader({ reader: r, world, seed: o.seed, t0, timeScale: o.timeScale, host: o.llrpHost, port, log: log.child('llrp', { reader: r.name }), stats });
      await sim.listen();
      llrp.push(sim);
      stats.reader(r.name).state = 'IDLE';
    }
    log.info('LLRP readers listening', { readers: llrp.map((s) => `${s.name} ${o.llrpHost}:${s.port}`) });
  }
  // IoT: every reader is an Impinj IoT-interface reader (REST, HTTP Basic with a password of this run).
  const iot: SimIotReader[] = [];
  const iotPassword = `sim-${Math.random().toString(36).slice(2)}`;
  if (o.protocol === 'iot') {
    for (const [i, r] of layout.readers.entries()) {
      const sim = new SimIotReader({ reader: r, world, seed: o.seed, t0, timeScale: o.timeScale, port: o.llrpPort > 0 ? o.llrpPort + i : 0, username: 'root', password: iotPassword, log: log.child('iot', { reader: r.name }), stats });
      await sim.listen();
      iot.push(sim);
      stats.reader(r.name).state = 'IDLE';
    }
    log.info('IoT readers listening', { readers: iot.map((s) => `${s.name} 127.0.0.1:${s.port}`), delivery: o.iotDelivery });
  }
  const connections =
    o.protocol === 'llrp'
      ? new Map(llrp.map((s) => [s.name, { address: o.llrpHost, connection: { protocol: 'LLRP', port: s.port } }]))
      : o.protocol === 'iot'
        ? new Map(iot.map((s) => [s.name, { address: o.llrpHost, connection: { protocol: 'IOT', scheme: 'http', port: s.port, username: 'root', password: iotPassword, delivery: o.iotDelivery } }]))
        : undefined;
  return { llrp, iot, connections };
}

/** The agents of the zone readers (agent protocol only), each with a secret of its own. */
export async function zoneAgents(ctx: RunContext): Promise<SimAgent[]> {
  const { o, admin, layout, world, stats, log, scenario, t0, clock, transport } = ctx;
  const agents: SimAgent[] = [];
  for (const r of o.protocol === 'agent' ? layout.readers : []) {
    const secret = await issueSecret(admin, r.name);
    agents.push(new SimAgent({
      reader: r, world, seed: o.seed, clock, stats, log: log.child('agent', { reader: r.name }), t0, timeScale: o.timeScale, checkinMs: o.checkinSeconds ? o.checkinSeconds * 1000 : null,
      http: new HttpClient(o.url, agentAuth(r.name, secret), transport),
      faultRates: o.faults,
      scriptedFaults: (scenario?.faults ?? []).filter((f) => f.reader === r.name),
      upgradeMs: (o.upgradeSeconds ?? scenario?.upgrades.seconds ?? DEFAULT_UPGRADE_MS / 1000) * 1000,
      upgradeFaults: [...(scenario?.upgrades.failures ?? []), ...o.upgradeFailures].filter((f) => f.reader === r.name).map((f) => f.fault),
    }));
  }
  return agents;
}

/** The demo's door: its configuration, the passages through it and its readers (agents of overhead readers, or LLRP readers on the jambs). */
export interface Door {
  readonly door: Awaited<ReturnType<typeof createPortalConfiguration>> | undefined;
  /** The door readers' own counters, so the totals stay those of the zone readers. */
  readonly stats: Stats;
  readonly passages: readonly Passage[];
  readonly agents: SimAgent[];
  /** Over LLRP: the door's simulated LLRP readers (no agents). */
  readonly llrp: SimLlrpReader[];
}

export async function prepareDoor(ctx: RunContext): Promise<Door> {
  const { o, admin, layout, world, log, scenario, t0, clock, transport } = ctx;
  // A scenario's portals replace the demo's door, and its passages the random ones; a scenario
  // without portals gets no door: it says exactly where its tags are, and random passages would move them.
  // Over LLRP the demo's door is a side-by-side one: readers with plain antennas, as LLRP readers have.
  const llrpDoor = o.protocol === 'llrp';
  const portals = scenario ? scenario.portals : demoPortals(layout, o.prefix, llrpDoor ? 'SIDE_BY_SIDE' : 'OVERHEAD');
  const stats = new Stats(clock.now());
  const worldSpan = o.duration ? o.duration * o.timeScale : 3600;
  // Only with a job to run: without one its readers would read nothing.
  const wanted = o.demo && o.startJob && (o.protocol === 'agent' || llrpDoor) && portals.length > 0;
  const passages: readonly Passage[] = !wanted ? [] : scenario && scenario.portals.length > 0 ? scenario.passages : randomPassages({ portals, epcs: layout.tags.map((t) => t.epc), seed: o.seed, from: 2, until: worldSpan, everySeconds: 3 });
  const llrp: SimLlrpReader[] = [];
  if (wanted && llrpDoor) {
    for (const portal of portals) {
      for (const reader of portalReaders(portal, '')) {
        const sim = new SimLlrpReader({ door: { portal, reader, passages: passages.filter((p) => p.portal === portal.name), noise: DEMO_PORTAL_NOISE }, seed: o.seed, t0, timeScale: o.timeScale, host: o.llrpHost, port: 0, log: log.child('llrp', { reader: reader.name }), stats, windowMs: 250 });
        await sim.listen();
        llrp.push(sim);
      }
    }
  }
  const connections = new Map(llrp.map((s) => [s.name, { address: o.llrpHost, connection: { protocol: 'LLRP', port: s.port } }]));
  const door = wanted ? await createPortalConfiguration(admin, portals, layout.facility, o.prefix, log, connections) : undefined;
  const agents: SimAgent[] = [];
  if (llrpDoor) return { door, stats, passages, agents, llrp };
  for (const { portal, reader } of door?.readers ?? []) {
    const secret = await issueSecret(admin, reader.name);
    agents.push(new SimAgent({
      reader: { name: reader.name, family: reader.family, placement: reader.placement, antennas: reader.antennas }, world, seed: o.seed, clock, stats, log: log.child('agent', { reader: reader.name }), t0, timeScale: o.timeScale,
      checkinMs: o.checkinSeconds ? o.checkinSeconds * 1000 : null,
      http: new HttpClient(o.url, agentAuth(reader.name, secret), transport),
      faultRates: {}, scriptedFaults: [],
      portal: { portal, reader, passages: passages.filter((p) => p.portal === portal.name), noise: DEMO_PORTAL_NOISE },
    }));
  }
  return { door, stats, passages, agents, llrp };
}
