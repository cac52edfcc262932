// tagtrail's connection to one LLRP reader (docs/readers.md): holds the
// reader's lease, connects, runs the host sequence, keeps the link alive by
// KEEPALIVE, reconnects with back-off and jitter, and runs the reader's part
// of a job: the reader configuration becomes a ROSpec (plan.ts), started on
// the reader, acknowledged to the job; tag reads become TagsReported through
// the agent gateway's own acceptReport. What goes wrong becomes reader health
// events; what the reader cannot do fails the reader in the job.
import * as E from 'fp-ts/Either';
import type { AgentHealthEvent } from '../agents';
import { IMPINJ, MSG, setLocationConfig, TAGTRAIL_ACCESSSPEC_ID, accessSpecCommand, addTidAccessSpec, LlrpCertificateError, LlrpClient, type LlrpMessage, type LlrpTls, addRoSpec, closeConnection, decodeCapabilities, decodeReaderEvent, decodeTagReads, getImpinjTemperature, getReaderCapabilities, impinjEnableExtensions, readerTemperatureOf, keepaliveAck, roSpecCommand, setReaderConfig, statusOf, type Capabilities } from '../llrp';
import { failInJob, readerHealth } from './job-side';
import { ReaderLinkBase, type LinkDeps } from './link-base';
import { readerConfigurationKind } from '../readerconfigurations';
import type { ReaderConfigDetails } from '../readerconfigurations';
import { planRoSpec, TAGTRAIL_ROSPEC_ID } from './plan';
import { doorPlanOf } from './door';
import { readerDefinitionOf, type ReaderDefinition } from '../readerdefinitions';
import { reconnectBackoff } from './settings';
import { setTimeout as delay } from 'node:timers/promises';
import { Backoff } from '../core/retry';
import type { PendingCommand } from '../agents';
import { llrpCommandOutcome, type CommandOutcome } from './commands';
import { CHECKIN_EVENT_INTERVAL_MS } from '../agents';

export interface LinkTarget {
  readonly name: string;
  readonly host: string;
  readonly port: number;
  /** LLRP over TLS and how the reader's certificate is checked; null: plain TCP. */
  readonly tls: LlrpTls | null;
}

/** The reader refused this host (another holds it) or answered an error: named by the reader. */
class ReaderRefusal extends Error {
  override name = 'ReaderRefusal';
}

/** A definition's placement as the location plan takes it (yaw in degrees); null without one. */
const placementOf = (def: ReaderDefinition | undefined): { x: number; y: number; z: number; yawDegrees: number } | null =>
  def?.placement == null ? null : { x: def.placement.x, y: def.placement.y, z: def.placement.z, yawDegrees: def.placement.yaw };

export class LlrpLink extends ReaderLinkBase {
  capabilities: Capabilities | null = null;
  /** Last time anything arrived from the reader (ms). */
  lastHeardMs = 0;
  private client: LlrpClient | undefined;
  /** One health event per streak of failed attempts, not one per retry. */
  private reportedDown = false;
  /** tagtrail's TID AccessSpec is on the reader (the running job asked for TIDs from a reader of another maker than Impinj). */
  private accessSpecAdded = false;

  constructor(
    readonly target: LinkTarget,
    d: LinkDeps,
  ) {
    super(target.name, d);
  }

  private now(): Date {
    return this.side.now();
  }

  get firmware(): string {
    return this.capabilities?.firmware ?? '';
  }

  protected perform(c: PendingCommand): Promise<CommandOutcome> {
    return Promise.resolve(llrpCommandOutcome(c));
  }

  /** Same reader at the same address (a changed definition reopens the link). */
  sameAs(t: LinkTarget): boolean {
    return t.host === this.target.host && t.port === this.target.port && JSON.stringify(t.tls) === JSON.stringify(this.target.tls);
  }

  async stop(): Promise<void> {
    // The reader stops reading and the last reads are stored before the connection closes.
    await this.stopLink(async () => {
      const client = this.client;
      if (client?.isOpen) {
        await client.request(MSG.CLOSE_CONNECTION, closeConnection, 2000).catch(() => undefined);
        client.destroy();
      }
    });
  }

