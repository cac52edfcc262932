// One simulated reader agent speaking the v1 agent protocol
// (docs/agent-protocol.md): check-in loop, assignment acknowledgement, a
// tag report per reporting window computed from the world model, health
// events for injected faults, feature changes and commands. One agenda per
// agent, run by one loop, so an agent never races itself.
import { isLeft } from 'fp-ts/Either';
import { formatDecodeErrors } from '../core/decode-errors';
import type { Logger } from '../core/logger';
import { AgentTasks } from './agent-tasks';
import { CheckinAnswer, readSettingsOf, type AssignmentDoc } from './assignment';
import { ReportSchedule, reportingIntervalMs, type Clock } from './clock';
import { describeAnswer, enc, type HttpClient } from './http';
import { LOCATION_FAMILIES, type ReaderLayout } from './layout';
import { hex, intBelow, rngFor, type Rng } from './prng';
import { newSessionState, readWindow, type ReadSettings, type SessionState } from './radio';
import { reportBody, type ReportBody } from './report-body';
import type { FaultKind, ScriptedFault } from './scenario';
import type { Stats } from './stats';
import type { UpgradeFault } from './upgrade';
import type { World } from './world';
import { readPortalWindow, type Passage, type PortalDef, type PortalNoise, type PortalReader } from './portal';

export interface AgentDeps {
  readonly reader: ReaderLayout;
  readonly world: World;
  readonly seed: number;
  readonly http: HttpClient;
  readonly clock: Clock;
  readonly stats: Stats;
  readonly log: Logger;
  /** Probability per report (per check-in for not-responding). */
  readonly faultRates: Readonly<Partial<Record<FaultKind, number>>>;
  readonly scriptedFaults: readonly ScriptedFault[];
  /** Real epoch ms at world time 0, and world seconds per real second. */
  readonly t0: number;
  readonly timeScale: number;
  /** Check-in interval override (ms); null = the service's. */
  readonly checkinMs?: number | null;
  /** How long an UPGRADE command takes (default DEFAULT_UPGRADE_MS). */
  readonly upgradeMs?: number;
  /** Injected failures of this reader's next upgrades, in order (each applies once). */
  readonly upgradeFaults?: readonly UpgradeFault[];
  /** A portal reader (./portal.ts): its reads come from the door's passages, not from the zones' world. */
  readonly portal?: PortalFeed;
}

export interface PortalFeed {
  readonly portal: PortalDef;
  readonly reader: PortalReader;
  readonly passages: readonly Passage[];
  readonly noise: PortalNoise;
}

/** A firmware upgrade of a fixed reader takes minutes; the simulator's default. */
export const DEFAULT_UPGRADE_MS = 90_000;

interface Reading {
  readonly jobId: string;
  readonly settings: ReadSettings;
  readonly schedule: ReportSchedule;
  readonly state: SessionState;
}

interface Action {
  readonly due: number;
  readonly run: () => Promise<void>;
}

const RESTART_MS = 4_000;
/** Reports an agent keeps while the service cannot take them; past this the oldest is dropped. */
const MAX_UNSENT_REPORTS = 10_000;
/** No answer (0), too many requests, or the service unavailable: send the same report again later. */
export const isRetryable = (status: number): boolean => status === 0 || status === 429 || status === 502 || status === 503 || status === 504;

export class SimAgent {
  readonly agentId: string;
  private readonly base: string;
  private readonly rng: Rng;
  /** Timing jitter only, kept apart so that it does not shift the fault draws. */
  private readonly jitter: Rng;
  private agenda: Action[] = [];
  private checkinMs = 10_000;
  /** The interval the service answers: it counts missed check-ins by this one, whatever our override. */
  private serviceCheckinMs = 10_000;
  private reading: Reading | null = null;
  private silentUntil = 0;
  private readonly features: Record<string, string> = { ANTENNA_HUB: 'DISABLED' };
  private readonly tasks: AgentTasks;
  private readonly pendingFaults: ScriptedFault[];
  private skewMs = 0;
  /** Faults a scenario scheduled, applied to the next report. */
  private readonly forced = new Set<FaultKind>();
  private warnedNoRead = '';
  private lastCheckinMs = 0;
  private updating = false;
  /**
   * Reports the service could not take yet (no answer, 429 or 5xx, e.g. a
   * 503 while Redis is away), oldest first: a real agent keeps them and
   * sends them again, with the same reportId, so none is lost.
   */
  private readonly unsent: ReportBody[] = [];
  private readonly resending = new Set<string>();
  private sending = false;
  private readonly versions: { App: string; Firmware: string };
  private readonly upgradeFaults: UpgradeFault[];
  /** Real epoch ms at world time 0 (moved by startTimeline). */
  private t0: number;
  private faultActions: Action[] = [];
  /** Ends the run loop's current wait early. */
  private wake: AbortController | null = null;

