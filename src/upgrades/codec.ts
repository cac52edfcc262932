// The upgrade request (spec: Upgrade): `target` (DEVICE reader names or
// FACILITY names), `versionIdentifier`, optional `policy`
// (`maxParallelReaders` default 10, `allowedReaderTypes` default all four
// families). Stored with the policy's defaults filled in, so what a rollout
// did never depends on a default changed later.
import * as t from 'io-ts';
import { NonEmptyString, PositiveInteger } from '../core/codecs';
import { READER_TYPES, ReaderType } from '../readerdefinitions';
import { ImageType, VersionIdentifier } from '../software';

export const UPGRADE_STATUSES = ['WAITING', 'IN_PROGRESS', 'COMPLETED', 'FAILED'] as const;
export const UpgradeStatus = t.keyof({ WAITING: null, IN_PROGRESS: null, COMPLETED: null, FAILED: null });
export type UpgradeStatus = t.TypeOf<typeof UpgradeStatus>;

export const DEFAULT_MAX_PARALLEL_READERS = 10;

const nonEmptyArray = <C extends t.Mixed>(codec: C, name: string) =>
  t.refinement(t.array(codec), (a) => a.length > 0, name) as unknown as t.Type<Array<t.TypeOf<C>>, Array<t.OutputOf<C>>, unknown>;

export const UpgradeTarget = t.type({ type: t.keyof({ DEVICE: null, FACILITY: null }, 'DEVICE | FACILITY'), values: nonEmptyArray(NonEmptyString, 'non-empty array of names') }, 'UpgradeTarget');
export type UpgradeTarget = t.TypeOf<typeof UpgradeTarget>;

export const UpgradePolicyBody = t.partial({ maxParallelReaders: PositiveInteger, allowedReaderTypes: nonEmptyArray(ReaderType, 'non-empty array of reader types') }, 'UpgradePolicy');

export const UpgradeStartBody = t.intersection(
  [t.type({ target: UpgradeTarget, versionIdentifier: VersionIdentifier }), t.partial({ policy: t.union([UpgradePolicyBody, t.null]) })],
  'UpgradeStartBody',
);
export type UpgradeStartBody = t.TypeOf<typeof UpgradeStartBody>;

export const UpgradePolicy = t.type({ maxParallelReaders: PositiveInteger, allowedReaderTypes: t.array(ReaderType) }, 'StoredUpgradePolicy');
export type UpgradePolicy = t.TypeOf<typeof UpgradePolicy>;

/** The request as stored and returned by `show` (policy defaults filled in). */
export const UpgradeRequest = t.type({ target: UpgradeTarget, versionIdentifier: VersionIdentifier, policy: UpgradePolicy }, 'UpgradeRequest');
export type UpgradeRequest = t.TypeOf<typeof UpgradeRequest>;

export function withPolicyDefaults(body: UpgradeStartBody): UpgradeRequest {
  const p = body.policy ?? {};
  return {
    target: { type: body.target.type, values: [...new Set(body.target.values)] },
    versionIdentifier: body.versionIdentifier,
    policy: {
      maxParallelReaders: p.maxParallelReaders ?? DEFAULT_MAX_PARALLEL_READERS,
      allowedReaderTypes: p.allowedReaderTypes ? [...new Set(p.allowedReaderTypes)] : [...READER_TYPES],
    },
  };
}

export const upgradeStartBodySchema = {
  type: 'object',
  required: ['target', 'versionIdentifier'],
  properties: {
    target: {
      type: 'object',
      required: ['type', 'values'],
      properties: { type: { type: 'string', enum: ['DEVICE', 'FACILITY'] }, values: { type: 'array', minItems: 1, items: { type: 'string' } } },
    },
    versionIdentifier: {
      type: 'object',
      required: ['version', 'imageType'],
      properties: { version: { type: 'string' }, imageType: { type: 'string', enum: ['FIRMWARE_READER', 'CAP_SERVICE'] } },
    },
    policy: {
      type: 'object',
      properties: {
        maxParallelReaders: { type: 'integer', minimum: 1, default: DEFAULT_MAX_PARALLEL_READERS },
        allowedReaderTypes: { type: 'array', minItems: 1, items: { type: 'string', enum: [...READER_TYPES] }, default: [...READER_TYPES] },
      },
    },
  },
};

export { ImageType };
