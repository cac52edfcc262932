// The readers role (docs/readers.md): one link per reader definition whose
// connection is LLRP, kept in step with the definitions and the jobs. Every
// scan (1 s) it reads the definitions and the active jobs once, tells each
// link the job it should run, and records the presence of the readers it is
// connected to as a check-in would (lastCheckin; AgentCheckedIn when
// something changed or once a minute), so reader health works as for agents:
// a reader whose connection is gone stops "checking in" and becomes
// NOT_RESPONDING.
import type { AppDeps, BackgroundWork } from '../slice';
import { recordCheckin, agentKeys, CHECKIN_EVENT_INTERVAL_MS, pendingCommandsOfEach, type JobsForAgents, type PendingCommand } from '../agents';
import { jobsReadModel, heldReaders } from '../jobs';
import { readerDefinitionsOf } from '../readerdefinitions';
import { LlrpLink, type LinkTarget } from './llrp-link';
import { IotLink, type IotTarget, type MqttSettings } from './iot-link';
import type { ReadersSettings } from './settings';
import type { Logger } from '../core/logger';

type Target = { readonly kind: 'LLRP'; readonly t: LinkTarget } | { readonly kind: 'IOT'; readonly t: IotTarget };
type Link = LlrpLink | IotLink;
const sameTarget = (link: Link, target: Target): boolean =>
  link instanceof LlrpLink ? target.kind === 'LLRP' && link.sameAs(target.t) : target.kind === 'IOT' && link.sameAs(target.t);

/** What the readers role says of itself in AgentCheckedIn (agentId) for the readers it connects. */
export const READERS_AGENT_ID = 'tagtrail-readers';

interface Presence {
  state: 'IDLE' | 'RUNNING_JOB' | 'UPDATING_FIRMWARE';
  firmware: string;
  atMs: number;
}

/** The LLRP and IoT connections of the reader definitions. */
async function targetsOf(deps: AppDeps): Promise<Map<string, Target>> {
  const out = new Map<string, Target>();
  for (const d of await readerDefinitionsOf(deps.readModel)) {
    const c = d.connection;
    if (d.address === null || c === undefined || c === null) continue;
    if (c.protocol === 'LLRP') out.set(d.name, { kind: 'LLRP', t: { name: d.name, host: d.address, port: c.port, tls: c.tls === true ? { ca: c.caCertificate ?? null, sha256: c.certificateSha256 ?? null } : null } });
    else if (c.protocol === 'IOT') out.set(d.name, { kind: 'IOT', t: { name: d.name, host: d.address, connection: c } });
  }
  return out;
}

/** The reader each job of `deps` that is starting or running holds, by reader name. */
async function jobOfReaders(deps: AppDeps): Promise<Map<string, string>> {
  const active = (await jobsReadModel(deps).active()).filter((j) => j.status === 'STARTING' || j.status === 'RUNNING');
  const jobOf = new Map<string, string>();
  for (const j of active) for (const r of heldReaders(j)) jobOf.set(r, j.id);
  return jobOf;
}

/** The links this process holds, one per reader definition with a connection, and the presence last recorded of each. */
class ReaderLinks {
  readonly links = new Map<string, Link>();
  private readonly presence = new Map<string, Presence>();

  constructor(
    private readonly deps: AppDeps,
    private readonly jobs: JobsForAgents,
    private readonly settings: ReadersSettings,
    private readonly mqttSettings: MqttSettings,
    private readonly logger: Logger,
  ) {}

  /** One scan: links in step with the definitions, each told its job and its pending commands, the connected ones checked in. */
  async scan(): Promise<void> {
    await this.keepInStep(await targetsOf(this.deps));
    const jobOf = await jobOfReaders(this.deps);
    const now = new Date();
    const connected: string[] = [];
    for (const [name, link] of this.links) {
      link.setJob(jobOf.get(name) ?? null);
      if (link.state === 'connected') connected.push(name);
    }
    await this.runPendingCommands(connected);
    if (connected.length > 0) await this.checkIn(connected, now);
  }

