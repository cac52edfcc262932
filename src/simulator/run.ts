// One simulator run: build the world (scenario, generated, or the service's
// own reader definitions), optionally create the demo configuration and
// start a job, issue agent secrets, run the agents until the duration ends
// or the run is aborted, and answer the summary.
import { createLogger, type Logger } from '../core/logger';
import type { SimAgent } from './agent';
import { realClock, type Clock } from './clock';
import { createDemoConfiguration, demoNames, jobStatus, locationTiming, startJob, stopJob, type DemoNames } from './demo';
import { basicAuth, fetchTransport, HttpClient, type Transport } from './http';
import type { SimOptions } from './options';
import type { Scenario } from './scenario';
import { progressLine, Stats, type CounterKey } from './stats';
import { prepareDoor, prepareWorld, startProtocolReaders, zoneAgents, type Door, type ProtocolReaders, type RunContext } from './run-setup';
import { scorePortalRun } from './portal-demo';

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

export async function runSimulation(o: SimOptions, deps: RunDeps = {}): Promise<Summary> {
  const clock = deps.clock ?? realClock;
  const log = deps.log ?? createLogger('simulator');
  const transport = deps.transport ?? fetchTransport();
  const admin = new HttpClient(o.url, basicAuth(o.user, o.password), transport);
  const { scenario, layout, world } = await prepareWorld(o, admin);
  log.info('world ready', { source: scenario ? `scenario ${scenario.name}` : o.demo ? 'generated' : 'service', facility: layout.facility, zones: layout.zones.length, readers: layout.readers.map((r) => `${r.name} (${r.family})`), tags: layout.tags.length, seed: o.seed, timeScale: o.timeScale });
  const ctx: RunContext = { o, admin, clock, log, transport, scenario, layout, world, stats: new Stats(clock.now()), t0: clock.now() };
  const readers = await startProtocolReaders(ctx);
  // With --demo the run's readers have a group of their own and the job takes only them.
  const names: DemoNames = o.demo ? await createDemoConfiguration(admin, layout, o.prefix, log, { timeScale: o.timeScale, ...(readers.connections ? { connections: readers.connections } : {}) }) : demoNames(o.prefix, '');
  const agents = await zoneAgents(ctx);
  // --demo --start-job includes a door: overhead readers of their own, tags walking through it.
  const door = await prepareDoor(ctx);
  agents.push(...door.agents);
  const run = new SimulationRun(ctx, deps, readers, door, agents);
  try {
    await run.play(o.recipe ?? names.inventoryRecipe, o.demo ? [names.runGroup] : undefined);
  } catch (err) {
    await run.finish();
    throw err;
  }
  return run.finish();
}

/**
 * A run once it is set up: its agents running until the duration ends or the
 * run is aborted, its jobs, its progress lines, and how it ends (agents
 * stopped first, then the jobs, then the readers tagtrail connects to).
 */
class SimulationRun {
  private readonly stop = new AbortController();
  private readonly onAbort = (): void => this.stop.abort();
  private readonly running: Array<Promise<void>>;
  private readonly progressTimer: NodeJS.Timeout;
  private jobId: string | null = null;
  private doorJobId: string | null = null;
  /** World time 0: when the readers start reading (after the jobs started). */
  private worldT0: number;

  constructor(
    private readonly ctx: RunContext,
    private readonly deps: RunDeps,
    private readonly readers: ProtocolReaders,
    private readonly door: Door,
    private readonly agents: readonly SimAgent[],
  ) {
    deps.signal?.addEventListener('abort', this.onAbort, { once: true });
    if (deps.signal?.aborted) this.stop.abort();
    this.running = agents.map((a) => a.run(this.stop.signal));
    this.worldT0 = ctx.clock.now();
    this.progressTimer = setInterval(() => this.emit(), ctx.o.progressSeconds * 1000);
    this.progressTimer.unref();
  }

