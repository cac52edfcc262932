// What the EPCIS slice offers to others (the EPCIS read model in projections/epcis/).
export { sourcesOf, EpcisSource } from './source';
export { objectEventOf, type ObjectEvent } from './mapping';
export { epcMatches } from './epc-uri';
export type { LocationIds } from './locations';
export type { EpcisQuery } from './query';
export { epcisLocationKind } from './locations';
export { epcisRepositoryKind } from './capture/repository';
export { EPCIS_PROJECTION, EPCIS_READ_MODEL, epcisKeys, epcisSourceId } from './keys';
export { EpcisReadModel } from './readmodel';
