// The configuration archive (GET/POST /support/v1/configuration): every event
// of the configuration streams, stream by stream, with ids, types, data and
// metadata exactly as stored. Exporting events rather than documents keeps
// everything a restore needs without per-kind code: id counters of
// thresholds, user password hashes, the audit trail of every resource.
//
// What is configuration is an explicit list of stream prefixes; everything
// the config projection reads is either exported or excluded on purpose
// (test/support-endpoints checks no prefix is forgotten):
// - excluded: access tokens (bearer secrets of this instance), reader agent
//   secrets and commands, feature change requests and upgrades (operations
//   on readers, not configuration), AMQP queues (declared by their clients
//   on this instance's broker), EPCIS repositories (their credentials are
//   sealed with a key of this instance: configure them again after a
//   restore), and all data (jobs, tag reports, items, health).
// - IoT reader passwords and the SNMP community (write-only, sealed with a key
//   of this instance) are removed from the reader definition and SNMP
//   settings events: set them again after a restore.
// - users are exported WITH their password hashes (argon2id, never plain
//   text): a restored instance must let its users log in. The archive is
//   therefore as sensitive as the user database and only Admin may read it.
import { jsonEvent, StreamNotFoundError, type EventStoreDBClient, type Position } from '@eventstore/db-client';
import { randomUUID } from 'node:crypto';
import * as t from 'io-ts';
import { appendEvents } from '../core/eventstore';
import { conflict } from '../core/http/errors';
import { streamOf, type ResourceKind } from '../core/resource/kind';
import { FACTORY_DEFAULT_STREAMS } from '../defaults';
import { withoutPassword } from '../readerdefinitions';
import { SNMP_SETTINGS_NAME, snmpSettingsKind, withoutCommunity } from '../settings';
import { idCounterStream, antennaConfigurationKind } from '../thresholds';

export const CONFIGURATION_STREAM_PREFIXES = [
  'facility-', 'zoneMap-', 'currentZoneMap-', 'readerDefinition-', 'readerConfiguration-', 'recipe-',
  'threshold-', 'thresholdIds-', 'antennaConfiguration-', 'settings-', 'softwareImage-', 'user-',
  'epcisLocation-',
] as const;
/** Stream categories the config projection reads that are not configuration (see above). */
export const NOT_CONFIGURATION_STREAM_PREFIXES = ['tokens-', 'readerAgent-', 'readerCommands-', 'readerFeatures-', 'upgrade-', 'queue-', 'epcisRepository-'] as const;

/**
 * What a first start writes (bootstrap), and which an "empty" instance may
 * hold: stream -> its one event type. The factory defaults' antenna
 * configurations have fixed ids, recorded in their id counter.
 */
export const FIRST_START_STREAMS: Readonly<Record<string, string>> = {
  'user-admin': 'UserCreated',
  'facility-DEFAULT': 'FacilityCreated',
  ...FACTORY_DEFAULT_STREAMS,
  [idCounterStream(antennaConfigurationKind.kind)]: 'IdAllocated',
};

export const ARCHIVE_FORMAT = 'tagtrail-configuration';
export const ARCHIVE_VERSION = 1;

const ArchivedEvent = t.type({
  id: t.string,
  type: t.string,
  data: t.unknown,
  metadata: t.unknown,
});
const ArchivedStream = t.type({ stream: t.string, events: t.array(ArchivedEvent) });
export const ConfigurationArchive = t.type(
  {
    format: t.literal(ARCHIVE_FORMAT),
    version: t.literal(ARCHIVE_VERSION),
    exportedAt: t.string,
    streams: t.array(ArchivedStream),
  },
  'ConfigurationArchive',
);
export type ConfigurationArchive = t.TypeOf<typeof ConfigurationArchive>;
export type ArchivedStream = t.TypeOf<typeof ArchivedStream>;

const isConfigurationStream = (stream: string): boolean => CONFIGURATION_STREAM_PREFIXES.some((p) => stream.startsWith(p));

/**
 * Configuration stream names in the order their first event was written, and
 * the ids of every configuration event in the log, deleted streams included.
 */
async function scanConfiguration(client: EventStoreDBClient): Promise<{ streams: string[]; ids: Set<string> }> {
  const seen = new Set<string>();
  const ids = new Set<string>();
  // The client's readAll has no server-side filter: this reads the whole log
  // once (a support operation; O(log size)). Read to the end, never leave a
  // client read early.
  for await (const e of client.readAll()) {
    const id = e.event?.streamId;
    if (id !== undefined && isConfigurationStream(id)) {
      seen.add(id);
      ids.add(e.event!.id);
    }
  }
  return { streams: [...seen], ids };
}