  /** Starts the jobs (--start-job), then lets the world run for the duration, the scenario, or until aborted. */
  async play(recipe: string, readerGroups: string[] | undefined): Promise<void> {
    const { o, admin, clock, log, layout, scenario } = this.ctx;
    const signal = this.stop.signal;
    if (o.startJob) {
      this.jobId = await startJob(admin, recipe, layout.facility, `${o.prefix}job`, readerGroups);
      log.info('job started', { jobId: this.jobId, recipe, facility: layout.facility, ...(readerGroups ? { readerGroups } : {}) });
      await untilRunning(admin, this.jobId, this.agents, clock, signal, log);
      if (this.door.door) {
        this.doorJobId = await startJob(admin, this.door.door.recipe, layout.facility, `${o.prefix}door-job`);
        log.info('door job started', { jobId: this.doorJobId, recipe: this.door.door.recipe });
        await untilRunning(admin, this.doorJobId, this.door.agents, clock, signal, log);
      }
    }
    // World time 0 is now: with a job, the moment its readers read, so the
    // first phase of a scenario is not spent while the job starts.
    const t0 = clock.now();
    this.worldT0 = t0;
    for (const a of this.agents) a.startTimeline(t0);
    for (const r of this.door.llrp) r.startWorld(t0);
    const durationS = o.duration || (scenario?.durationSeconds ? scenario.durationSeconds / o.timeScale : 0);
    if (durationS > 0) {
      await clock.sleep(durationS * 1000, signal);
      if (scenario && !o.duration) await settle(scenario, t0, o, this.agents, clock, signal, log);
    } else await new Promise<void>((resolve) => (signal.aborted ? resolve() : signal.addEventListener('abort', () => resolve(), { once: true })));
  }

  /** Stops everything (agents first: a report racing the job's stop would only be refused) and answers the summary. */
  async finish(): Promise<Summary> {
    const { o, clock, stats, layout } = this.ctx;
    const worldEnd = ((clock.now() - this.worldT0) * o.timeScale) / 1000;
    this.stop.abort();
    await Promise.all(this.running);
    const doorScore = await this.stopDoorJob(worldEnd);
    await this.stopJob();
    // LLRP and IoT readers after the job's stop: tagtrail stops their ROSpecs and takes the last reads first.
    const connected = [...this.readers.llrp, ...this.readers.iot, ...this.door.llrp];
    if (this.jobId && connected.length > 0) await clock.sleep(2000);
    for (const sim of connected) await sim.close();
    clearInterval(this.progressTimer);
    this.deps.signal?.removeEventListener('abort', this.onAbort);
    const snap = stats.snapshot(clock.now());
    const { door, passages } = this.door;
    return {
      seed: o.seed,
      elapsedSeconds: snap.elapsedSeconds,
      readers: layout.readers.length,
      tags: layout.tags.length,
      jobId: this.jobId,
      totals: snap.totals,
      perReader: Object.fromEntries([...stats.readers.entries()].map(([k, c]) => [k, { ...c }])),
      lastErrors: [...stats.lastErrors],
      ...(door ? { door: { jobId: this.doorJobId, passages: passages.length, observations: this.door.stats.snapshot(clock.now()).totals.observations, score: doorScore } } : {}),
    };
  }

  /** Stops the door's job and scores its transitions against the passages that really happened. */
  private async stopDoorJob(worldEnd: number): Promise<Awaited<ReturnType<typeof scorePortalRun>> | null> {
    if (!this.doorJobId) return null;
    const { o, admin, clock, log, stats } = this.ctx;
    try {
      await stopJob(admin, this.doorJobId);
      // The engine decides the passages still open when the job stops; give the projection a moment.
      await clock.sleep(3000);
      const score = await scorePortalRun(admin, this.doorJobId, this.door.passages, this.worldT0, o.timeScale, worldEnd);
      log.info('door transitions against what really happened', { jobId: this.doorJobId, ...score });
      return score;
    } catch (err) {
      stats.error('(door job)', (err as Error).message);
      return null;
    }
  }

  private async stopJob(): Promise<void> {
    if (!this.jobId) return;
    const { admin, log, stats } = this.ctx;
    try {
      await stopJob(admin, this.jobId);
      log.info('job stopped', { jobId: this.jobId });
    } catch (err) {
      stats.error('(job)', (err as Error).message);
    }
  }

  private emit(): void {
    const { o, clock, stats, log } = this.ctx;
    const snap = stats.snapshot(clock.now());
    if (o.progress === 'text') (this.deps.writeProgress ?? ((l: string) => process.stderr.write(`${l}\n`)))(progressLine(snap));
    else if (o.progress === 'json') log.info('progress', snap);
  }
}

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
