// The EPCIS 2.0 JSON-LD documents tagtrail produces: an EPCISQueryDocument
// answers the query interface, an EPCISDocument is what capture pushes.
import type { ObjectEvent } from './mapping';

export const EPCIS_CONTEXT = 'https://ref.gs1.org/standards/epcis/epcis-context.jsonld';
/** Sent as GS1-EPCIS-Version / GS1-CBV-Version on query answers and capture requests. */
export const EPCIS_VERSION = '2.0.0';
export const CBV_VERSION = '2.0.0';

export function epcisDocument(events: readonly ObjectEvent[], now: Date): Record<string, unknown> {
  return {
    '@context': [EPCIS_CONTEXT],
    type: 'EPCISDocument',
    schemaVersion: '2.0',
    creationDate: now.toISOString(),
    epcisBody: { eventList: events },
  };
}

export function epcisQueryDocument(events: readonly ObjectEvent[], now: Date): Record<string, unknown> {
  return {
    '@context': [EPCIS_CONTEXT],
    type: 'EPCISQueryDocument',
    schemaVersion: '2.0',
    creationDate: now.toISOString(),
    epcisBody: { queryResults: { queryName: 'SimpleEventQuery', resultsBody: { eventList: events } } },
  };
}
