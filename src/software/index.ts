// What src/software offers to other slices and to projections; everything else in
// this folder is its own (docs/architecture.md, "Boundaries").
export { imageKey } from './catalog';
export { ImageType, VersionIdentifier, type SoftwareImage } from './codec';
export { SOFTWARE_IMAGE_STREAM_PREFIX, softwareImageEntry, softwareImageEvents } from './events';
