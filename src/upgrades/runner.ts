// The upgrade runner (role `jobs`): the process manager of rollouts. It folds
// every upgrade and the outcomes of their UPGRADE reader commands from a
// subscription to the `upgrade-` and `readerCommands-` streams that starts at
// the beginning of the log at every start, so after a restart it knows
// exactly what it knew (which readers are upgrading, what they reported, when
// each times out) and carries on. Each step is an `Advance` command through
// runCommand (optimistic concurrency), decided purely in decide.ts.
//
// Side effects after a decision: an UPGRADE command is issued to each reader
// started (issueReaderCommand with the command id of UpgradeReaderStarted, so
// issuing again is a no-op: at catch-up the runner re-issues for every reader
// in progress, which covers a crash between the two writes), and a reader
// that timed out has its command completed FAILED on its behalf, so its
// agent is no longer offered it. With UPGRADE_IMAGE_BASE_URL the command
// carries the image's URL (readers driven over the IoT interface need it).
//
// startUpgradeRunner wires the subscription to a RunnerProcess, which holds
// the runner's state (knowledge, timers, steps in flight) and does each part
// in a method of its own.
import { randomUUID } from 'node:crypto';
import { streamNameFilter } from '@eventstore/db-client';
import * as E from 'fp-ts/Either';
import { completeReaderCommand, issueReaderCommand, READER_COMMANDS_STREAM_PREFIX, readerCommandEvents, type ReaderCommandEvent } from '../agents';
import { ApiError } from '../core/http/errors';
import type { Logger } from '../core/logger';
import type { ResourceDeps } from '../core/resource/routes';
import { InMemoryCheckpointStore, runSubscription } from '../core/subscriptions';
import type { Clock } from '../core/clock';
import { runCommand } from '../core/command';
import { onUpgrade } from './commands';
import { nextDue, TIMED_OUT } from './decide';
import { UPGRADE_STREAM_PREFIX, upgradeEvents, type UpgradeEvent, type UpgradeState } from './events';
import { RunnerKnowledge } from './runner-state';
import { imageUrlOf, type UpgradeSettings } from './settings';

export interface UpgradeRunnerOptions {
  readonly deps: ResourceDeps;
  readonly logger: Logger;
  readonly settings: UpgradeSettings;
  readonly clock: Clock;
  readonly retryMs?: number;
}

export interface UpgradeRunner {
  readonly caughtUp: Promise<void>;
  stop(): Promise<void>;
}

const RUNNER_METADATA = { user: 'upgrade-runner' };

export function startUpgradeRunner(opts: UpgradeRunnerOptions): UpgradeRunner {
  const runner = new RunnerProcess(opts);
  const sub = runSubscription({
    client: opts.deps.client,
    name: 'upgrade-runner',
    codecs: { ...upgradeEvents, ...readerCommandEvents },
    filter: streamNameFilter({ prefixes: [UPGRADE_STREAM_PREFIX, READER_COMMANDS_STREAM_PREFIX] }),
    checkpointStore: new InMemoryCheckpointStore(),
    logger: opts.logger,
    handler: async (events) => runner.fold(events),
    onCaughtUp: () => runner.goLive(),
  });
  return {
    caughtUp: sub.caughtUp,
    async stop() {
      runner.close();
      await sub.stop();
    },
  };
}

/** The runner's state between events: what it knows, its timers, the steps in flight. */
class RunnerProcess {
  private readonly knowledge = new RunnerKnowledge();
  private readonly timers = new Map<string, unknown>();
  private readonly inFlight = new Set<string>();
  private readonly timeoutMs: number;
  private readonly retryMs: number;
  private live = false;
  private closed = false;

  constructor(private readonly o: UpgradeRunnerOptions) {
    this.timeoutMs = o.settings.readerTimeoutMs;
    this.retryMs = o.retryMs ?? 1000;
  }

  private get states(): Map<string, UpgradeState> {
    return this.knowledge.states;
  }

  /** Folds a batch of the subscription; once live, reschedules every upgrade it touched. */
  fold(events: ReadonlyArray<{ streamId: string }>): void {
    const touched = new Set<string>();
    for (const e of events) {
      if (e.streamId.startsWith(UPGRADE_STREAM_PREFIX)) {
        const id = e.streamId.slice(UPGRADE_STREAM_PREFIX.length);
        if (this.knowledge.onUpgradeEvent(id, e as unknown as UpgradeEvent)) touched.add(id);
      } else {
        // Only a completed UPGRADE of an active upgrade concerns the runner.
        const id = this.knowledge.onCommandEvent(e as unknown as ReaderCommandEvent);
        if (id !== undefined) touched.add(id);
      }
    }
    if (this.live) for (const id of touched) this.schedule(id);
  }

  /** Caught up with the log: re-issue what may not have been issued, then schedule every upgrade. */
  goLive(): void {
    if (this.live) return;
    this.live = true;
    this.o.logger.info('upgrade runner caught up', { activeUpgrades: this.states.size });
    for (const [id, s] of this.states) {
      const known = this.knowledge.outcomesOf(id);
      // Re-issue (a no-op when issued already) in case the process died between the decision and the issue.
      for (const r of s.readers) if (r.status === 'IN_PROGRESS' && r.commandId !== null && !known.has(r.commandId)) void this.issue(id, s, r.name, r.commandId);
      this.schedule(id);
    }
  }