  constructor(private readonly d: AgentDeps) {
    this.t0 = d.t0;
    this.base = `/agent/v1/readers/${enc(d.reader.name)}`;
    this.rng = rngFor(d.seed, 'faults', d.reader.name);
    this.jitter = rngFor(d.seed, 'jitter', d.reader.name);
    this.agentId = `sim-${hex(rngFor(d.seed, 'agent', d.reader.name), 6).toLowerCase()}`;
    this.pendingFaults = [...d.scriptedFaults].sort((a, b) => a.at - b.at);
    if (d.checkinMs) this.checkinMs = d.checkinMs;
    this.versions = { App: 'sim-0.1.0', Firmware: FIRMWARE[d.reader.family] };
    this.upgradeFaults = [...(d.upgradeFaults ?? [])];
    this.tasks = new AgentTasks({
      name: d.reader.name, base: this.base, http: d.http, clock: d.clock, stats: d.stats, log: d.log,
      schedule: (due, run) => void this.schedule(due, run),
      health: (type, code, args) => this.health(type, code, args),
      setFeature: (feature, status) => (this.features[feature] = status),
      goSilent: (ms) => this.goSilent(ms),
      upgradeMs: d.upgradeMs ?? DEFAULT_UPGRADE_MS,
      takeUpgradeFault: () => this.upgradeFaults.shift() ?? null,
      setUpdating: (on) => {
        this.updating = on;
        d.stats.reader(d.reader.name).state = on ? 'UPDATING_FIRMWARE' : this.state();
        this.scheduleCheckin(this.d.clock.now());
      },
      setVersion: (imageType, version) => {
        if (imageType === 'FIRMWARE_READER') this.versions.Firmware = version;
        else this.versions.App = version;
      },
      syncClock: () => {
        const was = this.skewMs;
        this.skewMs = 0;
        return was;
      },
    });
    d.stats.reader(d.reader.name).state = 'IDLE';
  }

  get name(): string {
    return this.d.reader.name;
  }

  private worldSeconds(ms: number): number {
    return ((ms - this.t0) / 1000) * this.d.timeScale;
  }

  private realMs(worldSeconds: number): number {
    return this.t0 + (worldSeconds * 1000) / this.d.timeScale;
  }

  /**
   * Starts world time 0 at `t0` (real epoch ms): a run with a job starts its
   * story once the readers read, so no scripted phase passes unseen while
   * the job is starting. Scripted faults move with it.
   */
  startTimeline(t0: number): void {
    this.t0 = t0;
    this.scheduleScriptedFaults();
  }

  /** Checks in at once (a job was just started: its assignment is waiting). */
  checkinNow(): void {
    if (this.silent()) return;
    this.scheduleCheckin(this.d.clock.now());
    this.wake?.abort();
  }

  /** Real epoch ms until which a fault keeps this reader silent (0: never was). */
  get silentUntilMs(): number {
    return this.silentUntil;
  }

  private scheduleScriptedFaults(): void {
    const old = new Set(this.faultActions);
    this.agenda = this.agenda.filter((a) => !old.has(a));
    this.faultActions = this.pendingFaults.map((f) => this.schedule(this.realMs(f.at), () => this.inject(f.fault, f.seconds, 'scenario')));
  }

  private schedule(due: number, run: () => Promise<void>): Action {
    const action = { due, run };
    this.agenda.push(action);
    this.agenda.sort((a, b) => a.due - b.due);
    return action;
  }

  private nextCheckin: Action | null = null;

  private scheduleCheckin(due: number): void {
    if (this.nextCheckin) this.agenda = this.agenda.filter((a) => a !== this.nextCheckin);
    this.nextCheckin = this.schedule(due, () => this.checkin());
  }

