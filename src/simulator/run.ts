// One simulator run: build the world (scenario, generated, or the service's
// own reader definitions), optionally create the demo configuration and
// start a job, issue agent secrets, run the agents until the duration ends
// or the run is aborted, and answer the summary.
import { readFileSync } from 'node:fs';
import { createLogger, type Logger } from '../core/logger';
import { DEFAULT_UPGRADE_MS, SimAgent } from './agent';
import { realClock, type Clock } from './clock';
import { createDemoConfiguration, demoNames, issueSecret, jobStatus, locationTiming, startJob, stopJob, type DemoNames } from './demo';
import { agentAuth, basicAuth, enc, fetchTransport, HttpClient, HttpError, type Transport } from './http';
import { defaultAntennas, FAMILIES, generateLayout, generatedEpc, type Family, type Layout, type ReaderLayout, type Zone } from './layout';
import type { SimOptions } from './options';
import { parseScenario, type Scenario } from './scenario';
import { progressLine, Stats, type CounterKey } from './stats';
import { World } from './world';
import { SimLlrpReader } from './llrp-reader';
import { SimIotReader } from './iot-reader';
import { DEMO_PORTAL_NOISE, randomPassages, type Passage } from './portal';
import { createPortalConfiguration, demoPortals, scorePortalRun } from './portal-demo';

export interface RunDeps {
  readonly clock?: Clock;
  readonly log?: Logger;
  readonly transport?: Transport;
  /** Aborting ends the run (Ctrl-C). */
  readonly signal?: AbortSignal;
  /** Where text progress lines go (default stderr). */
  readonly writeProgress?: (line: string) => void;
}

export interface Summary {
  readonly seed: number;
  readonly elapsedSeconds: number;
  readonly readers: number;
  readonly tags: number;
  readonly jobId: string | null;
  readonly totals: Record<CounterKey, number>;
  readonly perReader: Record<string, Record<CounterKey, number> & { state: string }>;
  readonly lastErrors: readonly string[];
  /** --demo: the door, its THRESHOLD job and how its transitions scored against what really happened. */
  readonly door?: {
    readonly jobId: string | null;
    readonly passages: number;
    readonly observations: number;
    readonly score: Awaited<ReturnType<typeof scorePortalRun>> | null;
  };
}

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

