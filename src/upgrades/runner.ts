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
// agent is no longer offered it.
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
import { nextDue, TIMED_OUT, type CommandOutcome } from './decide';
import { UPGRADE_STREAM_PREFIX, upgradeEvents, type UpgradeEvent, type UpgradeState } from './events';
import { RunnerKnowledge } from './runner-state';
import type { UpgradeSettings } from './settings';

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
  const { deps, logger, clock } = opts;
  const timeoutMs = opts.settings.readerTimeoutMs;
  const retryMs = opts.retryMs ?? 1000;
  const knowledge = new RunnerKnowledge();
  const states = knowledge.states;
  const outcomesOf = (id: string): Map<string, CommandOutcome> => knowledge.outcomesOf(id);
  const timers = new Map<string, unknown>();
  const inFlight = new Set<string>();
  let live = false;
  let closed = false;

  const schedule = (id: string, delayOverride?: number): void => {
    const old = timers.get(id);
    if (old !== undefined) clock.clearTimer(old);
    timers.delete(id);
    const s = states.get(id);
    if (closed || s === undefined) return;
    const due = nextDue(s, outcomesOf(id), timeoutMs);
    if (due === undefined && delayOverride === undefined) return;
    const delay = delayOverride ?? Math.max(0, (due ?? 0) - clock.now().getTime());
    timers.set(id, clock.setTimer(() => {
      timers.delete(id);
      void fire(id);
    }, delay));
  };

  const issue = async (id: string, s: UpgradeState, readerName: string, commandId: string): Promise<void> => {
    if (s.request === null || s.image === null) return;
    const v = s.request.versionIdentifier;
    try {
      await issueReaderCommand(deps, readerName, 'UPGRADE', { versionIdentifier: v.version, imageType: v.imageType, imageName: s.image.imageName, checksum: s.image.checksum }, { commandId, metadata: RUNNER_METADATA });
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) {
        logger.warn('upgrade: reader cannot be given its command', { upgradeId: id, reader: readerName, message: err.message });
        // Also from a timer: a lost race must be logged here, not escape.
        const r = await runCommand(deps.client, onUpgrade(id), { type: 'ReaderUnreachable', readerName, reason: err.message }, { now: clock.now(), metadata: RUNNER_METADATA })
          .catch((e: unknown) => E.left(e instanceof Error ? e : new Error(String(e))));
        if (E.isLeft(r)) logger.warn('upgrade: recording an unreachable reader refused', { upgradeId: id, reader: readerName, message: r.left.message });
        return;
      }
      logger.error('upgrade: issuing the UPGRADE command failed; retrying', { upgradeId: id, reader: readerName, err: String(err) });
      if (!closed) clock.setTimer(() => void issue(id, states.get(id) ?? s, readerName, commandId), retryMs);
    }
  };

  /** After a decision: issue the started readers' commands, withdraw the timed-out ones. */
  const effects = async (id: string, s: UpgradeState, events: readonly UpgradeEvent[]): Promise<void> => {
    for (const e of events) {
      if (e.type === 'UpgradeReaderStarted') await issue(id, s, e.data.readerName, e.data.commandId);
      if (e.type === 'UpgradeReaderFinished' && e.data.reason === TIMED_OUT) {
        const commandId = s.readers.find((r) => r.name === e.data.readerName)?.commandId;
        if (commandId) {
          await completeReaderCommand(deps, e.data.readerName, commandId, 'FAILED', 'upgrade timed out', RUNNER_METADATA, clock.now()).catch((err: unknown) =>
            logger.info('upgrade: timed-out command not withdrawn', { upgradeId: id, reader: e.data.readerName, err: String(err) }),
          );
        }
      }
    }
  };

  const fire = async (id: string): Promise<void> => {
    if (closed) return;
    if (inFlight.has(id)) return schedule(id, 50); // the step in flight may not have reached the subscription yet
    const s = states.get(id);
    if (s === undefined || s.request === null) return;
    const known = outcomesOf(id);
    const due = nextDue(s, known, timeoutMs);
    if (due === undefined) return;
    if (due > clock.now().getTime()) return schedule(id);
    inFlight.add(id);
    try {
      const commandIds = Array.from({ length: s.request.policy.maxParallelReaders }, () => randomUUID());
      const result = await runCommand(deps.client, onUpgrade(id), { type: 'Advance', outcomes: known, commandIds, readerTimeoutMs: timeoutMs }, { now: clock.now(), metadata: RUNNER_METADATA });
      if (E.isLeft(result)) {
        logger.warn('upgrade step refused; retrying', { upgradeId: id, message: result.left.message });
        schedule(id, retryMs);
      } else {
        await effects(id, result.right.state, result.right.events);
        if (result.right.events.length === 0) schedule(id, retryMs); // the stream was ahead of us: look again
      }
      // Appended events come back through the subscription, which reschedules.
    } catch (err) {
      logger.error('upgrade step failed; retrying', { upgradeId: id, err: String(err) });
      schedule(id, retryMs);
    } finally {
      inFlight.delete(id);
    }
  };

  const sub = runSubscription({
    client: deps.client,
    name: 'upgrade-runner',
    codecs: { ...upgradeEvents, ...readerCommandEvents },
    filter: streamNameFilter({ prefixes: [UPGRADE_STREAM_PREFIX, READER_COMMANDS_STREAM_PREFIX] }),
    checkpointStore: new InMemoryCheckpointStore(),
    logger,
    handler: async (events) => {
      const touched = new Set<string>();
      for (const e of events) {
        if (e.streamId.startsWith(UPGRADE_STREAM_PREFIX)) {
          const id = e.streamId.slice(UPGRADE_STREAM_PREFIX.length);
          if (knowledge.onUpgradeEvent(id, e as unknown as UpgradeEvent)) touched.add(id);
        } else {
          // Only a completed UPGRADE of an active upgrade concerns the runner.
          const id = knowledge.onCommandEvent(e as unknown as ReaderCommandEvent);
          if (id !== undefined) touched.add(id);
        }
      }
      if (live) for (const id of touched) schedule(id);
    },
    onCaughtUp: () => {
      if (live) return;
      live = true;
      logger.info('upgrade runner caught up', { activeUpgrades: states.size });
      for (const [id, s] of states) {
        const known = outcomesOf(id);
        // Re-issue (a no-op when issued already) in case the process died between the decision and the issue.
        for (const r of s.readers) if (r.status === 'IN_PROGRESS' && r.commandId !== null && !known.has(r.commandId)) void issue(id, s, r.name, r.commandId);
        schedule(id);
      }
    },
  });

  return {
    caughtUp: sub.caughtUp,
    async stop() {
      closed = true;
      for (const h of timers.values()) clock.clearTimer(h);
      timers.clear();
      await sub.stop();
    },
  };
}
