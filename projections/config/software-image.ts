// Projects software image registrations (`softwareImage-` streams) into the
// hash `<prefix>v1:config:softwareImage`: `<imageType>:<version>` -> the
// image's JSON (what list/show return).
import type { ConfigProjectionPart } from './part';
import { imageKey, type SoftwareImage, SOFTWARE_IMAGE_STREAM_PREFIX, softwareImageEntry, softwareImageEvents } from '../../src/software';

export const softwareImagePart: ConfigProjectionPart = {
  streamPrefix: SOFTWARE_IMAGE_STREAM_PREFIX,
  codecs: softwareImageEvents,
  apply(tx, event, keys) {
    if (event.type !== 'SoftwareImageRegistered') return;
    const image = event.data as SoftwareImage;
    tx.hSet(keys.config(softwareImageEntry.kind), imageKey(image.versionInfo.versionIdentifier), JSON.stringify(softwareImageEntry.codec.encode(image)));
  },
};