  async run(signal: AbortSignal): Promise<void> {
    this.scheduleCheckin(this.d.clock.now());
    this.scheduleScriptedFaults();
    while (!signal.aborted) {
      const next = this.agenda[0];
      if (!next) break;
      const wait = next.due - this.d.clock.now();
      if (wait > 0) {
        // checkinNow() cuts the wait short: its check-in is due now.
        const wake = new AbortController();
        this.wake = wake;
        await this.d.clock.sleep(wait, AbortSignal.any([signal, wake.signal]));
        this.wake = null;
        continue; // re-check: the agenda may have changed
      }
      this.agenda.shift();
      try {
        await next.run();
      } catch (err) {
        this.d.stats.error(this.name, (err as Error).message);
        this.d.log.warn('agent action failed', { reader: this.name, err: err as Error });
      }
    }
    this.d.stats.reader(this.name).state = 'STOPPED';
  }

  /** Silent for ms: no check-in, no report; inventoried flags are lost with the power. */
  private goSilent(ms: number): void {
    this.silentUntil = Math.max(this.silentUntil, this.d.clock.now() + ms);
    if (this.reading) this.reading.state.clear();
    this.scheduleCheckin(this.silentUntil);
  }

  private silent(): boolean {
    return this.d.clock.now() < this.silentUntil;
  }

  private state(): string {
    if (this.updating) return 'UPDATING_FIRMWARE';
    return this.reading ? 'RUNNING_JOB' : 'IDLE';
  }

  // --- check-in -----------------------------------------------------------

  private async checkin(): Promise<void> {
    if (this.silent()) return this.scheduleCheckin(this.silentUntil);
    const now = this.d.clock.now();
    this.scheduleCheckin(now + this.checkinMs);
    if (this.maybeFault('not-responding')) return;
    const body = { agentId: this.agentId, versions: { ...this.versions }, state: this.state(), features: { ...this.features } };
    const a = await this.d.http.request('POST', `${this.base}/checkin`, body);
    this.lastCheckinMs = now;
    if (a.status !== 200) {
      this.d.stats.error(this.name, `check-in ${describeAnswer(a)}`);
      return;
    }
    this.d.stats.add(this.name, 'checkins');
    const decoded = CheckinAnswer.decode(a.body);
    if (isLeft(decoded)) {
      const errs = formatDecodeErrors(decoded.left).map((e) => `${e.path} ${e.reason}`).join('; ');
      this.d.stats.error(this.name, `check-in answer not understood: ${errs}`);
      await this.health('SOFTWARE_FAULT', 'UNMARSHAL', { message: `check-in answer not understood: ${errs}` });
      return;
    }
    const answer = decoded.right;
    if (answer.checkinIntervalSeconds && answer.checkinIntervalSeconds > 0) this.serviceCheckinMs = answer.checkinIntervalSeconds * 1000;
    if (!this.d.checkinMs && answer.checkinIntervalSeconds && answer.checkinIntervalSeconds > 0) {
      const ms = answer.checkinIntervalSeconds * 1000;
      if (ms !== this.checkinMs) {
        this.checkinMs = ms;
        this.scheduleCheckin(now + ms);
      }
    }
    await this.onAssignment(answer.assignment ?? null);
    for (const fc of answer.featureChanges ?? []) this.tasks.featureChange(fc.feature, fc.target);
    for (const cmd of answer.commands ?? []) await this.tasks.command(cmd.id, cmd.type, cmd.args ?? {});
    // The service answers again: send what it could not take before (also when no job runs any more).
    await this.sendUnsent();
  }

