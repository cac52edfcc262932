// Software images (spec: Software image): reader firmware and CAP service
// versions the service can roll out. Registration of images comes later;
// this is the shape, its codecs and the path parameters of list/show.
import * as t from 'io-ts';
import { IsoTimestamp, NonEmptyString, nullable, NonNegativeInteger } from '../readerdefinitions';

export const ImageType = t.keyof({ FIRMWARE_READER: null, CAP_SERVICE: null });
export type ImageType = t.TypeOf<typeof ImageType>;
export const IMAGE_TYPES: readonly ImageType[] = ['FIRMWARE_READER', 'CAP_SERVICE'];

/** Also the `versionIdentifier` of an upgrade request. */
export const VersionIdentifier = t.type({ version: NonEmptyString, imageType: ImageType }, 'VersionIdentifier');
export type VersionIdentifier = t.TypeOf<typeof VersionIdentifier>;

export const VersionInfo = t.type(
  { versionIdentifier: VersionIdentifier, imageName: t.string, checksum: t.string },
  'VersionInfo',
);
export type VersionInfo = t.TypeOf<typeof VersionInfo>;

/** Stored and returned as is. */
export const SoftwareImage = t.type(
  {
    versionInfo: VersionInfo,
    description: t.string,
    created: IsoTimestamp,
    updated: IsoTimestamp,
    updateComment: nullable(t.string),
    /** Starts at 0 and grows by one with each update of the record. */
    recordVersionNumber: NonNegativeInteger,
  },
  'SoftwareImage',
);
export type SoftwareImage = t.TypeOf<typeof SoftwareImage>;

/** `GET /softwareVersions/list/{imageType}` */
export const ListSoftwareParams = t.type({ imageType: ImageType });
/** `GET /softwareVersions/show/{imageType}/{version}` */
export const ShowSoftwareParams = t.type({ imageType: ImageType, version: NonEmptyString });