  protected async run(): Promise<void> {
    const backoff = new Backoff(reconnectBackoff(this.d.settings.reconnectMaxMs));
    const signal = this.stopping.signal;
    while (!signal.aborted) {
      if (!(await this.lease.tryAcquire().catch(() => false))) {
        if (this.state !== 'standby') this.log.info('reader held by another tagtrail process; standing by', { reader: this.target.name });
        this.state = 'standby';
        await delay(Math.max(100, Math.floor(this.d.settings.leaseMs / 3)), undefined, { signal }).catch(() => undefined);
        continue;
      }
      this.lease.keep(() => {
        this.log.warn('reader lease lost; disconnecting', { reader: this.target.name });
        this.client?.destroy(new Error('lease lost to another process'));
      });
      this.state = 'connecting';
      const outcome = await this.session().catch((err: Error) => err);
      this.client = undefined;
      this.endJobLocally();
      if (signal.aborted) break;
      this.state = 'waiting';
      if (!(outcome instanceof Error)) backoff.reset();
      // Why a link that was up ended (the reader closed it, missed keepalives, the lease lost) is part of the report.
      const message = outcome instanceof Error ? outcome.message : `connection lost: ${outcome.lost.message}`;
      if (!this.reportedDown) {
        this.reportedDown = true;
        const refusal = outcome instanceof ReaderRefusal;
        // A certificate refused is not a network fault: it stays refused until someone acts.
        const [type, code] = refusal ? (['SOFTWARE_FAULT', 'READER_CONNECTION'] as const) : outcome instanceof LlrpCertificateError ? (['CONNECTION', 'BAD_CERTIFICATE'] as const) : (['CONNECTION', 'NETWORK'] as const);
        this.log.warn('reader connection lost or refused', { reader: this.target.name, address: `${this.target.host}:${this.target.port}`, reason: message });
        await this.health(type, code, { message });
      }
      // Free the reader for another process while this one waits.
      await this.lease.release();
      await delay(backoff.next(), undefined, { signal }).catch(() => undefined);
    }
  }

  /** One connection, from connect to close. Resolves (with why it closed) when the host sequence had completed. */
  private async session(): Promise<{ readonly lost: Error }> {
    const { host, port, name } = this.target;
    const timeout = this.d.settings.timeoutMs;
    let greeted: (m: LlrpMessage) => void = () => undefined;
    const greeting = new Promise<LlrpMessage>((r) => (greeted = r));
    let sawGreeting = false;
    const client = await LlrpClient.connect(host, port, timeout, (m) => {
      this.lastHeardMs = Date.now();
      if (!sawGreeting && m.type === MSG.READER_EVENT_NOTIFICATION) {
        sawGreeting = true;
        greeted(m);
        return;
      }
      this.onMessage(m);
    }, this.target.tls);
    this.client = client;
    try {
      // The reader speaks first: ConnectionAttemptEvent, status 0 when this host may stay.
      const hello = await Promise.race([greeting, client.closed.then((e) => Promise.reject(e ?? new Error('closed'))), delay(timeout).then(() => Promise.reject(new Error('the reader sent no ConnectionAttemptEvent')))]);
      const attemptStatus = decodeReaderEvent(hello).connectionAttempt;
      if (attemptStatus !== null && attemptStatus !== 0) {
        throw new ReaderRefusal(`the reader refused the connection (ConnectionAttemptEvent status ${attemptStatus}): another host holds it`);
      }
      let decoded = decodeCapabilities(await this.ask(client, MSG.GET_READER_CAPABILITIES, getReaderCapabilities));
      if (decoded.capabilities.manufacturer === IMPINJ.VENDOR) {
        // Impinj readers take their own parameters (search mode, peak RSSI) only once extensions are on,
        // and only then list their own capabilities (whether they locate tags): asked again.
        const on = await client.customRequest(impinjEnableExtensions, timeout).then(() => true, (err: unknown) => (this.log.debug('IMPINJ_ENABLE_EXTENSIONS failed', { reader: name, err }), false));
        if (on) decoded = decodeCapabilities(await this.ask(client, MSG.GET_READER_CAPABILITIES, getReaderCapabilities));
      }
      this.capabilities = decoded.capabilities;
      await this.ask(client, MSG.SET_READER_CONFIG, (id) => setReaderConfig(id, { keepaliveMs: this.d.settings.keepaliveMs }));
      // Whatever a previous host left on the reader (ROSpec 0 = every ROSpec).
      await this.ask(client, MSG.DELETE_ROSPEC, (id) => roSpecCommand(MSG.DELETE_ROSPEC, id, 0));
      // Before the link counts as connected, so the first check-in carries it.
      const impinj = decoded.capabilities.manufacturer === IMPINJ.VENDOR;
      if (impinj) await this.readTemperature(client);
      this.state = 'connected';
      if (this.reportedDown) this.log.info('reader connected again', { reader: name });
      // Whether the reader locates tags and could decide direction itself (an xArray or xSpan): the second is shown, not used (docs/readers.md).
      else this.log.info('reader connected', { reader: name, address: `${host}:${port}`, tls: this.target.tls !== null, firmware: decoded.capabilities.firmware, antennas: decoded.capabilities.maxAntennas, computesLocations: decoded.capabilities.computesLocations === true, computesDirection: decoded.capabilities.computesDirection === true });
      this.reportedDown = false;
      this.kickJob();
      const watchdog = setInterval(() => {
        // A connection tagtrail does not read (holdBack) hears nothing: that silence is not the reader's.
        if (client.paused) this.lastHeardMs = Date.now();
        if (Date.now() - this.lastHeardMs > 3 * this.d.settings.keepaliveMs) client.destroy(new Error(`missed keepalives: nothing from the reader for ${3 * this.d.settings.keepaliveMs} ms (3 KEEPALIVE periods)`));
      }, Math.max(250, Math.floor(this.d.settings.keepaliveMs / 2)));
      // As often as a check-in event is written (the temperature rides on it).
      const thermometer = impinj ? setInterval(() => void this.readTemperature(client), CHECKIN_EVENT_INTERVAL_MS) : undefined;
      let lost: Error | undefined;
      try {
        lost = await client.closed;
      } finally {
        clearInterval(watchdog);
        clearInterval(thermometer);
      }
      return { lost: lost ?? new Error('the connection closed') };
    } finally {
      client.destroy();
    }
  }

