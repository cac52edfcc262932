// The reader configuration slice's public API (pure domain code).
export { ReaderConfigurationBody, type ReaderConfigurationBody as ReaderConfigurationBodyType } from './codec';
export { DETAIL_FIELDS, FIELD_USE, fieldsOf, operationsTaking, type DetailField, type FieldUse } from './fields';
export {
  ActiveOperation,
  ActiveReaderConfiguration,
  DisabledReaderConfiguration,
  Operation,
  ReaderConfigDetails,
  ReaderConfiguration,
  ReaderMode,
  SearchMode,
  Session,
} from './model';
export { toResponse, type ReaderConfigurationResponse } from './response';
export { isAntennaId } from './rules';
export { namedBody, type NamedBody } from './named-body';
export { FILTER_DEFAULTS, validateReaderConfiguration } from './validate';
export { readerConfigurationKind, readerConfigurationsOf } from './kind';
export type { ReaderConfigurationRefusals, ReaderConfigurationUse } from './use';
