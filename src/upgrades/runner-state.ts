// What the upgrade runner knows, folded from the `upgrade-` and
// `readerCommands-` streams (runner.ts): the state of each active upgrade,
// which UPGRADE command belongs to which upgrade, and what each command's
// reader reported. No timers, no I/O: the runner schedules from it.
import type { ReaderCommandEvent } from '../agents';
import type { CommandOutcome } from './decide';
import { evolveUpgrade, initialUpgradeState, type UpgradeEvent, type UpgradeState } from './events';

export class RunnerKnowledge {
  readonly states = new Map<string, UpgradeState>();
  /** commandId -> upgrade id, for the UPGRADE commands of active upgrades. */
  private readonly owners = new Map<string, string>();
  private readonly outcomes = new Map<string, Map<string, CommandOutcome>>();
  private readonly finished = new Set<string>();

  /** The outcomes reported so far for the commands of upgrade `id`. */
  outcomesOf(id: string): Map<string, CommandOutcome> {
    let m = this.outcomes.get(id);
    if (m === undefined) this.outcomes.set(id, (m = new Map()));
    return m;
  }

  /** Folds an event of `upgrade-<id>`; false when the upgrade had finished (nothing to do). */
  onUpgradeEvent(id: string, e: UpgradeEvent): boolean {
    if (this.finished.has(id)) return false;
    const next = evolveUpgrade(this.states.get(id) ?? initialUpgradeState, e);
    if (e.type === 'UpgradeReaderStarted') this.owners.set(e.data.commandId, id);
    if (next.finished !== null) {
      this.finished.add(id);
      this.states.delete(id);
      for (const r of next.readers) if (r.commandId !== null) this.owners.delete(r.commandId);
      this.outcomes.delete(id);
    } else this.states.set(id, next);
    return true;
  }

  /** Folds a reader command event; the id of the upgrade it concerns, if any (a completed UPGRADE of an active upgrade). */
  onCommandEvent(c: ReaderCommandEvent): string | undefined {
    if (c.type !== 'ReaderCommandCompleted') return undefined;
    const id = this.owners.get(c.data.commandId);
    if (id === undefined) return undefined;
    this.outcomesOf(id).set(c.data.commandId, { result: c.data.result, message: c.data.message ?? null });
    return id;
  }
}
