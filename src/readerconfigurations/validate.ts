// From a request body to the stored reader configuration, or a 400 whose
// errors[] names every bad field (`body.configuration.session`, ...).
//
// Decisions where the published interface is silent (docs in fields.ts and rules.ts too):
// - DO_NOTHING needs only `name` and `operation`. Any configuration given
//   with it is type-checked and then ignored: a disabled reader uses no
//   setting, a client disabling a reader by changing only the operation
//   must not be refused, and the Java client reads DO_NOTHING details as an
//   object without properties (it fails on any field we would return).
// - NORMAL (earlier revision) is stored as NORMAL; it takes the fields the
//   published interface does not reserve for another operation, plus reportConfig.
// - transmitPowerInDbm: 0-33 dBm, what any region permits (rules.ts); the
//   range of the reader model and its region is checked at job start.
// - tagPopulationEstimate: an integer >= 1.
import { left, right, type Either } from 'fp-ts/Either';
import { decodeAndCheck } from '../core/http/decode';
import type { ApiError, FieldError } from '../core/http/errors';
import { ReaderConfigurationBody } from './codec';
import type { ReaderConfigDetails, ReaderConfiguration, ReaderMode, Session } from './model';
import { given, invalid } from '../core/given';
import {
  antennaErrors,
  channelConfigErrors,
  DETAILS_PATH,
  operationFieldErrors,
  powerErrors,
  sessionErrors,
  type GivenDetails,
} from './rules';

const WHAT = 'reader configuration';

/** Memory bank 1 (EPC) from bit 32: bits 0-31 of EPC memory hold the CRC and PC word. */
export const FILTER_DEFAULTS = { memoryBank: 1, pointer: 32 } as const;

export function validateReaderConfiguration(input: unknown): Either<ApiError, ReaderConfiguration> {
  return decodeAndCheck(ReaderConfigurationBody, input, 'body', checkReaderConfiguration, { what: WHAT });
}

function checkReaderConfiguration({ name, operation, configuration }: ReaderConfigurationBody): Either<ApiError, ReaderConfiguration> {
  if (operation === 'DO_NOTHING') return right({ name, operation, configuration: {} });
  if (configuration === undefined || configuration === null) {
    return left(invalid(WHAT, [{ path: DETAILS_PATH, reason: `is required for operation ${operation}` }]));
  }
  const d = given(configuration);
  const errors: FieldError[] = [
    ...operationFieldErrors(operation, d),
    ...sessionErrors(operation, d),
    ...antennaErrors(d),
    ...channelConfigErrors(d),
    ...powerErrors(d),
  ];
  // readerMode and session are required for every active operation, so
  // when either is missing `errors` already says so.
  if (errors.length > 0 || d.readerMode === undefined || d.session === undefined) return left(invalid(WHAT, errors));
  return right({ name, operation, configuration: storedDetails(d, d.readerMode, d.session) });
}

function storedDetails(d: GivenDetails, readerMode: ReaderMode, session: Session): ReaderConfigDetails {
  // Fields of other operations were refused above, so copying what was
  // given is copying what the operation takes.
  const { filter, channelConfig, reportConfig, ...plain } = d;
  return {
    ...plain,
    readerMode,
    session,
    ...(filter === undefined ? {} : { filter: { ...FILTER_DEFAULTS, ...given(filter), tagMask: filter.tagMask } }),
    ...(channelConfig === undefined ? {} : { channelConfig: given(channelConfig) }),
    ...(reportConfig === undefined ? {} : { reportConfig: given(reportConfig) }),
  };
}
