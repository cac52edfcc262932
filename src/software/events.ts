// Software image registrations as events: stream
// `softwareImage-<imageType>:<version>` (one per image), event
// `SoftwareImageRegistered` whose data is the image as stored and returned.
// The upgrades slice appends them when it registers images; until then the
// catalog is empty. Projected by projections/config/software-image.ts into
// the hash `config:softwareImage` (`<imageType>:<version>` -> image JSON).
import type { ResourceKind } from '../core/resource/kind';
import { defineEvents, type EventOf } from '../core/events';
import { imageKey } from './catalog';
import { SoftwareImage, type VersionIdentifier } from './codec';

export const SOFTWARE_IMAGE_STREAM_PREFIX = 'softwareImage-';
export const softwareImageStream = (v: VersionIdentifier): string => `${SOFTWARE_IMAGE_STREAM_PREFIX}${imageKey(v)}`;

export const softwareImageEvents = defineEvents({ SoftwareImageRegistered: SoftwareImage });
export type SoftwareImageEvent = EventOf<typeof softwareImageEvents>;

/**
 * The image hash seen as a read-model "kind" (key and codec only): images
 * are registered by events of their own, not created/replaced/deleted.
 */
export const softwareImageEntry: ResourceKind<SoftwareImage> = { kind: 'softwareImage', label: 'SoftwareImage', codec: SoftwareImage };