  private async onAssignment(a: AssignmentDoc | null): Promise<void> {
    const c = this.d.stats.reader(this.name);
    if (!a) {
      if (this.reading) this.d.log.info('assignment ended; reading stopped', { reader: this.name, jobId: this.reading.jobId });
      this.reading = null;
      c.state = 'IDLE';
      c.jobId = null;
      return;
    }
    if (!a.acknowledged) {
      let ack = await this.d.http.request('POST', `${this.base}/assignments/${enc(a.jobId)}/ack`);
      // Readers acknowledging at the same instant may meet on the job's stream: the service says "retry".
      for (let i = 0; i < 3 && ack.status === 409 && /concurrent/i.test(describeAnswer(ack)); i++) {
        await this.d.clock.sleep(100 + intBelow(this.jitter, 200));
        ack = await this.d.http.request('POST', `${this.base}/assignments/${enc(a.jobId)}/ack`);
      }
      if (ack.status !== 204 && ack.status !== 200) {
        this.d.stats.error(this.name, `acknowledge job ${a.jobId}: ${describeAnswer(ack)}`);
        return;
      }
      this.d.log.info('assignment acknowledged', { reader: this.name, jobId: a.jobId });
    }
    if (this.reading?.jobId === a.jobId) return;
    const settings = readSettingsOf(a.readerConfiguration);
    if (typeof settings === 'string') {
      if (this.warnedNoRead !== a.jobId) this.d.log.info('assigned, not reading', { reader: this.name, jobId: a.jobId, reason: settings });
      this.warnedNoRead = a.jobId;
      return;
    }
    if (settings.operation === 'LOCATION' && !LOCATION_FAMILIES.has(this.d.reader.family)) {
      if (this.warnedNoRead !== a.jobId) {
        await this.health('SOFTWARE_FAULT', 'LLRP', { message: `${this.d.reader.family} readers cannot run LOCATION` });
        this.warnedNoRead = a.jobId;
      }
      return;
    }
    // THRESHOLD recipes have no reporting interval: door readers report every 500 ms, so a passage of a few seconds is seen in several steps.
    const intervalMs = a.readerConfiguration['operation'] === 'THRESHOLD' ? 500 : reportingIntervalMs(a.recipe['reportingInterval']);
    this.reading = { jobId: a.jobId, settings, schedule: new ReportSchedule(this.d.clock.now(), intervalMs), state: newSessionState() };
    c.state = 'RUNNING_JOB';
    c.jobId = a.jobId;
    this.d.log.info('reading started', { reader: this.name, jobId: a.jobId, operation: settings.operation, intervalMs });
    this.scheduleReport(this.reading);
  }

  // --- reports --------------------------------------------------------------

  private scheduleReport(r: Reading): void {
    this.schedule(r.schedule.dueAt(), () => this.report(r));
  }

  private async report(r: Reading): Promise<void> {
    if (this.reading !== r) return; // the job ended or changed
    const now = this.d.clock.now();
    const w = r.schedule.take(now);
    this.scheduleReport(r);
    if (this.silent()) return; // not responding: the window is lost
    const from = this.worldSeconds(w.from);
    const to = this.worldSeconds(w.to);
    const door = this.d.portal;
    let observations = door
      ? readPortalWindow({ ...door, from, to, readerMode: r.settings.readerMode, seed: this.d.seed })
      : readWindow({ world: this.d.world, reader: this.d.reader, settings: r.settings, from, to, seed: this.d.seed, state: r.state });
    if (observations.length && this.maybeFault('dropped-reads')) {
      const keep = observations.filter(() => this.rng() > 0.3);
      await this.health('THROUGHPUT', 'DROPPED_READ', { message: `agent buffer overflow: dropped ${observations.length - keep.length} of ${observations.length} observations` });
      observations = keep;
    }
    if (this.maybeFault('ntp')) {
      this.skewMs = (intBelow(this.rng, 9) - 4) * 500 || 1500;
      await this.health('CLOCK_SYNC', 'NTP', { message: `clock not synchronised; offset ${this.skewMs} ms` });
    }
    const body = reportBody(r.jobId, w, observations, this.skewMs, (ws) => this.realMs(ws));
    this.skewMs = 0;
    if (this.maybeFault('network')) {
      // The report reaches the server but its answer is lost: retry with the same reportId.
      await this.d.http.request('POST', `${this.base}/reports`, body).catch(() => undefined);
      this.d.stats.add(this.name, 'reportsRetried');
      await this.health('CONNECTION', 'NETWORK', { message: 'no answer to a tag report (time-out); retrying' });
    }
    this.d.stats.add(this.name, 'reportsSent');
    this.unsent.push(body);
    if (this.unsent.length > MAX_UNSENT_REPORTS) this.d.stats.error(this.name, `report ${this.unsent.shift()?.reportId}: dropped, ${MAX_UNSENT_REPORTS} reports wait to be resent`);
    await this.sendUnsent();
    if (this.maybeFault('restart')) await this.inject('restart', null, 'random');
  }

  /** Sends the kept reports in order; stops at the first the service cannot take yet. */
  private async sendUnsent(): Promise<void> {
    if (this.sending) return; // a report tick and a check-in may meet: one sender at a time
    this.sending = true;
    try {
      for (let body = this.unsent[0]; body !== undefined && (await this.sendKept(body)); body = this.unsent[0]);
    } finally {
      this.sending = false;
    }
  }

