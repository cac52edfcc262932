// The upgrade's pure decisions. The runner (runner.ts) sends `Advance`
// whenever something may have changed (an event of the upgrade, a reader
// reporting its UPGRADE command, a reader's time-out falling due); Advance
// finishes the readers that reported or timed out, starts waiting readers up
// to `maxParallelReaders` in progress, and ends the upgrade once every reader
// is done. So the policy lives here, tested given/when/then, and the runner
// only carries facts in.
import * as E from 'fp-ts/Either';
import { conflict, notFound, type ApiError } from '../core/http/errors';
import type { UpgradeRequest } from './codec';
import type { SkippedReader, UpgradeEvent, UpgradeReaderPlan, UpgradeState } from './events';

/** What became of an UPGRADE command (ReaderCommandCompleted), by commandId. */
export interface CommandOutcome {
  readonly result: 'DONE' | 'FAILED';
  readonly message: string | null;
}

export type UpgradeCommand =
  | {
      readonly type: 'Start';
      readonly id: string;
      readonly request: UpgradeRequest;
      readonly readers: readonly UpgradeReaderPlan[];
      readonly skipped: readonly SkippedReader[];
      readonly image: { readonly imageName: string; readonly checksum: string };
    }
  | {
      readonly type: 'Advance';
      /** Outcomes of the readers' UPGRADE commands known so far (others are ignored). */
      readonly outcomes: ReadonlyMap<string, CommandOutcome>;
      /** Fresh command ids for readers started now (at least maxParallelReaders of them). */
      readonly commandIds: readonly string[];
      /** How long a reader may stay IN_PROGRESS before it counts as failed. */
      readonly readerTimeoutMs: number;
    }
  /** The UPGRADE command could not be given to the reader (e.g. its definition was deleted). */
  | { readonly type: 'ReaderUnreachable'; readonly readerName: string; readonly reason: string }
  | { readonly type: 'Stop' };

type Decision = E.Either<ApiError, UpgradeEvent[]>;

export const TIMED_OUT = 'no result within the upgrade time-out';
export const CANCELLED = 'cancelled: the upgrade was stopped before this reader started';

const ms = (iso: string): number => Date.parse(iso);

/** Ends the upgrade when every reader is COMPLETED or FAILED (given the events decided so far). */
function concludeIfDone(s: UpgradeState, events: UpgradeEvent[], time: string): UpgradeEvent[] {
  const status = new Map(s.readers.map((r) => [r.name, r.status]));
  for (const e of events) {
    if (e.type === 'UpgradeReaderFinished') status.set(e.data.readerName, e.data.status);
    if (e.type === 'UpgradeReaderStarted') status.set(e.data.readerName, 'IN_PROGRESS');
  }
  const all = [...status.values()];
  if (all.some((x) => x === 'WAITING' || x === 'IN_PROGRESS')) return events;
  return [...events, { type: 'UpgradeFinished', data: { time, status: all.every((x) => x === 'COMPLETED') ? 'COMPLETED' : 'FAILED' } }];
}

function advance(s: UpgradeState, cmd: Extract<UpgradeCommand, { type: 'Advance' }>, now: Date): UpgradeEvent[] {
  if (s.request === null || s.finished !== null) return [];
  const time = now.toISOString();
  const events: UpgradeEvent[] = [];
  let inProgress = 0;
  for (const r of s.readers) {
    if (r.status !== 'IN_PROGRESS') continue;
    const outcome = r.commandId === null ? undefined : cmd.outcomes.get(r.commandId);
    if (outcome !== undefined) {
      const status = outcome.result === 'DONE' ? 'COMPLETED' : 'FAILED';
      events.push({ type: 'UpgradeReaderFinished', data: { time, readerName: r.name, status, reason: outcome.message ?? (status === 'FAILED' ? 'the reader reported FAILED' : null) } });
    } else if (r.startedAt !== null && now.getTime() >= ms(r.startedAt) + cmd.readerTimeoutMs) {
      events.push({ type: 'UpgradeReaderFinished', data: { time, readerName: r.name, status: 'FAILED', reason: TIMED_OUT } });
    } else inProgress++;
  }
  if (!s.stopRequested) {
    const free = Math.max(0, s.request.policy.maxParallelReaders - inProgress);
    const ids = [...cmd.commandIds];
    for (const r of s.readers.filter((x) => x.status === 'WAITING').slice(0, free)) {
      const commandId = ids.shift();
      if (commandId === undefined) break;
      events.push({ type: 'UpgradeReaderStarted', data: { time, readerName: r.name, commandId } });
    }
  }
  return concludeIfDone(s, events, time);
}

export function decideUpgrade(cmd: UpgradeCommand, s: UpgradeState, now: Date): Decision {
  const time = now.toISOString();
  switch (cmd.type) {
    case 'Start':
      if (s.request !== null) return E.left(conflict(`upgrade ${cmd.id} already exists`));
      return E.right([
        { type: 'UpgradeStarted', data: { id: cmd.id, time, request: cmd.request, readers: [...cmd.readers], skipped: [...cmd.skipped], image: cmd.image } },
      ]);
    case 'Advance':
      return E.right(advance(s, cmd, now));
    case 'ReaderUnreachable': {
      const r = s.readers.find((x) => x.name === cmd.readerName);
      if (s.finished !== null || r === undefined || r.status !== 'IN_PROGRESS') return E.right([]);
      return E.right(concludeIfDone(s, [{ type: 'UpgradeReaderFinished', data: { time, readerName: r.name, status: 'FAILED', reason: cmd.reason } }], time));
    }
    case 'Stop': {
      if (s.request === null) return E.left(notFound('upgrade not found'));
      if (s.finished !== null || s.stopRequested) return E.right([]); // stopping again changes nothing
      const cancelled: UpgradeEvent[] = s.readers
        .filter((r) => r.status === 'WAITING')
        .map((r) => ({ type: 'UpgradeReaderFinished', data: { time, readerName: r.name, status: 'FAILED', reason: CANCELLED } }));
      return E.right(concludeIfDone(s, [{ type: 'UpgradeStopRequested', data: { time } }, ...cancelled], time));
    }
    default: {
      const never: never = cmd;
      return never;
    }
  }
}

/**
 * When the runner must send Advance next (epoch ms; 0 = now), given the
 * outcomes it knows; undefined: only new facts can move the upgrade.
 */
export function nextDue(s: UpgradeState, outcomes: ReadonlyMap<string, CommandOutcome>, readerTimeoutMs: number): number | undefined {
  if (s.request === null || s.finished !== null) return undefined;
  const inProgress = s.readers.filter((r) => r.status === 'IN_PROGRESS');
  if (inProgress.some((r) => r.commandId !== null && outcomes.has(r.commandId))) return 0;
  const waiting = s.readers.some((r) => r.status === 'WAITING');
  if (!s.stopRequested && waiting && inProgress.length < s.request.policy.maxParallelReaders) return 0;
  if (inProgress.length === 0 && !(waiting && !s.stopRequested)) return 0; // nothing left: conclude
  const deadlines = inProgress.flatMap((r) => (r.startedAt === null ? [] : [ms(r.startedAt) + readerTimeoutMs]));
  return deadlines.length === 0 ? undefined : Math.min(...deadlines);
}

