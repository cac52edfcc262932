// Registering a software image (Admin): `POST
// /configuration/v1/softwareVersions/create` with the image's `versionInfo`
// (version identifier, image name, SHA-256 checksum) and a description. The
// image binary itself is not uploaded here: agents are given the checksum in
// their UPGRADE command and verify what they install against it
// (docs/upgrades.md). One stream per image, created with expected revision
// "no stream", so a second registration of a version is a 409 and images are
// immutable (what a rollout installed stays what the registry says).
import { left, right, type Either } from 'fp-ts/Either';
import * as t from 'io-ts';
import { failureReason, NonEmptyString } from '../core/codecs';
import { conflict, type ApiError } from '../core/http/errors';
import { ImageType, type SoftwareImage } from './codec';
import type { SoftwareImageEvent } from './events';

/** Versions appear in paths (`show/{imageType}/{version}`): no spaces or slashes. */
const VERSION = /^[A-Za-z0-9][A-Za-z0-9._+-]*$/;
export const ImageVersion = new t.Type<string, string, unknown>(
  'version',
  (u): u is string => typeof u === 'string' && VERSION.test(u) && u.length <= 64,
  (u, c) =>
    typeof u === 'string' && VERSION.test(u) && u.length <= 64
      ? t.success(u)
      : t.failure(u, c, failureReason('version', 'must be 1-64 characters of letters, digits, ".", "_", "+", "-", starting with a letter or digit', u)),
  t.identity,
);

const SHA256 = /^[0-9a-fA-F]{64}$/;
/** A SHA-256 digest as 64 hex digits, stored lower-case. */
export const Sha256Hex = new t.Type<string, string, unknown>(
  'sha256 hex',
  (u): u is string => typeof u === 'string' && SHA256.test(u),
  (u, c) => (typeof u === 'string' && SHA256.test(u) ? t.success(u.toLowerCase()) : t.failure(u, c, failureReason('sha256 hex', 'must be a SHA-256 digest: 64 hexadecimal digits', u))),
  t.identity,
);

export const RegisterImageBody = t.intersection(
  [
    t.type({
      versionInfo: t.type({
        versionIdentifier: t.type({ version: ImageVersion, imageType: ImageType }),
        imageName: NonEmptyString,
        checksum: Sha256Hex,
      }),
    }),
    t.partial({ description: t.string, updateComment: t.union([t.string, t.null]) }),
  ],
  'RegisterImageBody',
);
export type RegisterImageBody = t.TypeOf<typeof RegisterImageBody>;

export const registerImageBodySchema = {
  type: 'object',
  required: ['versionInfo'],
  properties: {
    versionInfo: {
      type: 'object',
      required: ['versionIdentifier', 'imageName', 'checksum'],
      properties: {
        versionIdentifier: {
          type: 'object',
          required: ['version', 'imageType'],
          properties: { version: { type: 'string', pattern: VERSION.source }, imageType: { type: 'string', enum: ['FIRMWARE_READER', 'CAP_SERVICE'] } },
        },
        imageName: { type: 'string' },
        checksum: { type: 'string', description: 'SHA-256 of the image, 64 hex digits', pattern: SHA256.source },
      },
    },
    description: { type: 'string' },
    updateComment: { type: 'string', nullable: true },
  },
};

/** The stream's state: the image once registered. */
export type ImageState = SoftwareImage | undefined;
export const evolveImage = (_s: ImageState, e: SoftwareImageEvent): ImageState => e.data;

export type RegisterImage = { readonly kind: 'Register'; readonly body: RegisterImageBody };

export function decideImage(cmd: RegisterImage, state: ImageState, now: Date): Either<ApiError, SoftwareImageEvent[]> {
  const v = cmd.body.versionInfo.versionIdentifier;
  if (state !== undefined) {
    return left(conflict(`Software image ${v.imageType} ${v.version} is already registered`, [{ path: 'body.versionInfo.versionIdentifier.version', reason: 'already registered' }]));
  }
  const at = now.toISOString();
  const image: SoftwareImage = {
    versionInfo: { versionIdentifier: { version: v.version, imageType: v.imageType }, imageName: cmd.body.versionInfo.imageName, checksum: cmd.body.versionInfo.checksum },
    description: cmd.body.description ?? '',
    created: at,
    updated: at,
    updateComment: cmd.body.updateComment ?? null,
    recordVersionNumber: 0,
  };
  return right([{ type: 'SoftwareImageRegistered', data: image }]);
}