  close(): void {
    this.closed = true;
    for (const h of this.timers.values()) this.o.clock.clearTimer(h);
    this.timers.clear();
  }

  /** The upgrade's next step at its due time (or after `delayOverride`); none when nothing is due. */
  private schedule(id: string, delayOverride?: number): void {
    const { clock } = this.o;
    const old = this.timers.get(id);
    if (old !== undefined) clock.clearTimer(old);
    this.timers.delete(id);
    const s = this.states.get(id);
    if (this.closed || s === undefined) return;
    const due = nextDue(s, this.knowledge.outcomesOf(id), this.timeoutMs);
    if (due === undefined && delayOverride === undefined) return;
    const delay = delayOverride ?? Math.max(0, (due ?? 0) - clock.now().getTime());
    this.timers.set(id, clock.setTimer(() => {
      this.timers.delete(id);
      void this.step(id);
    }, delay));
  }

  /** One Advance of the upgrade through runCommand, then its side effects. */
  private async step(id: string): Promise<void> {
    if (this.closed) return;
    if (this.inFlight.has(id)) return this.schedule(id, 50); // the step in flight may not have reached the subscription yet
    const s = this.states.get(id);
    if (s === undefined || s.request === null) return;
    const known = this.knowledge.outcomesOf(id);
    const due = nextDue(s, known, this.timeoutMs);
    if (due === undefined) return;
    if (due > this.o.clock.now().getTime()) return this.schedule(id);
    this.inFlight.add(id);
    try {
      const commandIds = Array.from({ length: s.request.policy.maxParallelReaders }, () => randomUUID());
      const result = await runCommand(this.o.deps.client, onUpgrade(id), { type: 'Advance', outcomes: known, commandIds, readerTimeoutMs: this.timeoutMs }, { now: this.o.clock.now(), metadata: RUNNER_METADATA });
      if (E.isLeft(result)) {
        this.o.logger.warn('upgrade step refused; retrying', { upgradeId: id, message: result.left.message });
        this.schedule(id, this.retryMs);
      } else {
        await this.effects(id, result.right.state, result.right.events);
        if (result.right.events.length === 0) this.schedule(id, this.retryMs); // the stream was ahead of us: look again
      }
      // Appended events come back through the subscription, which reschedules.
    } catch (err) {
      this.o.logger.error('upgrade step failed; retrying', { upgradeId: id, err: String(err) });
      this.schedule(id, this.retryMs);
    } finally {
      this.inFlight.delete(id);
    }
  }

  /** After a decision: issue the started readers' commands, withdraw the timed-out ones. */
  private async effects(id: string, s: UpgradeState, events: readonly UpgradeEvent[]): Promise<void> {
    for (const e of events) {
      if (e.type === 'UpgradeReaderStarted') await this.issue(id, s, e.data.readerName, e.data.commandId);
      if (e.type === 'UpgradeReaderFinished' && e.data.reason === TIMED_OUT) await this.withdraw(id, s, e.data.readerName);
    }
  }

  /** A reader timed out: its command is completed FAILED on its behalf, so it is offered no more. */
  private async withdraw(id: string, s: UpgradeState, readerName: string): Promise<void> {
    const commandId = s.readers.find((r) => r.name === readerName)?.commandId;
    if (!commandId) return;
    await completeReaderCommand(this.o.deps, readerName, commandId, 'FAILED', 'upgrade timed out', RUNNER_METADATA, this.o.clock.now()).catch((err: unknown) =>
      this.o.logger.info('upgrade: timed-out command not withdrawn', { upgradeId: id, reader: readerName, err: String(err) }),
    );
  }

  /** The reader's UPGRADE command (idempotent by its command id); a reader that is gone is recorded unreachable. */
  private async issue(id: string, s: UpgradeState, readerName: string, commandId: string): Promise<void> {
    if (s.request === null || s.image === null) return;
    const v = s.request.versionIdentifier;
    const imageUrl = imageUrlOf(this.o.settings, s.image.imageName);
    const args = { versionIdentifier: v.version, imageType: v.imageType, imageName: s.image.imageName, checksum: s.image.checksum, ...(imageUrl === undefined ? {} : { imageUrl }) };
    try {
      await issueReaderCommand(this.o.deps, readerName, 'UPGRADE', args, { commandId, metadata: RUNNER_METADATA });
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) return this.unreachable(id, readerName, err.message);
      this.o.logger.error('upgrade: issuing the UPGRADE command failed; retrying', { upgradeId: id, reader: readerName, err: String(err) });
      if (!this.closed) this.o.clock.setTimer(() => void this.issue(id, this.states.get(id) ?? s, readerName, commandId), this.retryMs);
    }
  }

  private async unreachable(id: string, readerName: string, reason: string): Promise<void> {
    this.o.logger.warn('upgrade: reader cannot be given its command', { upgradeId: id, reader: readerName, message: reason });
    // Also from a timer: a lost race must be logged here, not escape.
    const r = await runCommand(this.o.deps.client, onUpgrade(id), { type: 'ReaderUnreachable', readerName, reason }, { now: this.o.clock.now(), metadata: RUNNER_METADATA })
      .catch((e: unknown) => E.left(e instanceof Error ? e : new Error(String(e))));
    if (E.isLeft(r)) this.o.logger.warn('upgrade: recording an unreachable reader refused', { upgradeId: id, reader: readerName, message: r.left.message });
  }
}
