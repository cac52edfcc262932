// What the live stream sends for each stored event it watches: a pure
// mapping, so the wire format is one readable place (docs/api.md, "Live
// updates"). Only fields a client of the matching REST query could read
// anyway leave the service; agent secrets and report contents never do.
import type { AllStreamResolvedEvent } from '@eventstore/db-client';
import { isLeft } from 'fp-ts/Either';
import { decodeRecorded } from '../core/events';
import { isEngineStream, itemEvents } from '../engine';
import { JOB_STREAM_PREFIX, jobEvents } from '../jobs';
import { healthEvents } from '../health';
import { transitionRecordOf } from '../items';

/** Topics a stream can carry; each follows the roles of the REST query that shows the same data. */
export const TOPICS = ['items', 'jobs', 'health', 'transitions'] as const;
export type Topic = (typeof TOPICS)[number];

export interface LiveItemChange {
  readonly epc: string;
  readonly kind: string;
  readonly jobId: string;
  readonly zone: string;
  readonly fromZone: string;
  readonly floor: string | null;
  readonly facility: string | null;
  readonly fromFacility: string | null;
  readonly x: number | null;
  readonly y: number | null;
  /** ISO 8601 observation time */
  readonly time: string;
}

/** A door passage as the transitions query shows it, with the facility of its threshold (streams may be asked for one facility). */
export type LiveTransition = ReturnType<typeof transitionRecordOf> & { readonly facility: string };

export type LiveMessage =
  | { readonly event: 'items'; readonly topics: 'items'; readonly data: { readonly at: string; readonly changes: readonly LiveItemChange[]; readonly reset?: { readonly facility: string } } }
  | { readonly event: 'transitions'; readonly topics: 'transitions'; readonly data: { readonly at: string; readonly transitions: readonly LiveTransition[] } }
  | { readonly event: 'job'; readonly topics: 'jobs'; readonly data: { readonly jobId: string; readonly type: string; readonly time: string; readonly status?: string; readonly message?: string } }
  | { readonly event: 'health'; readonly topics: 'health'; readonly data: Record<string, unknown> }
  | { readonly event: 'gap'; readonly topics: 'all'; readonly data: { readonly reason: string } };

const JOB_STATUS: Record<string, string> = {
  JobStarted: 'WAITING',
  JobInitializing: 'INITIALIZING',
  JobInitialized: 'STARTING',
  JobRunning: 'RUNNING',
  JobStopRequested: 'STOPPING',
  JobStopped: 'STOPPED',
};

const iso = (ms: number): string => new Date(ms).toISOString();

/** The messages for one watched event (none for events the stream does not forward). Throws when it does not decode. */
export function liveMessages(resolved: AllStreamResolvedEvent): LiveMessage[] {
  const streamId = resolved.event?.streamId ?? '';
  if (isEngineStream(streamId)) {
    const decoded = decodeRecorded(resolved, itemEvents);
    if (isLeft(decoded)) throw decoded.left;
    const { at, changes, reset, transitions } = decoded.right.data;
    const items: LiveMessage = {
      event: 'items',
      topics: 'items',
      data: {
        at: iso(at),
        // Changes a job keeps out of the items read model are not item data a client could query.
        changes: changes.filter((c) => c.reportToDatabaseEnabled).map((c) => ({
          epc: c.epc, kind: c.kind, jobId: c.jobId, zone: c.toZone, fromZone: c.fromZone, floor: c.toFloor,
          facility: c.toFacility, fromFacility: c.fromFacility, x: c.toX, y: c.toY, time: iso(c.observationTime),
        })),
        ...(reset ? { reset: { facility: reset.facility } } : {}),
      },
    };
    // Passages kept out of the transitions read model likewise stay in.
    const passages = (transitions ?? []).filter((t) => t.reportToDatabaseEnabled).map((t) => ({ ...transitionRecordOf(t), facility: t.facility }));
    return passages.length > 0 ? [items, { event: 'transitions', topics: 'transitions', data: { at: iso(at), transitions: passages } }] : [items];
  }
  const one = otherMessage(resolved, streamId);
  return one ? [one] : [];
}

function otherMessage(resolved: AllStreamResolvedEvent, streamId: string): LiveMessage | undefined {
  if (streamId.startsWith(JOB_STREAM_PREFIX)) {
    const decoded = decodeRecorded(resolved, jobEvents);
    if (isLeft(decoded)) throw decoded.left;
    const e = decoded.right;
    const status = JOB_STATUS[e.type];
    return {
      event: 'job',
      topics: 'jobs',
      data: {
        jobId: streamId.slice(JOB_STREAM_PREFIX.length), type: e.type, time: e.data.time,
        ...(status ? { status } : {}),
        ...(e.type === 'JobErrorRecorded' ? { message: e.data.message } : {}),
      },
    };
  }
  const type = resolved.event?.type;
  // The agent streams also hold AgentSecretIssued: only check-ins are forwarded, and only their state.
  if (type !== 'HealthEventReported' && type !== 'AgentCheckedIn' && type !== 'ReaderNotResponding' && type !== 'ReaderResponding') return undefined;
  const decoded = decodeRecorded(resolved, healthEvents);
  if (isLeft(decoded)) throw decoded.left;
  const e = decoded.right;
  switch (e.type) {
    case 'AgentCheckedIn':
      return { event: 'health', topics: 'health', data: { kind: e.type, readerName: e.data.reader, state: e.data.state, time: e.data.at } };
    case 'HealthEventReported':
      return { event: 'health', topics: 'health', data: { kind: e.type, ...e.data, time: e.data.eventTime } };
    default:
      return { event: 'health', topics: 'health', data: { kind: e.type, readerName: e.data.readerName, time: e.data.eventTime, lastCheckin: e.data.lastCheckin } };
  }
}
