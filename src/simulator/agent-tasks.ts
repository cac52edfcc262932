// What an agent does for the service besides reading: feature changes
// (TAKEN, then COMPLETED a second later) and commands (REBOOT: DONE, a
// silent reboot, then a LIFECYCLE REBOOT event with the reason; anything
// else is answered FAILED and reported as COMMAND_NOT_FOUND).
import type { Logger } from '../core/logger';
import type { Clock } from './clock';
import { describeAnswer, enc, type HttpClient } from './http';
import type { Stats } from './stats';

export const REBOOT_MS = 5_000;
const FEATURE_CHANGE_MS = 1_000;

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

  async command(id: string, type: string): Promise<void> {
    const { c } = this;
    if (this.commandsDone.has(id)) return;
    this.commandsDone.add(id);
    c.stats.add(c.name, 'commands');
    const path = `${c.base}/commands/${enc(id)}`;
    if (type !== 'REBOOT') {
      await c.http.request('POST', path, { result: 'FAILED', message: `the simulator does not implement ${type}` });
      await c.health('SOFTWARE_FAULT', 'COMMAND_NOT_FOUND', { message: `unknown command ${type}` });
      return;
    }
    const a = await c.http.request('POST', path, { result: 'DONE' });
    if (a.status >= 300) c.stats.error(c.name, `command ${id}: ${describeAnswer(a)}`);
    c.log.info('rebooting', { reader: c.name, commandId: id });
    c.goSilent(REBOOT_MS);
    c.schedule(c.clock.now() + REBOOT_MS, () => c.health('LIFECYCLE', 'REBOOT', { reason: `reboot command ${id} from the service` }));
  }
}
