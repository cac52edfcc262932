// Input rules of the three queue configuration calls beyond what the codecs
// check: a health code must be known and belong to the given type. Pure.
import { badRequest, type ApiError } from '../core/http/errors';
import { OTHER_CODES, RESPONSIVENESS_CODES, STATUS_CODES, type HealthEventType } from '../health';
import { DELIVERY_MODES, type DeliveryMode, type HealthQueueFilter } from './model';

/** code -> its event type, for every code a health queue can receive (reported and responsiveness codes). */
const TYPE_OF_CODE: ReadonlyMap<string, HealthEventType> = new Map<string, HealthEventType>([
  ...Object.entries(STATUS_CODES).map(([code, s]) => [code, s.type] as [string, HealthEventType]),
  ...(Object.entries(OTHER_CODES) as [string, HealthEventType][]),
  ...(Object.entries(RESPONSIVENESS_CODES) as [string, HealthEventType][]),
]);

/** The 400 for a health filter naming an unknown code or a code of another type; undefined when fine. */
export function healthFilterError(filter: HealthQueueFilter): ApiError | undefined {
  if (filter.code == null) return undefined;
  const type = TYPE_OF_CODE.get(filter.code);
  if (type === undefined) {
    return badRequest('Invalid request body', [
      { path: 'body.code', reason: `must be one of ${[...TYPE_OF_CODE.keys()].join(', ')}, got ${JSON.stringify(filter.code)}` },
    ]);
  }
  if (filter.type != null && filter.type !== type) {
    return badRequest('Invalid request body', [
      { path: 'body.code', reason: `code ${filter.code} belongs to type ${type}, not ${filter.type}, so the queue would never receive anything` },
    ]);
  }
  return undefined;
}

/** The `deliveryMode` query parameter: PERSISTENT when absent. */
export function parseDeliveryMode(raw: unknown): DeliveryMode | ApiError {
  if (raw === undefined) return 'PERSISTENT';
  if (typeof raw === 'string' && (DELIVERY_MODES as readonly string[]).includes(raw)) return raw as DeliveryMode;
  return badRequest('Invalid request query', [
    { path: 'query.deliveryMode', reason: `must be one of ${DELIVERY_MODES.join(', ')}, got ${JSON.stringify(raw)}` },
  ]);
}