/** A stream's events as stored, and its last revision; no events when it does not exist or was deleted. */
async function readRaw(client: EventStoreDBClient, stream: string): Promise<{ events: ArchivedStream['events']; revision: bigint }> {
  const events: ArchivedStream['events'] = [];
  // Revisions go on after a soft delete, so the last one is not events.length - 1.
  let revision = -1n;
  try {
    for await (const r of client.readStream(stream)) {
      const e = r.event;
      if (e === undefined) continue;
      events.push({ id: e.id, type: e.type, data: e.data, metadata: e.metadata ?? {} });
      revision = e.revision;
    }
  } catch (err) {
    if (err instanceof StreamNotFoundError) return { events: [], revision };
    throw err;
  }
  return { events, revision };
}

export interface StoredStream extends ArchivedStream {
  readonly revision: bigint;
}

export async function readConfigurationStreams(client: EventStoreDBClient): Promise<StoredStream[]> {
  return (await readConfiguration(client)).streams;
}

async function readConfiguration(client: EventStoreDBClient): Promise<{ streams: StoredStream[]; ids: Set<string> }> {
  const scanned = await scanConfiguration(client);
  const streams: StoredStream[] = [];
  for (const stream of scanned.streams) {
    const { events, revision } = await readRaw(client, stream);
    if (events.length) streams.push({ stream, events, revision });
  }
  return { streams, ids: scanned.ids };
}

export async function exportConfiguration(client: EventStoreDBClient, now: Date): Promise<ConfigurationArchive> {
  const streams = (await readConfigurationStreams(client)).map(({ stream, events }) => ({ stream, events: events.map((e) => withoutSecrets(stream, e)) }));
  return { format: ARCHIVE_FORMAT, version: ARCHIVE_VERSION, exportedAt: now.toISOString(), streams };
}

const SNMP_SETTINGS_STREAM = streamOf(snmpSettingsKind as ResourceKind<unknown>, SNMP_SETTINGS_NAME);

/** An event as exported: without the write-only secrets (sealed with this instance's key, or in clear from older versions). */
function withoutSecrets(stream: string, e: ArchivedStream['events'][number]): ArchivedStream['events'][number] {
  if (stream.startsWith('readerDefinition-')) return withoutReaderPassword(e);
  if (stream === SNMP_SETTINGS_STREAM) return { ...e, data: withoutCommunity(e.data) };
  return e;
}

/** A reader definition event without the IoT password (write-only: never exported; set it again after a restore). */
function withoutReaderPassword(e: ArchivedStream['events'][number]): ArchivedStream['events'][number] {
  const data = e.data as { resource?: unknown } | null;
  const resource = data?.resource;
  if (typeof resource !== 'object' || resource === null || !('connection' in resource)) return e;
  return { ...e, data: { ...data, resource: { ...resource, connection: withoutPassword(resource.connection) } } };
}

/** Whether the instance holds nothing but what a first start writes. */
export function isFirstStartState(streams: readonly ArchivedStream[]): boolean {
  return streams.every((s) => FIRST_START_STREAMS[s.stream] !== undefined && s.events.length === 1 && s.events[0]!.type === FIRST_START_STREAMS[s.stream]);
}

/** Archive streams outside the configuration categories: refused, an import must not write data or secrets. */
export function foreignStreams(archive: ConfigurationArchive): string[] {
  return archive.streams.map((s) => s.stream).filter((s) => !isConfigurationStream(s));
}

/**
 * Restores an archive into an instance in first-start state (409 otherwise).
 * The first-start streams the archive also holds are soft-deleted first, so
 * each restored stream holds exactly the archived events; the config
 * projection then sees the archive's events after the bootstrap ones and
 * ends with the archived documents. Returns the position of the last append.
 */
export async function importConfiguration(client: EventStoreDBClient, archive: ConfigurationArchive): Promise<{ streams: number; events: number; position: Position | undefined }> {
  const { streams: current, ids: logIds } = await readConfiguration(client);
  if (!isFirstStartState(current)) {
    throw conflict('The instance is not empty: a configuration archive is only restored into an instance in first-start state (see POST /support/v1/factoryReset)');
  }
  const archived = new Set(archive.streams.map((s) => s.stream));
  for (const s of current) {
    if (archived.has(s.stream)) await client.deleteStream(s.stream, { expectedRevision: s.revision });
  }
  let position: Position | undefined;
  let events = 0;
  for (const s of archive.streams) {
    // An id the log already holds (the archive is restored into the instance
    // it came from, after a factory reset) would be taken by the event store
    // for a retry of that old append and skipped: such events get new ids.
    const encoded = s.events.map((e) =>
      jsonEvent({ id: logIds.has(e.id) ? randomUUID() : e.id, type: e.type, data: e.data as never, metadata: e.metadata as never }),
    );
    // Stored events restored as they were, not decided again: the streams were just deleted
    // with their expected revisions (above), so nothing else wrote them in between.
    const outcome = await appendEvents(client, s.stream, encoded, 'any');
    position = outcome.position ?? position;
    events += encoded.length;
  }
  return { streams: archive.streams.length, events, position };
}