  /** One kept report: false when the service asks for it again later (it stays first in line). */
  private async sendKept(body: ReportBody): Promise<boolean> {
    const a = await this.d.http.request('POST', `${this.base}/reports`, body).catch((err: unknown) => ({ status: 0, body: String(err) }));
    if (isRetryable(a.status)) {
      if (!this.resending.has(body.reportId)) this.d.log.info('report kept to be sent again', { reader: this.name, reportId: body.reportId, waiting: this.unsent.length, answer: describeAnswer(a) });
      this.resending.add(body.reportId);
      return false;
    }
    this.unsent.shift();
    if (this.resending.delete(body.reportId)) this.d.stats.add(this.name, 'reportsRetried');
    if (a.status === 200 || a.status === 201 || a.status === 202 || a.status === 204) {
      this.d.stats.add(this.name, 'reportsAccepted');
      this.d.stats.add(this.name, 'observations', body.observations.length);
    } else if (a.status === 409) {
      this.d.stats.add(this.name, 'reportsRefused');
      this.d.log.info('report refused', { reader: this.name, jobId: body.jobId, answer: describeAnswer(a) });
    } else this.d.stats.error(this.name, `report ${describeAnswer(a)}`);
    return true;
  }

  // --- faults ---------------------------------------------------------------

  /** Draws whether a random fault happens now (one draw per opportunity, from the reader's own PRNG). */
  private maybeFault(kind: FaultKind): boolean {
    if (this.forced.delete(kind)) return true;
    const rate = this.d.faultRates[kind];
    if (!rate) return false;
    if (this.rng() >= rate) return false;
    if (kind === 'not-responding') void this.inject(kind, null, 'random');
    return true;
  }

  private async inject(kind: FaultKind, seconds: number | null, source: string): Promise<void> {
    const now = this.d.clock.now();
    this.d.log.info('fault injected', { reader: this.name, fault: kind, source });
    switch (kind) {
      case 'not-responding': {
        // Silent past the point where the server counts missed check-ins;
        // what it sees is only the silence. A scripted outage shortened by
        // --time-scale still lasts that long, or the service (which counts
        // in real time) would never notice it.
        const noticed = 3 * Math.max(this.checkinMs, this.serviceCheckinMs) + this.checkinMs + 2_000;
        const ms = seconds !== null ? Math.max((seconds * 1000) / this.d.timeScale, noticed) : noticed + 3_000;
        this.silentUntil = Math.max(this.silentUntil, now + ms);
        this.d.log.info('reader silent', { reader: this.name, seconds: Math.round(ms / 100) / 10 });
        return;
      }
      case 'restart':
        await this.health('HARDWARE_FAULT', 'READER_RESTART', { message: 'reader closed its connection unexpectedly; reconnecting' });
        this.goSilent(seconds !== null ? (seconds * 1000) / this.d.timeScale : RESTART_MS);
        return;
      case 'network':
      case 'dropped-reads':
      case 'ntp':
        // Applied to the next report (with its health event); when not reading, only the event.
        if (this.reading) this.forced.add(kind);
        else await this.health(...IDLE_FAULT_EVENTS[kind]);
        return;
      default: {
        const never: never = kind;
        throw new Error(`unknown fault ${String(never)}`);
      }
    }
  }

  private async health(type: string, code: string, args: Record<string, unknown>): Promise<void> {
    const at = new Date(this.d.clock.now()).toISOString();
    const a = await this.d.http.request('POST', `${this.base}/health`, { events: [{ eventTime: at, type, code, args }] });
    if (a.status === 204 || a.status === 200) this.d.stats.add(this.name, 'healthEvents');
    else this.d.stats.error(this.name, `health event ${type}/${code}: ${describeAnswer(a)}`);
  }

  /** For tests: the versions the agent reports. */
  get reportedVersions(): { App: string; Firmware: string } {
    return { ...this.versions };
  }

  /** For tests: when the agent last checked in (real ms). */
  get lastCheckin(): number {
    return this.lastCheckinMs;
  }
}

const IDLE_FAULT_EVENTS: Record<'network' | 'dropped-reads' | 'ntp', [string, string, Record<string, unknown>]> = {
  network: ['CONNECTION', 'NETWORK', { message: 'network failure: no answer from the service' }],
  'dropped-reads': ['THROUGHPUT', 'DROPPED_READ', { message: 'agent buffer overflow' }],
  ntp: ['CLOCK_SYNC', 'NTP', { message: 'clock not synchronised' }],
};

const FIRMWARE: Record<ReaderLayout['family'], string> = { XARRAY: '7.6.1', XSPAN: '7.6.1', XPORTAL: '7.6.1', SPEEDWAY: '6.4.1' };
