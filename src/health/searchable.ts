// What a health stream event looks like in the event search (and in queues):
// the interface's health event. ReaderNotResponding / ReaderResponding appear
// as LIFECYCLE events with codes NOT_RESPONDING / RESPONDING.
import * as t from 'io-ts';
import { decodeStored } from '../core/stored-json';
import { HealthEventTypeCodec } from './codes';
import type { HealthStreamEvent } from './events';

export const HealthEventView = t.readonly(
  t.type({ eventTime: t.string, readerName: t.string, type: HealthEventTypeCodec, code: t.string, args: t.UnknownRecord }),
);
export type HealthEventView = t.TypeOf<typeof HealthEventView>;

// The stored member: the event id and the view.
const Member = t.intersection([t.type({ id: t.string }), HealthEventView]);

/** The searchable view of an event, or undefined for events that are not health events (check-ins). */
export function searchableView(event: HealthStreamEvent, readerName: string): HealthEventView | undefined {
  switch (event.type) {
    case 'HealthEventReported': {
      const d = event.data;
      return { eventTime: d.eventTime, readerName, type: d.type, code: d.code, args: d.args };
    }
    case 'ReaderNotResponding':
    case 'ReaderResponding':
      return {
        eventTime: event.data.eventTime,
        readerName,
        type: 'LIFECYCLE',
        code: event.type === 'ReaderNotResponding' ? 'NOT_RESPONDING' : 'RESPONDING',
        args: { lastCheckin: event.data.lastCheckin },
      };
    case 'AgentCheckedIn':
      return undefined;
    default: {
      const never: never = event;
      return never;
    }
  }
}

/**
 * The sorted-set member: the event id first keeps members unique (and a
 * replayed event idempotent); the score is the eventTime in ms.
 */
export const encodeMember = (id: string, view: HealthEventView): string => JSON.stringify({ id, ...view });

export function decodeMember(member: string): HealthEventView {
  const { id: _id, ...view } = decodeStored(Member, member, 'health read model: an event');
  return view;
}
