// Events reader health is built from. HealthEventReported and AgentCheckedIn
// are appended by the agent gateway (docs/agent-protocol.md);
// ReaderNotResponding / ReaderResponding by the responsiveness checker
// (src/health/checker.ts). Data shapes are what the store holds; the codecs
// read leniently (any `code` string) so an event of a code added later still
// projects, it just feeds no status.
import * as t from 'io-ts';
import { defineEvents, type EventOf } from '../core/events';
import { IsoTimestamp } from '../readerdefinitions';
import { HealthEventTypeCodec } from './codes';

export const HEALTH_STREAM_PREFIX = 'readerHealth-';
export const AGENT_STREAM_PREFIX = 'readerAgent-';
export const healthStream = (reader: string): string => `${HEALTH_STREAM_PREFIX}${reader}`;
export const agentStream = (reader: string): string => `${AGENT_STREAM_PREFIX}${reader}`;

/** The reader a health or agent stream belongs to; undefined for any other stream. */
export function readerOfStream(streamId: string): string | undefined {
  for (const prefix of [HEALTH_STREAM_PREFIX, AGENT_STREAM_PREFIX]) {
    if (streamId.startsWith(prefix)) return streamId.slice(prefix.length);
  }
  return undefined;
}

export const AGENT_STATES = ['IDLE', 'RUNNING_JOB', 'UPDATING_FIRMWARE', 'ERROR'] as const;
export type AgentState = (typeof AGENT_STATES)[number];
export const AgentStateCodec = t.keyof({ IDLE: null, RUNNING_JOB: null, UPDATING_FIRMWARE: null, ERROR: null }, 'AgentState');

export const Versions = t.type({ App: t.string, Firmware: t.string }, 'Versions');
export type Versions = t.TypeOf<typeof Versions>;

/** The interface's health event, as stored in `HealthEventReported`. */
export const HealthEventReportedData = t.type(
  {
    readerName: t.string,
    eventTime: IsoTimestamp,
    type: HealthEventTypeCodec,
    code: t.string,
    args: t.record(t.string, t.unknown),
  },
  'HealthEventReported',
);
export type HealthEventReportedData = t.TypeOf<typeof HealthEventReportedData>;

export const AgentCheckedInData = t.intersection(
  [
    t.type({ reader: t.string, agentId: t.string, versions: Versions, state: AgentStateCodec, at: IsoTimestamp }),
    // Check-ins stored before readers reported a temperature have none.
    t.partial({ temperatureCelsius: t.number }),
  ],
  'AgentCheckedIn',
);
export type AgentCheckedInData = t.TypeOf<typeof AgentCheckedInData>;

/** Recorded by the checker when a reader missed its check-ins (`eventTime`: when noticed). */
export const ResponsivenessData = t.type(
  { readerName: t.string, eventTime: IsoTimestamp, lastCheckin: IsoTimestamp },
  'Responsiveness',
);
export type ResponsivenessData = t.TypeOf<typeof ResponsivenessData>;

export const healthEvents = defineEvents({
  HealthEventReported: HealthEventReportedData,
  AgentCheckedIn: AgentCheckedInData,
  ReaderNotResponding: ResponsivenessData,
  ReaderResponding: ResponsivenessData,
});
export type HealthStreamEvent = EventOf<typeof healthEvents>;
