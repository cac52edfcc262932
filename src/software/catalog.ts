// Pure list/show over the known software images.
import { left, right, type Either } from 'fp-ts/Either';
import { notFound, type ApiError } from '../core/http/errors';
import type { ImageType, SoftwareImage, VersionIdentifier } from './codec';

/**
 * Orders versions the way people read them: dotted parts compared as
 * numbers when both are numeric ("5.10.0" after "5.9.2"), as text otherwise;
 * a version that is a prefix of another comes first ("5.1" before "5.1.1").
 * Reader firmware versions are dotted numbers (Octane "8.2.1.240"); no
 * semver pre-release ordering is attempted.
 */
export function compareVersions(a: string, b: string): number {
  const pa = a.split('.');
  const pb = b.split('.');
  for (let i = 0; i < Math.min(pa.length, pb.length); i++) {
    const x = pa[i] ?? '';
    const y = pb[i] ?? '';
    const numeric = /^\d+$/.test(x) && /^\d+$/.test(y);
    const c = numeric ? Number(x) - Number(y) : x < y ? -1 : x > y ? 1 : 0;
    if (c !== 0) return Math.sign(c);
  }
  return Math.sign(pa.length - pb.length) || (a < b ? -1 : a > b ? 1 : 0);
}

/** A stable key of an image, e.g. for a stream name: `FIRMWARE_READER:5.12.0`. */
export const imageKey = (v: VersionIdentifier): string => `${v.imageType}:${v.version}`;

/** `list/{imageType}`: the images of that type, newest version first (what an operator picks from). */
export function listSoftwareImages(images: readonly SoftwareImage[], imageType: ImageType): SoftwareImage[] {
  return images
    .filter((i) => i.versionInfo.versionIdentifier.imageType === imageType)
    .sort((a, b) => compareVersions(b.versionInfo.versionIdentifier.version, a.versionInfo.versionIdentifier.version));
}

/** `show/{imageType}/{version}`: exact version match, 404 otherwise. */
export function showSoftwareImage(
  images: readonly SoftwareImage[],
  imageType: ImageType,
  version: string,
): Either<ApiError, SoftwareImage> {
  const found = images.find(
    (i) => i.versionInfo.versionIdentifier.imageType === imageType && i.versionInfo.versionIdentifier.version === version,
  );
  return found ? right(found) : left(notFound(`Software image ${imageType} ${version} not found`));
}