export async function runSimulation(o: SimOptions, deps: RunDeps = {}): Promise<Summary> {
  const clock = deps.clock ?? realClock;
  const log = deps.log ?? createLogger('simulator');
  const transport = deps.transport ?? fetchTransport();
  const admin = new HttpClient(o.url, basicAuth(o.user, o.password), transport);

  let scenario: Scenario | null = null;
  if (o.scenario) scenario = parseScenario(readFileSync(o.scenario, 'utf8'), { facility: o.facility, prefix: o.prefix });
  let layout: Layout;
  if (scenario) layout = { ...scenario.layout, readers: scenario.layout.readers.slice(0, o.readers ?? undefined) };
  else if (o.demo) layout = generateLayout({ facility: o.facility, readers: o.readers ?? 4, families: o.families, tags: o.tags, seed: o.seed, prefix: o.prefix });
  else layout = await layoutFromService(admin, o);
  const world = scenario ? World.scripted(layout, o.seed, scenario.moves) : World.random(layout, o.seed);
  log.info('world ready', { source: scenario ? `scenario ${scenario.name}` : o.demo ? 'generated' : 'service', facility: layout.facility, zones: layout.zones.length, readers: layout.readers.map((r) => `${r.name} (${r.family})`), tags: layout.tags.length, seed: o.seed, timeScale: o.timeScale });

  const stats = new Stats(clock.now());
  const t0 = clock.now();
  // LLRP: every reader is a TCP server tagtrail's readers role connects to; no agents.
  const llrpReaders: SimLlrpReader[] = [];
  if (o.protocol === 'llrp') {
    const ports = o.demo || scenario ? new Map<string, number>() : await definitionPorts(admin);
    for (const [i, r] of layout.readers.entries()) {
      const port = o.llrpPort > 0 ? o.llrpPort + i : (ports.get(r.name) ?? 0);
      const sim = new SimLlrpReader({ reader: r, world, seed: o.seed, t0, timeScale: o.timeScale, host: o.llrpHost, port, log: log.child('llrp', { reader: r.name }), stats });
      await sim.listen();
      llrpReaders.push(sim);
      stats.reader(r.name).state = 'IDLE';
    }
    log.info('LLRP readers listening', { readers: llrpReaders.map((s) => `${s.name} ${o.llrpHost}:${s.port}`) });
  }
  // IoT: every reader is an Impinj IoT-interface reader (REST, HTTP Basic with a password of this run).
  const iotReaders: SimIotReader[] = [];
  const iotPassword = `sim-${Math.random().toString(36).slice(2)}`;
  if (o.protocol === 'iot') {
    for (const [i, r] of layout.readers.entries()) {
      const sim = new SimIotReader({ reader: r, world, seed: o.seed, t0, timeScale: o.timeScale, port: o.llrpPort > 0 ? o.llrpPort + i : 0, username: 'root', password: iotPassword, log: log.child('iot', { reader: r.name }), stats });
      await sim.listen();
      iotReaders.push(sim);
      stats.reader(r.name).state = 'IDLE';
    }
    log.info('IoT readers listening', { readers: iotReaders.map((s) => `${s.name} 127.0.0.1:${s.port}`), delivery: o.iotDelivery });
  }
  const connections =
    o.protocol === 'llrp'
      ? new Map(llrpReaders.map((s) => [s.name, { address: o.llrpHost, connection: { protocol: 'LLRP', port: s.port } }]))
      : o.protocol === 'iot'
        ? new Map(iotReaders.map((s) => [s.name, { address: o.llrpHost, connection: { protocol: 'IOT', scheme: 'http', port: s.port, username: 'root', password: iotPassword, delivery: o.iotDelivery } }]))
        : undefined;
  // With --demo the run's readers have a group of their own and the job takes only them.
  const names: DemoNames = o.demo ? await createDemoConfiguration(admin, layout, o.prefix, log, { timeScale: o.timeScale, ...(connections ? { connections } : {}) }) : demoNames(o.prefix, '');
  const readerGroups = o.demo ? [names.runGroup] : undefined;

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

  // --demo --start-job includes a door: overhead readers of their own (own stats, so the totals stay those of the zone readers), tags walking through it.
  // A scenario's portals replace the demo's door, and its passages the random ones; a scenario
  // without portals gets no door: it says exactly where its tags are, and random passages would move them.
  const portals = scenario ? scenario.portals : demoPortals(layout, o.prefix);
  // Only with a job to run: without one its readers would read nothing.
  const door = o.demo && o.startJob && o.protocol === 'agent' && portals.length > 0 ? await createPortalConfiguration(admin, portals, layout.facility, o.prefix, log) : undefined;
  const doorStats = new Stats(clock.now());
  const worldSpan = o.duration ? o.duration * o.timeScale : 3600;
  const passages: readonly Passage[] = !door ? [] : scenario && scenario.portals.length > 0 ? scenario.passages : randomPassages({ portals: door.readers.map((r) => r.portal), epcs: layout.tags.map((t) => t.epc), seed: o.seed, from: 2, until: worldSpan, everySeconds: 3 });
  const doorAgents: SimAgent[] = [];
  for (const { portal, reader } of door?.readers ?? []) {
    const secret = await issueSecret(admin, reader.name);
    doorAgents.push(new SimAgent({
      reader: { name: reader.name, family: reader.family, placement: reader.placement, antennas: reader.antennas }, world, seed: o.seed, clock, stats: doorStats, log: log.child('agent', { reader: reader.name }), t0, timeScale: o.timeScale,
      checkinMs: o.checkinSeconds ? o.checkinSeconds * 1000 : null,
      http: new HttpClient(o.url, agentAuth(reader.name, secret), transport),
      faultRates: {}, scriptedFaults: [],
      portal: { portal, reader, passages: passages.filter((p) => p.portal === portal.name), noise: DEMO_PORTAL_NOISE },
    }));
  }
  agents.push(...doorAgents);

  const stop = new AbortController();
  const onAbort = (): void => stop.abort();
  deps.signal?.addEventListener('abort', onAbort, { once: true });
  if (deps.signal?.aborted) stop.abort();
  const running = agents.map((a) => a.run(stop.signal));

  let jobId: string | null = null;
  let doorJobId: string | null = null;
  let worldT0 = clock.now();
  const finish = async (): Promise<Summary> => {
    // Agents first: a report racing the job's stop would only be refused.
    const worldEnd = ((clock.now() - worldT0) * o.timeScale) / 1000;
    stop.abort();
    await Promise.all(running);
    let doorScore: Awaited<ReturnType<typeof scorePortalRun>> | null = null;
    if (doorJobId) {
      try {
        await stopJob(admin, doorJobId);
        // The engine decides the passages still open when the job stops; give the projection a moment.
        await clock.sleep(3000);
        doorScore = await scorePortalRun(admin, doorJobId, passages, worldT0, o.timeScale, worldEnd);
        log.info('door transitions against what really happened', { jobId: doorJobId, ...doorScore });
      } catch (err) {
        stats.error('(door job)', (err as Error).message);
      }
    }
    if (jobId) {
      try {
        await stopJob(admin, jobId);
        log.info('job stopped', { jobId });
      } catch (err) {
        stats.error('(job)', (err as Error).message);
      }
    }
    // LLRP readers after the job's stop: tagtrail stops their ROSpecs and takes the last reads first.
    if (jobId && llrpReaders.length + iotReaders.length > 0) await clock.sleep(2000);
    for (const sim of [...llrpReaders, ...iotReaders]) await sim.close();
    clearInterval(progressTimer);
    deps.signal?.removeEventListener('abort', onAbort);
    const snap = stats.snapshot(clock.now());
    const summary: Summary = {
      seed: o.seed,
      elapsedSeconds: snap.elapsedSeconds,
      readers: layout.readers.length,
      tags: layout.tags.length,
      jobId,
      totals: snap.totals,
      perReader: Object.fromEntries([...stats.readers.entries()].map(([k, c]) => [k, { ...c }])),
      lastErrors: [...stats.lastErrors],
      ...(door ? { door: { jobId: doorJobId, passages: passages.length, observations: doorStats.snapshot(clock.now()).totals.observations, score: doorScore } } : {}),
    };
    return summary;
  };

  const emit = (): void => {
    const snap = stats.snapshot(clock.now());
    if (o.progress === 'text') (deps.writeProgress ?? ((l: string) => process.stderr.write(`${l}\n`)))(progressLine(snap));
    else if (o.progress === 'json') log.info('progress', snap);
  };
  const progressTimer = setInterval(emit, o.progressSeconds * 1000);
  progressTimer.unref();

  try {
    if (o.startJob) {
      const recipe = o.recipe ?? names.inventoryRecipe;
      jobId = await startJob(admin, recipe, layout.facility, `${o.prefix}job`, readerGroups);
      log.info('job started', { jobId, recipe, facility: layout.facility, ...(readerGroups ? { readerGroups } : {}) });
      await untilRunning(admin, jobId, agents, clock, stop.signal, log);
      if (door) {
        doorJobId = await startJob(admin, door.recipe, layout.facility, `${o.prefix}door-job`);
        log.info('door job started', { jobId: doorJobId, recipe: door.recipe });
        await untilRunning(admin, doorJobId, doorAgents, clock, stop.signal, log);
      }
    }
    // World time 0 is now: with a job, the moment its readers read, so the
    // first phase of a scenario is not spent while the job starts.
    const t0 = clock.now();
    worldT0 = t0;
    for (const a of agents) a.startTimeline(t0);
    const durationS = o.duration || (scenario?.durationSeconds ? scenario.durationSeconds / o.timeScale : 0);
    if (durationS > 0) {
      await clock.sleep(durationS * 1000, stop.signal);
      if (scenario && !o.duration) await settle(scenario, t0, o, agents, clock, stop.signal, log);
    } else await new Promise<void>((resolve) => (stop.signal.aborted ? resolve() : stop.signal.addEventListener('abort', () => resolve(), { once: true })));
  } catch (err) {
    await finish();
    throw err;
  }
  return finish();
}

