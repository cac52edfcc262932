// The check-in answer as the simulator needs it, decoded loosely with io-ts
// (unknown fields ignored), and the read settings derived from an assignment.
import * as t from 'io-ts';
import type { ReadSettings, SearchMode } from './radio';

const Assignment = t.type({
  jobId: t.string,
  facility: t.union([t.string, t.null, t.undefined]),
  status: t.string,
  acknowledged: t.boolean,
  recipe: t.UnknownRecord,
  readerConfiguration: t.UnknownRecord,
});

export const CheckinAnswer = t.partial({
  checkinIntervalSeconds: t.number,
  assignment: t.union([Assignment, t.null]),
  featureChanges: t.array(t.type({ feature: t.string, target: t.string })),
  commands: t.array(t.intersection([t.type({ id: t.string, type: t.string }), t.partial({ args: t.UnknownRecord })])),
});
export type CheckinAnswer = t.TypeOf<typeof CheckinAnswer>;
export type AssignmentDoc = t.TypeOf<typeof Assignment>;

const SEARCH_MODES: readonly SearchMode[] = ['READER_SELECTED', 'SINGLE_TARGET', 'DUAL_TARGET', 'TAG_FOCUS', 'SINGLE_TARGET_BTOA', 'DUAL_TARGET_WITH_BTOASELECT'];
const numbers = (u: unknown): number[] | null => (Array.isArray(u) ? u.filter((n): n is number => typeof n === 'number') : null);

/** What the reader reads with, or the reason it does not read (DO_NOTHING, THRESHOLD, ...). */
export function readSettingsOf(rc: Record<string, unknown>): ReadSettings | string {
  const rawOperation = rc['operation'];
  // A THRESHOLD configuration reads as an inventory does: every antenna, an observation per tag and antenna.
  const operation = rawOperation === 'THRESHOLD' ? 'INVENTORY' : rawOperation;
  if (operation !== 'INVENTORY' && operation !== 'LOCATION') return `operation ${String(operation)} is not simulated`;
  const c = (typeof rc['configuration'] === 'object' && rc['configuration'] !== null ? rc['configuration'] : {}) as Record<string, unknown>;
  const searchMode = SEARCH_MODES.find((m) => m === c['searchMode']) ?? null;
  return {
    operation,
    readerMode: typeof c['readerMode'] === 'string' ? c['readerMode'] : 'MAX_THROUGHPUT',
    session: typeof c['session'] === 'number' ? c['session'] : 2,
    searchMode,
    polarization: c['polarization'] === true,
    antennas: numbers(c['antennas']),
    disabledAntennas: numbers(c['disabledAntennas']) ?? [],
    transmitPowerInDbm: typeof c['transmitPowerInDbm'] === 'number' ? c['transmitPowerInDbm'] : null,
  };
}
