// How a run of the engine gets its state back: the newest valid snapshot
// (snapshot.ts, snapshot-store.ts) that belongs to this ENGINE_STREAM; the
// run then decides the input after it again (run.ts), or, without a
// snapshot (or asked to), the stream's events after it are applied with
// applyChange. A snapshot is only a cache: whatever is wrong with it
// (missing, damaged, another format, another log, ahead of the stream) costs
// a longer replay, never a wrong state (docs/item-processing.md, "Snapshots").
import type { EventStoreDBClient } from '@eventstore/db-client';
import type { Logger } from '../core/logger';
import { applyChange } from './apply';
import { recordedEvents } from './recorded';
import { EngineConfiguration, type ConfigEntry } from './configuration';
import type { JobInfo } from './jobs-book';
import { ENGINE_STREAM, type ItemsReset } from './events';
import { resetFacility } from './reset';
import { decodeState, snapshotJobIds, type SnapshotPosition } from './snapshot';
import { readSnapshots, type StoredSnapshot } from './snapshot-store';
import { emptyState } from './state';
import type { OpenPassages } from './threshold/passages';
import type { EngineState, ItemChange, JobContext } from './types';

/** The end of ENGINE_STREAM a run starts from (output.ts readLastOutput). */
export interface StreamEnd {
  readonly revision: bigint;
  readonly inputPosition: string | undefined;
}

export interface RestoreDeps {
  readonly client: EventStoreDBClient;
  /** The partition's output stream (./partitions.ts); default ENGINE_STREAM, partition 0's. */
  readonly stream?: string;
  readonly logger: Logger;
  /** Where snapshots are kept; undefined = always replay the whole stream. */
  readonly snapshotDir: string | undefined;
  /** A job's context under `config` as of the `$all` position `upTo`, or undefined when it is no item job then. */
  readonly contextOf: (jobId: string, config: EngineConfiguration, upTo: bigint) => Promise<JobContext | undefined>;
  /** The job's useOtherJobData as of `upTo` (true when the job is unknown): it chooses the view its changes replay into. */
  readonly useOtherJobDataOf: (jobId: string, upTo: bigint) => Promise<boolean>;
}

/** RestoreDeps' job lookups from the jobs' own streams (the run's; jobs-book.ts loadJobAsOf). */
export function jobLookups(jobAsOf: (jobId: string, upTo: bigint) => Promise<JobInfo>): Pick<RestoreDeps, 'contextOf' | 'useOtherJobDataOf'> {
  return {
    contextOf: async (jobId, config, upTo) => {
      const { job } = await jobAsOf(jobId, upTo);
      return job.status === 'NONE' ? undefined : config.jobContext(job);
    },
    useOtherJobDataOf: async (jobId, upTo) => (await jobAsOf(jobId, upTo)).job.job?.useOtherJobData ?? true,
  };
}

export interface Restored {
  readonly state: EngineState;
  /** The snapshot used, if any. */
  readonly snapshot: SnapshotPosition | undefined;
  /** Jobs named by the replayed changes or held by the snapshot: the caller checks which of them stopped. */
  readonly jobIds: ReadonlySet<string>;
  /** The open threshold passages at the end of the stream: the last carried by a replayed event, else the snapshot's (tracker.ts restore). */
  readonly passages: OpenPassages;
  /**
   * The configuration as of the end of the stream: the snapshot's and the
   * entries the events after it carry; undefined when the stream was written
   * before the engine carried its configuration (the caller folds it from the log).
   */
  readonly configuration: EngineConfiguration | undefined;
  /**
   * Set when the state stands at an older snapshot than the end of the
   * stream and was asked to (`tail` 'decide'): the output event it stands
   * at. The caller decides the input after it again up to the end.
   */
  readonly decideFrom?: { readonly revision: bigint; readonly inputPosition: string; readonly at: number };
  /** Events and changes replayed after the snapshot (or from the start). */
  readonly replayedEvents: number;
  readonly replayedChanges: number;
  /** How long the snapshot took to read and decode, and the replay, in ms. */
  readonly loadMs: number;
  readonly replayMs: number;
}