  /**
   * Impinj's ImpinjReaderTemperature, asked by GET_READER_CONFIG with ImpinjRequestedData (the
   * standard has no temperature): kept for the check-ins. A reader that does not answer it keeps
   * the last value; nothing else depends on it.
   */
  private async readTemperature(client: LlrpClient): Promise<void> {
    try {
      const m = await this.ask(client, MSG.GET_READER_CONFIG, getImpinjTemperature);
      this.temperature = readerTemperatureOf(m) ?? this.temperature;
    } catch (err) {
      this.log.debug('reader temperature not read', { reader: this.target.name, err: (err as Error).message });
    }
  }

  /** A request whose response must say M_Success; else a ReaderRefusal with the reader's words. */
  private async ask(client: LlrpClient, type: number, build: (id: number) => Buffer): Promise<LlrpMessage> {
    const m = await client.request(type, build, this.d.settings.timeoutMs);
    const status = statusOf(m);
    if (status.code !== 0) throw new ReaderRefusal(`${status.name}: ${status.description}`);
    return m;
  }

  private onMessage(m: LlrpMessage): void {
    try {
      switch (m.type) {
        case MSG.KEEPALIVE:
          this.client?.send(keepaliveAck(m.id));
          return;
        case MSG.RO_ACCESS_REPORT:
          this.outbox.add(decodeTagReads(m.body));
          this.holdBack();
          return;
        case MSG.READER_EVENT_NOTIFICATION:
          this.onReaderEvent(m).catch((err: unknown) => this.log.warn('reader event not understood', { reader: this.target.name, err: (err as Error).message }));
          return;
        case MSG.ERROR_MESSAGE: {
          const s = statusOf(m);
          void this.health('SOFTWARE_FAULT', 'LLRP', { message: `${s.name}: ${s.description}` });
          return;
        }
        default:
          this.log.debug('LLRP message ignored', { reader: this.target.name, type: m.type });
      }
    } catch (err) {
      // A message tagtrail cannot read is logged, never a crash; the connection carries on.
      this.log.warn('LLRP message not understood', { reader: this.target.name, type: m.type, err: (err as Error).message });
    }
  }

  /**
   * Past the reads a link may hold (READERS_HELD_OBSERVATIONS): the connection is not read until
   * the outbox has room again, so TCP holds the reader back and its reports wait on the reader.
   */
  private holdBack(): void {
    const client = this.client;
    if (client === undefined || client.paused || this.outbox.hasRoom) return;
    client.pause();
    const reader = this.target.name;
    this.log.warn('reader held back: its reads are not stored as fast as they come; the connection is not read meanwhile', { reader, held: this.outbox.size, cap: this.outbox.cap });
    void this.outbox.room().then(() => {
      client.resume();
      this.log.info('reader read again', { reader, held: this.outbox.size });
    });
  }

  private async onReaderEvent(m: LlrpMessage): Promise<void> {
    const e = decodeReaderEvent(m);
    if (e.antenna !== null) {
      const message = `antenna ${e.antenna.antennaId} ${e.antenna.connected ? 'connected' : 'disconnected'}`;
      await this.health(e.antenna.connected ? 'UNCLASSIFIED' : 'HARDWARE_FAULT', e.antenna.connected ? 'KNOWN' : 'READER_EXCEPTION', { message, antennaId: e.antenna.antennaId });
    }
    if (e.exception !== null) await this.health('HARDWARE_FAULT', 'READER_EXCEPTION', { message: e.exception });
  }

  private health(type: AgentHealthEvent['type'], code: string, args: Record<string, unknown>): Promise<void> {
    return readerHealth(this.side, type, code, args);
  }

