// What src/health offers to other slices and to projections; everything else in
// this folder is its own (docs/architecture.md, "Boundaries").
export { HEALTH_EVENT_TYPES, HealthEventTypeCodec, OTHER_CODES, RESPONSIVENESS_CODES, STATUS_CODES, isStatusCode, type HealthEventType } from './codes';
export { AGENT_STREAM_PREFIX, HEALTH_STREAM_PREFIX, healthEvents, readerOfStream, type HealthStreamEvent } from './events';
export { encodeMarker, isAfter, type HealthEventQuery } from './search';
export { DEFAULT_HEALTH_SETTINGS, notRespondingAfterMs, type HealthSettings } from './settings';
export { evolveHealth, initialHealthState, ReaderHealthState } from './state';
export { searchableView, type HealthEventView, encodeMember } from './searchable';
export { HEALTH_PROJECTION, HEALTH_READ_MODEL, decodeReaderState, healthKeys } from './keys';
export { HealthReadModel } from './readmodel';
