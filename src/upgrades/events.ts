// The upgrade aggregate (`upgrade-<uuid>`): its events and the pure evolve.
//
//   UpgradeStarted          the request, the readers to upgrade (with the
//                           version each ran), the readers skipped and why,
//                           the image's checksum               -> WAITING
//   UpgradeReaderStarted    an UPGRADE command goes to the reader -> IN_PROGRESS
//   UpgradeReaderFinished   COMPLETED or FAILED (reason: the agent's message,
//                           time-out, cancelled by stop)
//   UpgradeStopRequested    stop: readers not started are cancelled
//   UpgradeFinished         COMPLETED (every reader did) or FAILED
import * as t from 'io-ts';
import { defineEvents, type EventOf } from '../core/events';
import { nullable } from '../core/codecs';
import { ReaderType } from '../readerdefinitions';
import { VersionIdentifier } from '../software';
import { UpgradeRequest, type UpgradeStatus } from './codec';

export const UPGRADE_STREAM_PREFIX = 'upgrade-';
export const upgradeStream = (id: string): string => `${UPGRADE_STREAM_PREFIX}${id}`;

export const UpgradeReaderPlan = t.type({ name: t.string, readerType: nullable(ReaderType), previousVersion: nullable(VersionIdentifier) }, 'UpgradeReaderPlan');
export type UpgradeReaderPlan = t.TypeOf<typeof UpgradeReaderPlan>;
export const SkippedReader = t.type({ name: t.string, readerType: nullable(ReaderType), reason: t.string }, 'SkippedReader');
export type SkippedReader = t.TypeOf<typeof SkippedReader>;
const Finished = t.keyof({ COMPLETED: null, FAILED: null });

export const upgradeEvents = defineEvents({
  UpgradeStarted: t.type({
    id: t.string,
    time: t.string,
    request: UpgradeRequest,
    readers: t.array(UpgradeReaderPlan),
    skipped: t.array(SkippedReader),
    image: t.type({ imageName: t.string, checksum: t.string }),
  }),
  UpgradeReaderStarted: t.type({ time: t.string, readerName: t.string, commandId: t.string }),
  UpgradeReaderFinished: t.type({ time: t.string, readerName: t.string, status: Finished, reason: nullable(t.string) }),
  UpgradeStopRequested: t.type({ time: t.string }),
  UpgradeFinished: t.type({ time: t.string, status: Finished }),
});
export type UpgradeEvent = EventOf<typeof upgradeEvents>;

export interface ReaderUpgrade extends UpgradeReaderPlan {
  readonly status: UpgradeStatus;
  readonly commandId: string | null;
  readonly startedAt: string | null;
  readonly finishedAt: string | null;
  readonly reason: string | null;
  readonly lastUpdatedTime: string;
}

export interface UpgradeState {
  readonly id: string;
  /** null before UpgradeStarted. */
  readonly request: UpgradeRequest | null;
  readonly image: { readonly imageName: string; readonly checksum: string } | null;
  readonly createdAt: string;
  readonly lastUpdatedTime: string;
  readonly readers: readonly ReaderUpgrade[];
  readonly skipped: readonly SkippedReader[];
  readonly stopRequested: boolean;
  /** Set by UpgradeFinished. */
  readonly finished: { readonly status: 'COMPLETED' | 'FAILED'; readonly time: string } | null;
}

export const initialUpgradeState: UpgradeState = {
  id: '', request: null, image: null, createdAt: '', lastUpdatedTime: '', readers: [], skipped: [], stopRequested: false, finished: null,
};

/** WAITING until a reader starts, IN_PROGRESS until UpgradeFinished says how it ended. */
export function overallStatus(s: UpgradeState): UpgradeStatus {
  if (s.finished !== null) return s.finished.status;
  return s.readers.some((r) => r.status !== 'WAITING') ? 'IN_PROGRESS' : 'WAITING';
}

const updateReader = (s: UpgradeState, name: string, f: (r: ReaderUpgrade) => ReaderUpgrade): UpgradeState['readers'] =>
  s.readers.map((r) => (r.name === name ? f(r) : r));

export function evolveUpgrade(s: UpgradeState, e: UpgradeEvent): UpgradeState {
  const at = { ...s, lastUpdatedTime: e.data.time };
  switch (e.type) {
    case 'UpgradeStarted': {
      const d = e.data;
      return {
        ...at, id: d.id, request: d.request, image: d.image, createdAt: d.time, skipped: d.skipped,
        readers: d.readers.map((r) => ({ ...r, status: 'WAITING', commandId: null, startedAt: null, finishedAt: null, reason: null, lastUpdatedTime: d.time })),
      };
    }
    case 'UpgradeReaderStarted':
      return { ...at, readers: updateReader(s, e.data.readerName, (r) => ({ ...r, status: 'IN_PROGRESS', commandId: e.data.commandId, startedAt: e.data.time, lastUpdatedTime: e.data.time })) };
    case 'UpgradeReaderFinished':
      return { ...at, readers: updateReader(s, e.data.readerName, (r) => ({ ...r, status: e.data.status, reason: e.data.reason, finishedAt: e.data.time, lastUpdatedTime: e.data.time })) };
    case 'UpgradeStopRequested':
      return { ...at, stopRequested: true };
    case 'UpgradeFinished':
      return { ...at, finished: { status: e.data.status, time: e.data.time } };
    default: {
      const never: never = e;
      return never;
    }
  }
}
