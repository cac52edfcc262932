// Feature changes as commands on the reader's stream `readerFeatures-<reader>`,
// decided by decideFeatureChange. Clients request over HTTP
// (feature-routes.ts); the reader agent gateway reports with take / complete
// / fail below. Each waits for the read model, so a status read right after
// sees the change.
//
// Only a client's request checks that the reader definition exists. The
// agent's reports need a pending request (else 409), which needed the
// reader; they are recorded even if the definition was deleted since, so the
// outcome of a change the reader really made is not lost.
import { isLeft } from 'fp-ts/Either';
import { runCommand } from '../core/command';
import type { EventMetadata } from '../core/events';
import { notFound } from '../core/http/errors';
import type { ResourceDeps } from '../core/resource/routes';
import { featureChanges, featureStatusOf } from './feature-changes';
import { readerFeaturesStream } from './feature-readmodel';
import {
  featureChangeEvents,
  type FeatureAction,
  type FeatureChangeCommand,
  type FeatureName,
  type FeatureStatus,
  type FeatureStatusValue,
} from './features';
import { readerDefinitionOf } from './kind';

/** Who reports for a reader when the gateway passes no metadata. */
export const AGENT_METADATA: EventMetadata = { user: 'reader-agent' };

/** 404 unless the reader definition exists (in the read model). */
export async function requireReader(deps: ResourceDeps, reader: string): Promise<void> {
  if ((await readerDefinitionOf(deps.readModel, reader)) === undefined) {
    throw notFound(`reader definition ${JSON.stringify(reader)} not found`);
  }
}

/**
 * Decides `command` on the reader's feature stream, appends what it decides
 * and waits for the read model. Throws the decision's ApiError (409 for a
 * request in progress or a report with nothing pending); a lost race after
 * the retry is a 409 too. Returns the feature's status after the command.
 */
export async function runFeatureChange(
  deps: ResourceDeps,
  reader: string,
  command: FeatureChangeCommand,
  metadata: EventMetadata,
): Promise<FeatureStatus> {
  const stream = {
    stream: readerFeaturesStream(reader),
    codecs: featureChangeEvents,
    decider: featureChanges,
    conflict: `feature ${command.feature} of reader ${JSON.stringify(reader)} was changed concurrently; retry`,
  };
  const result = await runCommand(deps.client, stream, command, { metadata, waiter: deps.waiter });
  if (isLeft(result)) throw result.left;
  return featureStatusOf(result.right.state, command.feature);
}

/** A client's request (POST .../featureChanges): INITIALIZING until the agent takes it. */
export async function requestFeatureChange(
  deps: ResourceDeps,
  reader: string,
  feature: FeatureName,
  action: FeatureAction,
  metadata: EventMetadata,
): Promise<FeatureStatus> {
  await requireReader(deps, reader);
  return runFeatureChange(deps, reader, { type: 'RequestFeatureChange', feature, action }, metadata);
}

/** The agent took the pending request: CONFIGURING. Repeating it changes nothing. */
export async function takeFeatureChange(
  deps: ResourceDeps,
  reader: string,
  feature: FeatureName,
  metadata: EventMetadata = AGENT_METADATA,
): Promise<FeatureStatus> {
  return runFeatureChange(deps, reader, { type: 'TakeFeatureChange', feature }, metadata);
}

/**
 * The agent reports the feature's `status` after configuring: IDLE with that
 * status when it is the requested one, else ERROR naming both.
 */
export async function completeFeatureChange(
  deps: ResourceDeps,
  reader: string,
  feature: FeatureName,
  status: FeatureStatusValue,
  metadata: EventMetadata = AGENT_METADATA,
): Promise<FeatureStatus> {
  return runFeatureChange(deps, reader, { type: 'CompleteFeatureChange', feature, status }, metadata);
}

/** The agent reports failure: ERROR with `message`. */
export async function failFeatureChange(
  deps: ResourceDeps,
  reader: string,
  feature: FeatureName,
  message: string,
  metadata: EventMetadata = AGENT_METADATA,
): Promise<FeatureStatus> {
  return runFeatureChange(deps, reader, { type: 'FailFeatureChange', feature, message }, metadata);
}
