// GET /data/v1/items/show/transitions: the parameters, decoded as the history
// query's are (unknown parameters refused, every bad one named, markers bound
// to the other parameters).
import * as t from 'io-ts';
import { encodePageMarker } from '../core/paging';
import { EPC_FORMATS, type EpcFormat } from './epc';
import { cursorOf, QueryReader, type RawQuery } from './query';

export const TRANSITIONS_PARAMETERS = [
  'threshold', 'jobId', 'epcPrefix', 'destination', 'fromTime', 'toTime', 'epcFormat', 'pageSize', 'pageMarker', 'alwaysIncludePageMarker',
] as const;

export const DESTINATIONS = ['IN', 'OUT'] as const;

export interface TransitionsQuery {
  /** A threshold id (decimal) or name: matches either. */
  readonly threshold: string | undefined;
  readonly jobId: string | undefined;
  readonly epcPrefix: string | undefined;
  readonly destination: 'IN' | 'OUT' | undefined;
  readonly fromMs: number | undefined;
  readonly toMs: number | undefined;
  readonly epcFormat: EpcFormat | undefined;
  readonly pageSize: number;
  readonly alwaysIncludePageMarker: boolean;
  /** The record id the previous page ended with (exclusive). */
  readonly after: string | undefined;
  marker(id: string | undefined): string;
}

const SCOPE = 'transitions';
const Cursor = t.type({ id: t.union([t.string, t.null]) });

export function parseTransitionsQuery(raw: RawQuery): TransitionsQuery {
  const q = new QueryReader(raw, TRANSITIONS_PARAMETERS);
  const threshold = q.string('threshold');
  const jobId = q.string('jobId');
  const epcPrefix = q.epcPrefix('epcPrefix');
  const destination = q.oneOf('destination', DESTINATIONS);
  const { fromMs, toMs } = q.timeRange();
  const epcFormat = q.oneOf('epcFormat', EPC_FORMATS);
  const pageSize = q.pageSize();
  const alwaysIncludePageMarker = q.boolean('alwaysIncludePageMarker') ?? false;
  q.throwIfFailed();
  const bound = { threshold, jobId, epcPrefix, destination, fromMs, toMs, epcFormat, alwaysIncludePageMarker };
  const after = cursorOf(raw, bound, SCOPE, Cursor)?.id ?? undefined;
  return {
    threshold, jobId, epcPrefix, destination, fromMs, toMs, epcFormat, pageSize, alwaysIncludePageMarker, after,
    marker: (id) => encodePageMarker(bound, { id: id ?? null }, { scope: SCOPE }),
  };
}
