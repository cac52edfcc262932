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

export function startReadersWork(deps: AppDeps, jobs: JobsForAgents, settings: ReadersSettings, mqttSettings: MqttSettings): BackgroundWork & { links(): ReadonlyMap<string, Link>; scan(): Promise<void> } {
  const logger = deps.logger.child('readers');
  const links = new Map<string, Link>();
  const presence = new Map<string, Presence>();
  const leaseKey = (name: string): string => `${deps.keys.base}v1:readers:lease:${name}`;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let scanning: Promise<void> = Promise.resolve();

  const targets = async (): Promise<Map<string, Target>> => {
    const out = new Map<string, Target>();
    for (const d of await readerDefinitionsOf(deps.readModel)) {
      const c = d.connection;
      if (d.address === null || c === undefined || c === null) continue;
      if (c.protocol === 'LLRP') out.set(d.name, { kind: 'LLRP', t: { name: d.name, host: d.address, port: c.port, tls: c.tls === true ? { ca: c.caCertificate ?? null, sha256: c.certificateSha256 ?? null } : null } });
      else if (c.protocol === 'IOT') out.set(d.name, { kind: 'IOT', t: { name: d.name, host: d.address, connection: c } });
    }
    return out;
  };

  const scan = async (): Promise<void> => {
    const wanted = await targets();
    for (const [name, link] of links) {
      const t = wanted.get(name);
      if (t === undefined || !sameTarget(link, t)) {
        links.delete(name);
        presence.delete(name);
        logger.info('reader link closed: definition changed or removed', { reader: name });
        await link.stop();
      }
    }
    for (const [name, t] of wanted) {
      if (links.has(name)) continue;
      const linkDeps = { deps, jobs, settings, logger, leaseKey: leaseKey(name) };
      const link: Link = t.kind === 'LLRP' ? new LlrpLink(t.t, linkDeps) : new IotLink(t.t, { ...linkDeps, mqtt: mqttSettings });
      links.set(name, link);
      link.start();
    }
    const active = (await jobsReadModel(deps).active()).filter((j) => j.status === 'STARTING' || j.status === 'RUNNING');
    const jobOf = new Map<string, string>();
    for (const j of active) for (const r of heldReaders(j)) jobOf.set(r, j.id);
    const now = new Date();
    const connected: string[] = [];
    for (const [name, link] of links) {
      link.setJob(jobOf.get(name) ?? null);
      if (link.state === 'connected') connected.push(name);
    }
    // Every connected reader's pending commands in one look (a scan per second must stay cheap with hundreds of readers).
    const pending = await pendingCommandsOfEach(deps, connected).catch((err: unknown) => {
      logger.debug('pending reader commands not read; the next scan looks again', { err: (err as Error).message });
      return new Map<string, PendingCommand[]>();
    });
    for (const name of connected) void links.get(name)?.runCommands(pending.get(name) ?? []);
    if (connected.length === 0) return;
    // One write for every connected reader; an event only for news.
    const at = now.toISOString();
    await deps.redis.hSet(agentKeys(deps.keys).lastCheckin, Object.fromEntries(connected.map((n) => [n, at])));
    for (const name of connected) {
      const link = links.get(name) as Link;
      const next: Presence = { state: link.upgrading ? 'UPDATING_FIRMWARE' : link.runningJob === null ? 'IDLE' : 'RUNNING_JOB', firmware: link.firmware, atMs: now.getTime() };
      const last = presence.get(name);
      if (last !== undefined && last.state === next.state && last.firmware === next.firmware && now.getTime() - last.atMs < CHECKIN_EVENT_INTERVAL_MS) continue;
      const temperature = link.temperature === null ? {} : { temperatureCelsius: link.temperature };
      await recordCheckin(deps, name, { agentId: READERS_AGENT_ID, versions: { App: link instanceof LlrpLink ? 'LLRP' : 'IOT', Firmware: next.firmware }, state: next.state, ...temperature }, now);
      presence.set(name, next);
    }
  };

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
    links: () => links,
    scan,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await scanning;
      await Promise.all([...links.values()].map((l) => l.stop()));
      links.clear();
    },
  };
}
