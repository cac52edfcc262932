// A tag report body, as JSON.parse gave it, turned in one pass into the
// columns the gateway stores (src/agents/report-columns.ts). The general way
// walked a report of 1,000 observations four times: the shape check over
// every value, the body codec making a normalised copy of each observation,
// the cross-field checks, then the event codec making columns, parsing each
// ISO time twice; that was most of the API's work per observation after
// JSON.parse itself (docs/benchmarks.md, "Pipeline").
//
// The quick reading takes only what it can decide exactly as the general way
// would: the five fields of a report and no other, per observation the
// fields of the body codec (epc, antennaId, peakRssi, readCount, firstSeen,
// lastSeen, tid, x, y) and no other, each value one the codecs accept as it
// is. A body with anything else (another field, a `__proto__` key, a value
// a codec refuses or would change, firstSeen after lastSeen) is
// `undefined`: it goes the general way (the shape check, TagReportBody),
// which accepts it or answers it with the same 400 as ever. So no error is
// decided here, and what is returned is what the general way stores
// (test/agents/report-body.unit.spec.ts compares both).
import { IsoTimestamp, NonEmptyString } from '../core/codecs';
import { textProblem } from '../core/text';
import { UUID_RE } from './codecs';
import { isAntennaId } from './events';
import type { ColumnReport } from './gateway';
import { isoMsReader } from './iso-time';
import { requiredColumns, type ObservationColumns } from './report-columns';

/** The quick reading's result, so the handler tells it from a body left to the general way. */
export class QuickReport {
  constructor(readonly report: ColumnReport) {}
}

const HEX = /^[0-9A-Fa-f]+$/;
const REPORT_FIELDS = 5;
/** Fields every observation has; tid, x and y may come on top. */
const REQUIRED_FIELDS = 6;

const isPlainObject = (u: unknown): u is Record<string, unknown> => typeof u === 'object' && u !== null && !Array.isArray(u);
const isFiniteNumber = (u: unknown): u is number => typeof u === 'number' && Number.isFinite(u);
const isHex = (u: unknown): u is string => typeof u === 'string' && HEX.test(u);

/** Own enumerable keys (a JSON object's keys, `__proto__` included), counted without an array of them. */
function keyCount(o: object): number {
  let n = 0;
  for (const _ in o) n++;
  return n;
}

/** The report in `body` as columns, or undefined when the general way must read it (see the top of the file). */
export function quickReport(body: unknown): QuickReport | undefined {
  if (!isPlainObject(body) || keyCount(body) !== REPORT_FIELDS) return undefined;
  const { reportId, jobId, from, to, observations } = body;
  if (typeof reportId !== 'string' || !UUID_RE.test(reportId)) return undefined;
  if (!NonEmptyString.is(jobId) || textProblem(jobId) !== undefined) return undefined;
  if (!IsoTimestamp.is(from) || !IsoTimestamp.is(to) || !Array.isArray(observations)) return undefined;
  const base = Date.parse(from);
  if (base > Date.parse(to)) return undefined;
  const columns = observationColumnsOf(observations, base);
  return columns === undefined ? undefined : new QuickReport({ reportId: reportId.toLowerCase(), jobId, from, to, columns });
}

/** The observations as columns (times in ms after `base`), or undefined at the first one the general way must judge. */
function observationColumnsOf(observations: readonly unknown[], base: number): ObservationColumns | undefined {
  const n = observations.length;
  const ms = isoMsReader();
  const { epc, antennaId, peakRssi, readCount, firstSeen, lastSeen } = requiredColumns(n);
  const tid = new Array<string | null>(n);
  const x = new Array<number | null>(n);
  const y = new Array<number | null>(n);
  let anyTid = false;
  let anyX = false;
  let anyY = false;
  for (let i = 0; i < n; i++) {
    const o = observations[i];
    if (!isPlainObject(o)) return undefined;
    const { epc: e, antennaId: a, peakRssi: p, readCount: r, tid: t, x: ox, y: oy } = o;
    if (!isHex(e) || !isAntennaId(a) || !isFiniteNumber(p)) return undefined;
    if (typeof r !== 'number' || !Number.isSafeInteger(r) || r < 1) return undefined;
    // NaN (not a timestamp) fails the comparison too; firstSeen after lastSeen is the body codec's error to name.
    const first = ms(o['firstSeen']);
    const last = ms(o['lastSeen']);
    if (!(first <= last)) return undefined;
    if (!(t === undefined || t === null || isHex(t))) return undefined;
    if (!(ox === undefined || ox === null || isFiniteNumber(ox)) || !(oy === undefined || oy === null || isFiniteNumber(oy))) return undefined;
    // No field beyond the ones read (which the shape check would otherwise have to see).
    if (keyCount(o) !== REQUIRED_FIELDS + (t === undefined ? 0 : 1) + (ox === undefined ? 0 : 1) + (oy === undefined ? 0 : 1)) return undefined;
    epc[i] = e.toUpperCase();
    antennaId[i] = a;
    peakRssi[i] = p;
    readCount[i] = r;
    firstSeen[i] = first - base;
    lastSeen[i] = last - base;
    tid[i] = typeof t === 'string' ? t.toUpperCase() : null;
    x[i] = ox ?? null;
    y[i] = oy ?? null;
    anyTid ||= typeof t === 'string';
    anyX ||= typeof ox === 'number';
    anyY ||= typeof oy === 'number';
  }
  return { epc, antennaId, peakRssi, readCount, firstSeen, lastSeen, ...(anyTid ? { tid } : {}), ...(anyX ? { x } : {}), ...(anyY ? { y } : {}) };
}