  async stop(): Promise<void> {
    await Promise.all([...this.links.values()].map((l) => l.stop()));
    this.links.clear();
  }

  /** Closes the links whose definition changed or went, opens those of new definitions. */
  private async keepInStep(wanted: ReadonlyMap<string, Target>): Promise<void> {
    const { links, deps, jobs, settings, logger } = this;
    for (const [name, link] of links) {
      const t = wanted.get(name);
      if (t === undefined || !sameTarget(link, t)) {
        links.delete(name);
        this.presence.delete(name);
        logger.info('reader link closed: definition changed or removed', { reader: name });
        await link.stop();
      }
    }
    for (const [name, t] of wanted) {
      if (links.has(name)) continue;
      const linkDeps = { deps, jobs, settings, logger, leaseKey: `${deps.keys.base}v1:readers:lease:${name}` };
      const link: Link = t.kind === 'LLRP' ? new LlrpLink(t.t, linkDeps) : new IotLink(t.t, { ...linkDeps, mqtt: this.mqttSettings });
      links.set(name, link);
      link.start();
    }
  }

  /** Every connected reader's pending commands in one look (a scan per second must stay cheap with hundreds of readers). */
  private async runPendingCommands(connected: readonly string[]): Promise<void> {
    const pending = await pendingCommandsOfEach(this.deps, connected).catch((err: unknown) => {
      this.logger.debug('pending reader commands not read; the next scan looks again', { err: (err as Error).message });
      return new Map<string, PendingCommand[]>();
    });
    for (const name of connected) void this.links.get(name)?.runCommands(pending.get(name) ?? []);
  }

  /** One write for every connected reader; an event only for news. */
  private async checkIn(connected: readonly string[], now: Date): Promise<void> {
    const { deps } = this;
    const at = now.toISOString();
    await deps.redis.hSet(agentKeys(deps.keys).lastCheckin, Object.fromEntries(connected.map((n) => [n, at])));
    for (const name of connected) {
      const link = this.links.get(name) as Link;
      const next: Presence = { state: link.upgrading ? 'UPDATING_FIRMWARE' : link.runningJob === null ? 'IDLE' : 'RUNNING_JOB', firmware: link.firmware, atMs: now.getTime() };
      const last = this.presence.get(name);
      if (last !== undefined && last.state === next.state && last.firmware === next.firmware && now.getTime() - last.atMs < CHECKIN_EVENT_INTERVAL_MS) continue;
      const temperature = link.temperature === null ? {} : { temperatureCelsius: link.temperature };
      await recordCheckin(deps, name, { agentId: READERS_AGENT_ID, versions: { App: link instanceof LlrpLink ? 'LLRP' : 'IOT', Firmware: next.firmware }, state: next.state, ...temperature }, now);
      this.presence.set(name, next);
    }
  }
}

export function startReadersWork(deps: AppDeps, jobs: JobsForAgents, settings: ReadersSettings, mqttSettings: MqttSettings): BackgroundWork & { links(): ReadonlyMap<string, Link>; scan(): Promise<void> } {
  const logger = deps.logger.child('readers');
  const readers = new ReaderLinks(deps, jobs, settings, mqttSettings, logger);
  const scan = (): Promise<void> => readers.scan();
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let scanning: Promise<void> = Promise.resolve();
  const loop = (): void => {
    if (stopped) return;
    timer = setTimeout(() => {
      scanning = scan()
        .catch((err: unknown) => logger.warn('readers scan failed; next scan retries', { err: (err as Error).message }))
        .finally(loop);
    }, settings.scanMs);
  };
  void deps.readModelReady.then(() => {
    scanning = scan().catch((err: unknown) => logger.warn('readers scan failed; next scan retries', { err: (err as Error).message })).finally(loop);
  });

  return {
    links: () => readers.links,
    scan,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await scanning;
      await readers.stop();
    },
  };
}