  /** Brings the reader to the wanted job: stops what runs, starts what should. */
  protected async applyJob(wanted: string | null): Promise<void> {
    const client = this.client;
    if (client === undefined || this.state !== 'connected') return;
    if (this.running?.jobId === wanted) return this.acknowledge();
    if (this.running !== undefined) {
      const ended = this.running;
      await client.request(MSG.STOP_ROSPEC, (id) => roSpecCommand(MSG.STOP_ROSPEC, id, TAGTRAIL_ROSPEC_ID), this.d.settings.timeoutMs).catch(() => undefined);
      await client.request(MSG.DELETE_ROSPEC, (id) => roSpecCommand(MSG.DELETE_ROSPEC, id, TAGTRAIL_ROSPEC_ID), this.d.settings.timeoutMs).catch(() => undefined);
      // Deleting the ROSpec does not delete an AccessSpec naming it: it goes too.
      if (this.accessSpecAdded) await client.request(MSG.DELETE_ACCESSSPEC, (id) => accessSpecCommand(MSG.DELETE_ACCESSSPEC, id, TAGTRAIL_ACCESSSPEC_ID), this.d.settings.timeoutMs).catch(() => undefined);
      this.accessSpecAdded = false;
      this.endJobLocally();
      this.log.info('reader stopped its job', { reader: this.target.name, jobId: ended.jobId });
    }
    if (wanted === null) return this.outbox.noJob();
    const assignment = await this.d.jobs.assignmentFor(this.d.deps, this.target.name);
    if (assignment === undefined || assignment.jobId !== wanted) return; // not assigned (yet): next look
    // The stored configuration (unset fields absent), not the response form the agent gets (unset fields null).
    const config = await this.d.deps.readModel.get(readerConfigurationKind, String(assignment.readerConfiguration['name']));
    if (config === undefined) return; // deleted under the job: the assignment goes next look
    const door = config.operation === 'THRESHOLD' ? await doorPlanOf(this.d.deps.readModel, this.target.name, assignment) : undefined;
    const doorPlan = door !== undefined && E.isRight(door) ? door.right : undefined;
    const placement = config.operation === 'LOCATION' ? placementOf(await readerDefinitionOf(this.d.deps.readModel, this.target.name)) : undefined;
    const plan = door !== undefined && E.isLeft(door) ? door : planRoSpec({ operation: config.operation, configuration: config.configuration as ReaderConfigDetails, capabilities: this.capabilities as Capabilities, ...(doorPlan ? { door: doorPlan } : {}), placement });
    if (E.isLeft(plan)) {
      this.failedJobs.add(wanted);
      await failInJob(this.side, wanted, `the reader cannot run the configuration: ${plan.left}`);
      return;
    }
    this.beginJob(wanted, assignment.recipe, doorPlan?.reportIntervalMs);
    try {
      const location = plan.right.location;
      // The reader must know where it stands and how to report before it locates anything.
      if (location !== undefined) await this.ask(client, MSG.SET_READER_CONFIG, (id) => setLocationConfig(id, location));
      await this.ask(client, MSG.ADD_ROSPEC, (id) => addRoSpec(id, plan.right));
      if (plan.right.accessTid === true) {
        // One a process before this one left (it died with the job running) would make the ADD fail.
        await client.request(MSG.DELETE_ACCESSSPEC, (id) => accessSpecCommand(MSG.DELETE_ACCESSSPEC, id, TAGTRAIL_ACCESSSPEC_ID), this.d.settings.timeoutMs).catch(() => undefined);
        await this.ask(client, MSG.ADD_ACCESSSPEC, (id) => addTidAccessSpec(id, TAGTRAIL_ROSPEC_ID));
        this.accessSpecAdded = true;
        await this.ask(client, MSG.ENABLE_ACCESSSPEC, (id) => accessSpecCommand(MSG.ENABLE_ACCESSSPEC, id, TAGTRAIL_ACCESSSPEC_ID));
      }
      await this.ask(client, MSG.ENABLE_ROSPEC, (id) => roSpecCommand(MSG.ENABLE_ROSPEC, id, TAGTRAIL_ROSPEC_ID));
      await this.ask(client, MSG.START_ROSPEC, (id) => roSpecCommand(MSG.START_ROSPEC, id, TAGTRAIL_ROSPEC_ID));
    } catch (err) {
      this.endJobLocally();
      if (err instanceof ReaderRefusal) {
        await this.health('SOFTWARE_FAULT', 'LLRP', { message: `ROSpec refused: ${err.message}` });
        this.failedJobs.add(wanted);
        await failInJob(this.side, wanted, `the reader refused the ROSpec: ${err.message}`);
        return;
      }
      throw err;
    }
    await this.acknowledge();
    this.log.info('reader started its job', { reader: this.target.name, jobId: wanted, antennas: plan.right.antennaIds });
  }
}
