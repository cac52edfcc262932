// What an agent does for the service besides reading: feature changes
// (TAKEN, then COMPLETED a second later) and commands (REBOOT: DONE, a
// silent reboot, then a LIFECYCLE REBOOT event with the reason; UPGRADE: see
// upgrade.ts; TIME_SYNC: the clock offset is corrected and reported with
// DONE; anything else is answered FAILED and reported as COMMAND_NOT_FOUND).
import type { Logger } from '../core/logger';
import type { Clock } from './clock';
import { retry } from '../core/retry';
import { describeAnswer, enc, HttpError, type HttpClient } from './http';
import type { Stats } from './stats';
import { DOWNLOAD_SHARE, downloadedDigest, upgradeArgsOf, verifyChecksum, type UpgradeFault } from './upgrade';

export const REBOOT_MS = 5_000;
const FEATURE_CHANGE_MS = 1_000;
const REPORT_ATTEMPTS = 10;
const REPORT_RETRY_MS = 1_000;

/** The parts of an agent its tasks use. */
export interface AgentTaskContext {
  readonly name: string;
  /** `/agent/v1/readers/{name}` */
  readonly base: string;
  readonly http: HttpClient;
  readonly clock: Clock;
  readonly stats: Stats;
  readonly log: Logger;
  schedule(due: number, run: () => Promise<void>): void;
  health(type: string, code: string, args: Record<string, unknown>): Promise<void>;
  setFeature(feature: string, status: string): void;
  /** Goes silent for ms (session flags lost) and checks in again after. */
  goSilent(ms: number): void;
  /** How long an UPGRADE takes (download, verification, install). */
  readonly upgradeMs: number;
  /** The injected failure of the next upgrade, if any (taken: applies once). */
  takeUpgradeFault(): UpgradeFault | null;
  /** UPDATING_FIRMWARE in check-ins while on; checks in at once so the service sees it. */
  setUpdating(on: boolean): void;
  setVersion(imageType: 'FIRMWARE_READER' | 'CAP_SERVICE', version: string): void;
  /** Corrects the clock; answers the offset it had (ms). */
  syncClock(): number;
}

export class AgentTasks {
  private readonly featuresInProgress = new Set<string>();
  private readonly commandsDone = new Set<string>();

  constructor(private readonly c: AgentTaskContext) {}

  featureChange(feature: string, target: string): void {
    const { c } = this;
    const key = `${feature}:${target}`;
    if (this.featuresInProgress.has(key)) return;
    this.featuresInProgress.add(key);
    const path = `${c.base}/features/${enc(feature)}`;
    c.schedule(c.clock.now(), async () => {
      const taken = await c.http.request('POST', path, { progress: 'TAKEN' });
      if (taken.status >= 300) {
        this.featuresInProgress.delete(key);
        return c.stats.error(c.name, `feature ${feature} TAKEN: ${describeAnswer(taken)}`);
      }
      c.schedule(c.clock.now() + FEATURE_CHANGE_MS, async () => {
        this.featuresInProgress.delete(key);
        const ok = target === 'ENABLED' || target === 'DISABLED';
        const done = await c.http.request('POST', path, ok ? { progress: 'COMPLETED', status: target } : { progress: 'FAILED', message: `unknown target ${target}` });
        if (done.status >= 300) return c.stats.error(c.name, `feature ${feature} COMPLETED: ${describeAnswer(done)}`);
        if (ok) c.setFeature(feature, target);
        c.stats.add(c.name, 'featureChanges');
      });
    });
  }