/** Visits a partition's output events from `from` to `to` (inclusive; recorded.ts recordedEvents); returns how many. */
export async function forEachOutput(
  client: EventStoreDBClient,
  from: bigint,
  to: bigint,
  visit: (e: {
    readonly id: string;
    readonly revision: bigint;
    readonly inputPosition: string;
    readonly at: number;
    readonly changes: readonly ItemChange[];
    readonly reset?: ItemsReset | undefined;
    readonly passages?: OpenPassages | undefined;
    readonly configuration?: readonly ConfigEntry[] | undefined;
    readonly configurationComplete?: boolean | undefined;
  }) => void,
  stream: string = ENGINE_STREAM,
): Promise<number> {
  let count = 0;
  for await (const e of recordedEvents(client, stream, from, to)) {
    visit({ id: e.id, revision: e.revision, ...e.data });
    count++;
  }
  return count;
}

/** The output event a snapshot stands at, or why the snapshot does not belong to the stream as it is now. */
async function eventOfSnapshot(client: EventStoreDBClient, stream: string, position: SnapshotPosition, end: StreamEnd): Promise<{ at: number } | { foreign: string }> {
  const revision = BigInt(position.revision);
  if (revision > end.revision) return { foreign: `ahead of the stream (snapshot at revision ${revision}, stream ends at ${end.revision})` };
  let found: { id: string; inputPosition: string; at: number } | undefined;
  await forEachOutput(client, revision, revision, (e) => {
    found = { id: e.id, inputPosition: e.inputPosition, at: e.at };
  }, stream);
  if (found === undefined) return { foreign: `revision ${revision} is not in the stream` };
  if (found.id !== position.eventId || found.inputPosition !== position.inputPosition) {
    return { foreign: `revision ${revision} is another event (the stream was reset or the log replaced)` };
  }
  return { at: found.at };
}

/** The snapshot's state, its job runtimes given the contexts of the snapshot's own configuration and jobs as of its position. */
async function decodeSnapshot(deps: RestoreDeps, stored: StoredSnapshot, config: EngineConfiguration): Promise<EngineState> {
  const contexts = new Map<string, JobContext | undefined>();
  const upTo = BigInt(stored.header.position.inputPosition);
  for (const jobId of snapshotJobIds(stored.header, stored.sections)) contexts.set(jobId, await deps.contextOf(jobId, config, upTo));
  return decodeState(stored.header, stored.sections, (jobId) => contexts.get(jobId));
}

/** The newest snapshot that is intact and belongs to this stream, decoded; undefined when there is none. */
async function newestUsable(
  deps: RestoreDeps,
  end: StreamEnd,
): Promise<{ state: EngineState; position: SnapshotPosition; at: number; isolated: readonly string[]; passages: OpenPassages; configuration: EngineConfiguration } | undefined> {
  if (deps.snapshotDir === undefined) return undefined;
  for (const candidate of await readSnapshots(deps.snapshotDir)) {
    if (!candidate.ok) {
      deps.logger.warn('engine snapshot ignored', { file: candidate.file, reason: candidate.reason });
      continue;
    }
    const { file, header } = candidate.snapshot;
    if (header.configuration === undefined) {
      // Written before the engine folded its configuration: its runtimes cannot be given the contexts of their time.
      deps.logger.warn('engine snapshot ignored', { file, reason: 'it holds no configuration (written by an older version)' });
      continue;
    }
    try {
      const event = await eventOfSnapshot(deps.client, deps.stream ?? ENGINE_STREAM, header.position, end);
      if ('foreign' in event) {
        deps.logger.warn('engine snapshot ignored', { file, reason: event.foreign });
        continue;
      }
      const configuration = EngineConfiguration.of(header.configuration);
      return { state: await decodeSnapshot(deps, candidate.snapshot, configuration), position: header.position, at: event.at, isolated: header.isolated, passages: header.passages ?? [], configuration };
    } catch (err) {
      // A snapshot that passed its checksum but does not decode is a bug or a foreign writer: replay instead.
      deps.logger.warn('engine snapshot ignored', { file, reason: err instanceof Error ? err.message : String(err) });
    }
  }
  return undefined;
}

