// Reader feature status (spec: Reader feature status): codecs of the
// feature-change request body, the status the service returns, and the
// events of the change lifecycle. Timestamps are ISO strings in the state and
// in events: they are returned as such and need no Date round trip.
import * as t from 'io-ts';
import { defineEvents, type EventOf } from '../core/events';
import { IsoTimestamp, NonEmptyString, nullable } from './primitives';

export const FeatureName = t.keyof({ ANTENNA_HUB: null });
export type FeatureName = t.TypeOf<typeof FeatureName>;
export const FEATURE_NAMES: readonly FeatureName[] = ['ANTENNA_HUB'];

export const FeatureAction = t.keyof({ ENABLE: null, DISABLE: null });
export type FeatureAction = t.TypeOf<typeof FeatureAction>;

export const FeatureStatusValue = t.keyof({ ENABLED: null, DISABLED: null });
export type FeatureStatusValue = t.TypeOf<typeof FeatureStatusValue>;

export const FeatureRequestStatus = t.keyof({ IDLE: null, INITIALIZING: null, CONFIGURING: null, ERROR: null });
export type FeatureRequestStatus = t.TypeOf<typeof FeatureRequestStatus>;

/** `POST /readerDefinitions/{name}/featureChanges` body. */
export const FeatureChangeBody = t.type({ feature: FeatureName, action: FeatureAction }, 'FeatureChange');
export type FeatureChangeBody = t.TypeOf<typeof FeatureChangeBody>;

/** Path parameter of `GET .../featureChanges/{feature}`. */
export const FeatureParams = t.type({ feature: FeatureName });

export const FeatureStatus = t.intersection(
  [
    t.type({
      status: FeatureStatusValue,
      /** null until the reader first reports the feature (the interface types it string; nothing is known before). */
      statusLastUpdated: nullable(IsoTimestamp),
      requestStatus: FeatureRequestStatus,
      requestStatusLastUpdated: nullable(IsoTimestamp),
      requestTargetStatus: nullable(FeatureStatusValue),
    }),
    t.partial({ message: t.string }),
  ],
  'FeatureStatus',
);
export type FeatureStatus = t.TypeOf<typeof FeatureStatus>;

/** Per reader: the features it has a status for. A feature never requested nor reported is absent. */
export type FeatureStates = Readonly<Partial<Record<FeatureName, FeatureStatus>>>;

export const targetOf = (action: FeatureAction): FeatureStatusValue => (action === 'ENABLE' ? 'ENABLED' : 'DISABLED');

/**
 * What a feature looks like before anything happened: disabled (an antenna
 * hub is off until enabled), never reported, no request.
 */
export const NEVER_REQUESTED: FeatureStatus = {
  status: 'DISABLED',
  statusLastUpdated: null,
  requestStatus: 'IDLE',
  requestStatusLastUpdated: null,
  requestTargetStatus: null,
};

export const featureChangeEvents = defineEvents({
  /** A client asked for a change; the agent picks it up at its next check-in. */
  FeatureChangeRequested: t.type({ feature: FeatureName, target: FeatureStatusValue, at: IsoTimestamp }),
  /** The reader's agent took the request and is configuring the reader. */
  FeatureChangeTaken: t.type({ feature: FeatureName, at: IsoTimestamp }),
  /** The agent reported success: the feature now has `status`. */
  FeatureChangeCompleted: t.type({ feature: FeatureName, status: FeatureStatusValue, at: IsoTimestamp }),
  /** The agent reported failure. */
  FeatureChangeFailed: t.type({ feature: FeatureName, message: NonEmptyString, at: IsoTimestamp }),
});
export type FeatureChangeEvent = EventOf<typeof featureChangeEvents>;

export type FeatureChangeCommand =
  | { readonly type: 'RequestFeatureChange'; readonly feature: FeatureName; readonly action: FeatureAction }
  | { readonly type: 'TakeFeatureChange'; readonly feature: FeatureName }
  /**
   * `status`: what the reader now reports. Omitted, the request's target is
   * assumed; a status other than the target makes the request fail.
   */
  | { readonly type: 'CompleteFeatureChange'; readonly feature: FeatureName; readonly status?: FeatureStatusValue }
  | { readonly type: 'FailFeatureChange'; readonly feature: FeatureName; readonly message: string };

/**
 * The `Location` of a feature change's status (the 202 answer), relative to
 * the service's root path, which the router prefixes.
 */
export const featureStatusPath = (readerName: string, feature: FeatureName): string =>
  `/configuration/v1/readerDefinitions/${encodeURIComponent(readerName)}/featureChanges/${feature}`;