  async command(id: string, type: string, args: Record<string, unknown> = {}): Promise<void> {
    const { c } = this;
    if (this.commandsDone.has(id)) return;
    this.commandsDone.add(id);
    c.stats.add(c.name, 'commands');
    const path = `${c.base}/commands/${enc(id)}`;
    // A result is what the service waits for (an upgrade's next reader starts on it): retried
    // while the service is unreachable or failing (a restart), as an agent would.
    const report = async (body: Record<string, unknown>): Promise<void> => {
      const answer = await retry(
        async () => {
          const a = await c.http.request('POST', path, body);
          if (a.status >= 500) throw new HttpError(`command ${id}`, a);
          return a;
        },
        { backoff: { initialMs: REPORT_RETRY_MS, maxMs: REPORT_RETRY_MS }, maxAttempts: REPORT_ATTEMPTS, sleep: (ms) => c.clock.sleep(ms) },
      ).catch((err: unknown) => (err instanceof HttpError ? err.answer : (err as Error)));
      if (answer instanceof Error) return c.stats.error(c.name, `command ${id}: ${answer.message}`);
      if (answer.status >= 300) c.stats.error(c.name, `command ${id}: ${describeAnswer(answer)}`);
    };
    switch (type) {
      case 'REBOOT':
        await report({ result: 'DONE' });
        c.log.info('rebooting', { reader: c.name, commandId: id });
        c.goSilent(REBOOT_MS);
        c.schedule(c.clock.now() + REBOOT_MS, () => c.health('LIFECYCLE', 'REBOOT', { reason: typeof args['reason'] === 'string' && args['reason'] !== '' ? args['reason'] : `reboot command ${id} from the service` }));
        return;
      case 'TIME_SYNC': {
        const offset = c.syncClock();
        await report({ result: 'DONE', message: `clock synchronised; offset was ${offset} ms` });
        return;
      }
      case 'UPGRADE':
        return this.upgrade(args, report);
      default:
        await report({ result: 'FAILED', message: `the simulator does not implement ${type}` });
        await c.health('SOFTWARE_FAULT', 'COMMAND_NOT_FOUND', { message: `unknown command ${type}` });
    }
  }

  private async upgrade(raw: Record<string, unknown>, report: (body: Record<string, unknown>) => Promise<void>): Promise<void> {
    const { c } = this;
    const args = upgradeArgsOf(raw);
    if (typeof args === 'string') {
      await report({ result: 'FAILED', message: args });
      return c.health('SOFTWARE_FAULT', 'UNMARSHAL', { message: args });
    }
    const fault = c.takeUpgradeFault();
    c.log.info('upgrade started', { reader: c.name, version: args.version, imageType: args.imageType, fault });
    c.setUpdating(true);
    const downloaded = c.clock.now() + Math.round(c.upgradeMs * DOWNLOAD_SHARE);
    c.schedule(downloaded, async () => {
      const digest = downloadedDigest(args, fault === 'CHECKSUM');
      if (!verifyChecksum(args, digest)) {
        const message = `checksum mismatch for ${args.imageType} ${args.version}: expected ${args.checksum ?? '(none)'}, got ${digest}`;
        await c.health('SOFTWARE_FAULT', 'CHECKSUM', { message });
        await report({ result: 'FAILED', message });
        c.setUpdating(false);
        return;
      }
      c.schedule(c.clock.now() + Math.max(0, c.upgradeMs - Math.round(c.upgradeMs * DOWNLOAD_SHARE)), async () => {
        if (fault === 'UPGRADE_STATUS') {
          const message = `installing ${args.imageType} ${args.version} failed: the reader reported an upgrade error`;
          await c.health('HARDWARE_FAULT', 'UPGRADE_STATUS', { message });
          await report({ result: 'FAILED', message });
          c.setUpdating(false);
          return;
        }
        c.setVersion(args.imageType, args.version);
        await c.health('LIFECYCLE', 'VERSION_UPDATE', { newVersion: { [args.imageType === 'FIRMWARE_READER' ? 'Firmware' : 'App']: args.version } });
        await report({ result: 'DONE', message: `upgraded to ${args.imageType} ${args.version}` });
        c.setUpdating(false);
        c.log.info('upgrade done', { reader: c.name, version: args.version });
      });
    });
  }
}
