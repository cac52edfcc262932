// The feature-change state machine of one reader (spec: States and
// transitions, "Feature request status transitions: not shown"). Chosen:
//
//   (none)/IDLE/ERROR --request--> INITIALIZING --agent takes--> CONFIGURING
//   INITIALIZING|CONFIGURING --agent reports success--> IDLE (status = target)
//   INITIALIZING|CONFIGURING --agent reports failure--> ERROR (message)
//
// - A new request while one is INITIALIZING or CONFIGURING is refused with
//   409: replacing it could not stop an agent already configuring the
//   reader, so the reported outcome would belong to neither request. A
//   request after ERROR or IDLE starts afresh.
// - The agent's reports are idempotent (take while CONFIGURING, success while
//   IDLE, failure while ERROR decide nothing), so a retried report after a
//   lost response does not fail the agent. A report with no request pending
//   is a 409.
// - Success is accepted straight from INITIALIZING: an agent that skipped
//   "taken" still knows the outcome, and dropping it would leave the request
//   hanging.
// - A success report naming a status other than the request's target is a
//   failure (ERROR, the message names both): IDLE means "the last request
//   completed successfully", and `status` is untrustworthy while ERROR.
import { left, right, type Either } from 'fp-ts/Either';
import type { Decider } from '../core/command';
import { conflict, type ApiError } from '../core/http/errors';
import {
  NEVER_REQUESTED,
  targetOf,
  type FeatureChangeCommand,
  type FeatureChangeEvent,
  type FeatureName,
  type FeatureStates,
  type FeatureStatus,
} from './features';
import { assertNever } from './primitives';

export const initialFeatureStates: FeatureStates = {};

export function featureStatusOf(state: FeatureStates, feature: FeatureName): FeatureStatus {
  return state[feature] ?? NEVER_REQUESTED;
}

function withFeature(state: FeatureStates, feature: FeatureName, next: FeatureStatus): FeatureStates {
  return { ...state, [feature]: next };
}

export function evolveFeatures(state: FeatureStates, event: FeatureChangeEvent): FeatureStates {
  const { feature, at } = event.data;
  const prev = featureStatusOf(state, feature);
  switch (event.type) {
    case 'FeatureChangeRequested':
      // The message of an earlier request no longer describes this one.
      return withFeature(state, feature, {
        status: prev.status,
        statusLastUpdated: prev.statusLastUpdated,
        requestStatus: 'INITIALIZING',
        requestStatusLastUpdated: at,
        requestTargetStatus: event.data.target,
      });
    case 'FeatureChangeTaken':
      return withFeature(state, feature, { ...prev, requestStatus: 'CONFIGURING', requestStatusLastUpdated: at });
    case 'FeatureChangeCompleted': {
      const { message: _message, ...rest } = prev;
      return withFeature(state, feature, {
        ...rest,
        status: event.data.status,
        statusLastUpdated: at,
        requestStatus: 'IDLE',
        requestStatusLastUpdated: at,
        requestTargetStatus: null,
      });
    }
    case 'FeatureChangeFailed':
      // The target stays: an ERROR request is still "active" (listing endpoint).
      return withFeature(state, feature, {
        ...prev,
        requestStatus: 'ERROR',
        requestStatusLastUpdated: at,
        message: event.data.message,
      });
    default:
      return assertNever(event);
  }
}

const pending = (s: FeatureStatus): boolean => s.requestStatus === 'INITIALIZING' || s.requestStatus === 'CONFIGURING';

export function decideFeatureChange(
  command: FeatureChangeCommand,
  state: FeatureStates,
  now: Date,
): Either<ApiError, ReadonlyArray<FeatureChangeEvent>> {
  const { feature } = command;
  const current = featureStatusOf(state, feature);
  const at = now.toISOString();
  const noPending = (): Either<ApiError, ReadonlyArray<FeatureChangeEvent>> =>
    left(conflict(`No change of ${feature} is pending (requestStatus ${current.requestStatus})`));
  switch (command.type) {
    case 'RequestFeatureChange':
      if (pending(current)) {
        return left(
          conflict(
            `A change of ${feature} to ${current.requestTargetStatus ?? '?'} is already in progress (requestStatus ${current.requestStatus})`,
            [{ path: 'body.feature', reason: `a change is already ${current.requestStatus}` }],
          ),
        );
      }
      return right([{ type: 'FeatureChangeRequested', data: { feature, target: targetOf(command.action), at } }]);
    case 'TakeFeatureChange':
      if (current.requestStatus === 'CONFIGURING') return right([]);
      if (current.requestStatus === 'INITIALIZING') return right([{ type: 'FeatureChangeTaken', data: { feature, at } }]);
      return noPending();
    case 'CompleteFeatureChange': {
      const target = current.requestTargetStatus;
      const reported = command.status ?? target;
      if (current.requestStatus === 'IDLE' && current.requestStatusLastUpdated !== null) return right([]);
      // A retried report of the wrong status: it already failed the request.
      if (current.requestStatus === 'ERROR' && reported !== target) return right([]);
      if (!pending(current) || target === null || reported === null) return noPending();
      if (reported !== target) {
        const message = `the reader reported ${feature} ${reported}, not the requested ${target}`;
        return right([{ type: 'FeatureChangeFailed', data: { feature, message, at } }]);
      }
      return right([{ type: 'FeatureChangeCompleted', data: { feature, status: target, at } }]);
    }
    case 'FailFeatureChange': {
      if (current.requestStatus === 'ERROR') return right([]);
      if (!pending(current)) return noPending();
      const message = command.message.trim() === '' ? 'the reader agent reported a failure without detail' : command.message;
      return right([{ type: 'FeatureChangeFailed', data: { feature, message, at } }]);
    }
    default:
      return assertNever(command);
  }
}

/** For `decideOnHistory` and `runCommand`. */
export const featureChanges: Decider<FeatureChangeCommand, FeatureStates, FeatureChangeEvent, ApiError> = {
  initialState: initialFeatureStates,
  evolve: evolveFeatures,
  decide: decideFeatureChange,
};

/** `GET .../featureChanges`: features whose request is active (spec: CONFIGURING or ERROR). */
export function activeFeatureRequests(state: FeatureStates): FeatureStates {
  const active: Partial<Record<FeatureName, FeatureStatus>> = {};
  for (const [name, status] of Object.entries(state) as [FeatureName, FeatureStatus | undefined][]) {
    if (status && (status.requestStatus === 'CONFIGURING' || status.requestStatus === 'ERROR')) active[name] = status;
  }
  return active;
}