/**
 * Waits until the job runs (its readers acknowledged), checking the readers
 * in as soon as it is STARTING rather than at their next regular check-in.
 */
async function untilRunning(admin: HttpClient, jobId: string, agents: readonly SimAgent[], clock: Clock, signal: AbortSignal, log: Logger): Promise<void> {
  const deadline = clock.now() + 60_000;
  let nudged = false;
  while (!signal.aborted && clock.now() < deadline) {
    const status = await jobStatus(admin, jobId);
    if (status === 'RUNNING' || status === 'STOPPING' || status === 'STOPPED') {
      log.info('job status', { jobId, status });
      return;
    }
    if (status === 'STARTING' && !nudged) {
      nudged = true;
      for (const a of agents) a.checkinNow();
    }
    await clock.sleep(200, signal);
  }
  if (!signal.aborted) log.warn('job not RUNNING after 60 s; the scenario starts anyway', { jobId });
}

/**
 * A scenario's story ends after its timeline, but what the service makes of
 * it needs real time: a reader silenced by an outage must check in again
 * (RESPONDING), and a tag that left must stay unread for the recipe's expiry
 * before it is ABSENT. The run goes on until both could happen.
 */
async function settle(scenario: Scenario, t0: number, o: SimOptions, agents: readonly SimAgent[], clock: Clock, signal: AbortSignal, log: Logger): Promise<void> {
  const margin = 3_000;
  const lastLeave = Math.max(-Infinity, ...scenario.moves.filter((m) => m.leave).map((m) => m.at));
  // The demo recipes' expiry is known; with other recipes the run cannot tell.
  const expiryEnd = o.demo && Number.isFinite(lastLeave) ? t0 + (lastLeave * 1000) / o.timeScale + locationTiming(o.timeScale).expiryMs + margin : 0;
  const checkinMs = (o.checkinSeconds ?? 10) * 1000;
  const outageEnd = Math.max(0, ...agents.map((a) => a.silentUntilMs)) + checkinMs + margin;
  const until = Math.max(expiryEnd, outageEnd);
  const wait = until - clock.now();
  if (wait <= 0) return;
  log.info('scenario timeline done; waiting for the service to see its end', { seconds: Math.round(wait / 1000), outagesOverAt: new Date(outageEnd).toISOString(), ...(expiryEnd ? { absentAt: new Date(expiryEnd).toISOString() } : {}) });
  await clock.sleep(wait, signal);
}

export const runSummaryLines = (s: Summary): string[] => [
  `simulation finished after ${s.elapsedSeconds}s (seed ${s.seed}${s.jobId ? `, job ${s.jobId}` : ''})`,
  `  readers ${s.readers}, tags ${s.tags}`,
  `  check-ins ${s.totals.checkins}, reports sent ${s.totals.reportsSent}, accepted ${s.totals.reportsAccepted}, refused ${s.totals.reportsRefused}, retried ${s.totals.reportsRetried}`,
  `  observations ${s.totals.observations}, health events ${s.totals.healthEvents}, feature changes ${s.totals.featureChanges}, commands ${s.totals.commands}, errors ${s.totals.errors}`,
  ...Object.entries(s.perReader).map(([name, c]) => `  ${name}: ${c.state}, reports ${c.reportsAccepted}/${c.reportsSent}, refused ${c.reportsRefused}, observations ${c.observations}, errors ${c.errors}`),
  ...(s.lastErrors.length ? ['  last errors:', ...s.lastErrors.map((e) => `    ${e}`)] : []),
];