/**
 * Rebuilds the engine state for the stream ending at `end`: newest usable
 * snapshot, then the events after it (`tail` 'apply'). With `tail`
 * 'decide', a snapshot older than the end is returned as it is, with
 * `decideFrom`: the changes after it do not carry what the engine also
 * keeps (reads that changed nothing, open compute windows), deciding their
 * input again does. Without a usable snapshot the events are applied either
 * way. The returned state holds the runtimes of the snapshot's jobs;
 * registering the other running jobs and ending the stopped ones is the
 * caller's (it knows the jobs).
 */
export async function restoreState(deps: RestoreDeps, end: StreamEnd | undefined, tail: 'apply' | 'decide' = 'apply'): Promise<Restored> {
  const started = Date.now();
  if (end === undefined) {
    return { state: emptyState(), snapshot: undefined, jobIds: new Set(), passages: [], configuration: new EngineConfiguration(), replayedEvents: 0, replayedChanges: 0, loadMs: 0, replayMs: 0 };
  }
  const snapshot = await newestUsable(deps, end);
  const loaded = Date.now();
  const state = snapshot?.state ?? emptyState();
  const jobIds = new Set<string>([...state.jobs.keys(), ...(snapshot?.isolated ?? [])]);
  if (tail === 'decide' && snapshot !== undefined && BigInt(snapshot.position.revision) < end.revision) {
    const decideFrom = { revision: BigInt(snapshot.position.revision), inputPosition: snapshot.position.inputPosition, at: snapshot.at };
    const { passages, configuration } = snapshot;
    return { state, snapshot: snapshot.position, jobIds, passages, configuration, decideFrom, replayedEvents: 0, replayedChanges: 0, loadMs: loaded - started, replayMs: 0 };
  }
  const changes: ItemChange[] = [];
  // Item resets replay in log order between the changes (an event's reset comes before its changes).
  const steps: Array<ItemChange | { readonly resetFacility: string }> = [];
  const from = snapshot === undefined ? 0n : BigInt(snapshot.position.revision) + 1n;
  let passages = snapshot?.passages ?? [];
  let configuration = snapshot?.configuration;
  const events = await forEachOutput(deps.client, from, end.revision, (e) => {
    if (e.passages !== undefined) passages = e.passages;
    if (e.configurationComplete === true) configuration = EngineConfiguration.of(e.configuration ?? []);
    else if (configuration !== undefined) for (const entry of e.configuration ?? []) configuration.apply(entry);
    if (e.reset !== undefined) steps.push({ resetFacility: e.reset.facility });
    for (const c of e.changes) {
      changes.push(c);
      steps.push(c);
    }
  }, deps.stream);
  // Each job's view (shared or its own) is chosen by its useOtherJobData, read once per job.
  const useOther = new Map<string, boolean>();
  const upTo = end.inputPosition === undefined ? 0n : BigInt(end.inputPosition);
  for (const jobId of new Set(changes.map((c) => c.jobId))) {
    jobIds.add(jobId);
    useOther.set(jobId, await deps.useOtherJobDataOf(jobId, upTo));
  }
  for (const step of steps) {
    if ('resetFacility' in step) resetFacility(state, step.resetFacility);
    else applyChange(state, step, useOther.get(step.jobId) ?? true);
  }
  return {
    state,
    snapshot: snapshot?.position,
    jobIds,
    passages,
    configuration,
    replayedEvents: events,
    replayedChanges: changes.length,
    loadMs: loaded - started,
    replayMs: Date.now() - loaded,
  };
}
