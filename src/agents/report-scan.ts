// A tag report body read in one pass straight into the columns the gateway
// stores (src/agents/report-columns.ts). Parsed the general way, a report of
// 1,000 observations became an object per observation (JSON.parse), a
// normalised copy of each (the body codec) and then columns (the event
// codec), with two ISO strings per observation read twice; that was the
// largest part of the API's work per observation and of its garbage
// (docs/benchmarks.md, "Pipeline").
//
// The scan takes only what it can decide exactly as the general way would:
// the five fields of a report, each once, and per observation the fields of
// the body codec (epc, antennaId, peakRssi, readCount, firstSeen, lastSeen,
// tid, x, y), each once, strings of printable ASCII without escapes, numbers
// in JSON's grammar. Anything else (another field, an escape, a value the
// codecs refuse, malformed JSON) is `undefined`: the body then goes the
// general way (JSON.parse, the shape check, TagReportBody), which accepts
// or answers it with the same 400 as ever. So the scan decides no error of
// its own, and what it returns is what the general way would have stored
// (test/agents/report-scan.unit.spec.ts compares both).
import { IsoTimestamp, NonEmptyString } from '../core/codecs';
import type { ColumnReport } from './gateway';
import { isAntennaId } from './events';
import { isoMsReader } from './iso-time';
import type { ObservationColumns } from './report-columns';
import { UUID_RE } from './codecs';

/** The scan's result, so a handler can tell it from a body parsed the general way. */
export class ScannedReport {
  constructor(readonly report: ColumnReport) {}
}

/** Thrown inside the scan for anything it leaves to the general way; never escapes scanReport. */
class Unscanned {}
const UNSCANNED = new Unscanned();

const SPACE = 0x20;
const TAB = 0x09;
const LF = 0x0a;
const CR = 0x0d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const MINUS = 0x2d;
const DOT = 0x2e;
const DIGIT_0 = 0x30;
const DIGIT_9 = 0x39;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;

/** 10^k, exact for k <= 22: an integer of at most 15 digits over one of these is the correctly rounded value (as JSON.parse's). */
const POW10 = Array.from({ length: 23 }, (_, k) => 10 ** k);
const MAX_FAST_DIGITS = 15;

// Observation fields, one bit each: a repeated field leaves the scan, a missing required one too.
const EPC = 1;
const ANTENNA = 2;
const RSSI = 4;
const READ_COUNT = 8;
const FIRST_SEEN = 16;
const LAST_SEEN = 32;
const TID = 64;
const X = 128;
const Y = 256;
const REQUIRED = EPC | ANTENNA | RSSI | READ_COUNT | FIRST_SEEN | LAST_SEEN;
const FIELD_BITS: Readonly<Record<string, number>> = { epc: EPC, antennaId: ANTENNA, peakRssi: RSSI, readCount: READ_COUNT, firstSeen: FIRST_SEEN, lastSeen: LAST_SEEN, tid: TID, x: X, y: Y };

const isHexCode = (c: number): boolean => (c >= DIGIT_0 && c <= DIGIT_9) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);

/** The report in `text` as columns, or undefined when the general way must read it (see the top of the file). */
export function scanReport(text: string): ScannedReport | undefined {
  try {
    return new ScannedReport(new ReportScan(text).report());
  } catch (err) {
    if (err === UNSCANNED) return undefined;
    throw err;
  }
}

class ReportScan {
  private i = 0;
  private readonly ms = isoMsReader();
  private readonly epc: string[] = [];
  private readonly antennaId: number[] = [];
  private readonly peakRssi: number[] = [];
  private readonly readCount: number[] = [];
  /** Epoch ms until `from` is known (it may come after the observations), then ms after it. */
  private readonly firstSeen: number[] = [];
  private readonly lastSeen: number[] = [];
  private readonly tid: Array<string | null> = [];
  private readonly x: Array<number | null> = [];
  private readonly y: Array<number | null> = [];
  private anyTid = false;
  private anyX = false;
  private anyY = false;

  constructor(private readonly s: string) {}

  report(): ColumnReport {
    let reportId: string | undefined;
    let jobId: string | undefined;
    let from: string | undefined;
    let to: string | undefined;
    let observations = false;
    this.open(OPEN_OBJECT);
    do {
      const key = this.key();
      if (key === 'reportId' && reportId === undefined) reportId = this.text();
      else if (key === 'jobId' && jobId === undefined) jobId = this.text();
      else if (key === 'from' && from === undefined) from = this.text();
      else if (key === 'to' && to === undefined) to = this.text();
      else if (key === 'observations' && !observations) observations = this.observations();
      else throw UNSCANNED;
    } while (this.next(CLOSE_OBJECT));
    this.space();
    if (this.i !== this.s.length) throw UNSCANNED;
    if (reportId === undefined || jobId === undefined || from === undefined || to === undefined || !observations) throw UNSCANNED;
    if (!UUID_RE.test(reportId) || !NonEmptyString.is(jobId) || !IsoTimestamp.is(from) || !IsoTimestamp.is(to)) throw UNSCANNED;
    const base = Date.parse(from);
    if (base > Date.parse(to)) throw UNSCANNED;
    for (let k = 0; k < this.firstSeen.length; k++) {
      this.firstSeen[k] = this.firstSeen[k]! - base;
      this.lastSeen[k] = this.lastSeen[k]! - base;
    }
    return { reportId: reportId.toLowerCase(), jobId, from, to, columns: this.columns() };
  }

  private columns(): ObservationColumns {
    return {
      epc: this.epc,
      antennaId: this.antennaId,
      peakRssi: this.peakRssi,
      readCount: this.readCount,
      firstSeen: this.firstSeen,
      lastSeen: this.lastSeen,
      ...(this.anyTid ? { tid: this.tid } : {}),
      ...(this.anyX ? { x: this.x } : {}),
      ...(this.anyY ? { y: this.y } : {}),
    };
  }

  /** The observations array; true once read. */
  private observations(): boolean {
    this.open(OPEN_ARRAY);
    if (this.closesEmpty(CLOSE_ARRAY)) return true;
    do this.observation();
    while (this.next(CLOSE_ARRAY));
    return true;
  }

  private observation(): void {
    this.open(OPEN_OBJECT);
    let seen = 0;
    let tid: string | null = null;
    let x: number | null = null;
    let y: number | null = null;
    let first = 0;
    let last = 0;
    do {
      const bit = FIELD_BITS[this.key()];
      if (bit === undefined || (seen & bit) !== 0) throw UNSCANNED;
      seen |= bit;
      switch (bit) {
        case EPC:
          this.epc.push(this.hex());
          break;
        case ANTENNA: {
          const a = this.number();
          if (!isAntennaId(a)) throw UNSCANNED;
          this.antennaId.push(a);
          break;
        }
        case RSSI:
          this.peakRssi.push(this.number());
          break;
        case READ_COUNT: {
          const n = this.number();
          if (!Number.isSafeInteger(n) || n < 1) throw UNSCANNED;
          this.readCount.push(n);
          break;
        }
        case FIRST_SEEN:
          first = this.time();
          break;
        case LAST_SEEN:
          last = this.time();
          break;
        case TID:
          tid = this.null() ? null : this.hex();
          break;
        case X:
          x = this.null() ? null : this.number();
          break;
        default:
          y = this.null() ? null : this.number();
      }
    } while (this.next(CLOSE_OBJECT));
    // firstSeen after lastSeen is the body codec's error to name.
    if ((seen & REQUIRED) !== REQUIRED || first > last) throw UNSCANNED;
    this.firstSeen.push(first);
    this.lastSeen.push(last);
    this.tid.push(tid);
    this.x.push(x);
    this.y.push(y);
    this.anyTid ||= tid !== null;
    this.anyX ||= x !== null;
    this.anyY ||= y !== null;
  }

  private space(): void {
    const s = this.s;
    let i = this.i;
    for (let c = s.charCodeAt(i); c === SPACE || c === LF || c === CR || c === TAB; c = s.charCodeAt(++i));
    this.i = i;
  }

  /** `c` (after space) is next: taken. */
  private open(c: number): void {
    this.space();
    if (this.s.charCodeAt(this.i) !== c) throw UNSCANNED;
    this.i++;
  }

  /** An empty container: its closing `c` is next (after space), taken. */
  private closesEmpty(c: number): boolean {
    this.space();
    if (this.s.charCodeAt(this.i) !== c) return false;
    this.i++;
    return true;
  }

  /** After a member: true at a comma (another follows), false at the container's `close`. */
  private next(close: number): boolean {
    this.space();
    const c = this.s.charCodeAt(this.i++);
    if (c === COMMA) return true;
    if (c === close) return false;
    throw UNSCANNED;
  }

  /** A key and its colon. */
  private key(): string {
    const k = this.text();
    this.space();
    if (this.s.charCodeAt(this.i++) !== COLON) throw UNSCANNED;
    return k;
  }

  /** A string of printable ASCII without escapes (anything else is the shape check's to judge). */
  private text(): string {
    this.open(QUOTE);
    const s = this.s;
    const start = this.i;
    let i = start;
    for (let c = s.charCodeAt(i); c !== QUOTE; c = s.charCodeAt(++i)) {
      // NaN past the end fails the test too.
      if (!(c >= SPACE && c < 0x7f) || c === BACKSLASH) throw UNSCANNED;
    }
    this.i = i + 1;
    return s.slice(start, i);
  }

  /** A non-empty hex string, upper-cased (EpcHex's decoding). */
  private hex(): string {
    const v = this.text();
    if (v.length === 0) throw UNSCANNED;
    let lower = false;
    for (let k = 0; k < v.length; k++) {
      const c = v.charCodeAt(k);
      if (!isHexCode(c)) throw UNSCANNED;
      lower ||= c >= 0x61;
    }
    return lower ? v.toUpperCase() : v;
  }

  /** An ISO timestamp IsoTimestamp accepts, as epoch ms. */
  private time(): number {
    const ms = this.ms(this.text());
    if (Number.isNaN(ms)) throw UNSCANNED;
    return ms;
  }

  /** `null` is next (after space): taken. */
  private null(): boolean {
    this.space();
    if (!this.s.startsWith('null', this.i)) return false;
    this.i += 4;
    return true;
  }

  /**
   * A number in JSON's grammar, as JSON.parse reads it: up to 15 digits
   * without exponent are divided out exactly, anything longer is read by
   * Number (the same correctly rounded value); a value too large for a
   * double (Infinity) is the codecs' to refuse.
   */
  private number(): number {
    this.space();
    const s = this.s;
    const start = this.i;
    let i = start;
    const negative = s.charCodeAt(i) === MINUS;
    if (negative) i++;
    let mantissa = 0;
    let digits = 0;
    const intStart = i;
    for (let c = s.charCodeAt(i); c >= DIGIT_0 && c <= DIGIT_9; c = s.charCodeAt(++i)) {
      mantissa = mantissa * 10 + (c - DIGIT_0);
      digits++;
    }
    // JSON: at least one digit, no leading zero before more digits.
    if (i === intStart || (s.charCodeAt(intStart) === DIGIT_0 && i - intStart > 1)) throw UNSCANNED;
    let scale = 0;
    if (s.charCodeAt(i) === DOT) {
      const fracStart = ++i;
      for (let c = s.charCodeAt(i); c >= DIGIT_0 && c <= DIGIT_9; c = s.charCodeAt(++i)) {
        mantissa = mantissa * 10 + (c - DIGIT_0);
        digits++;
      }
      if (i === fracStart) throw UNSCANNED;
      scale = i - fracStart;
    }
    const e = s.charCodeAt(i);
    if (e === 0x65 || e === 0x45 || digits > MAX_FAST_DIGITS) return this.slowNumber(start, i);
    this.i = i;
    const v = scale === 0 ? mantissa : mantissa / POW10[scale]!;
    return negative ? -v : v;
  }

  /** The number from `start` (digits read up to `at`), exponent included, read by Number. */
  private slowNumber(start: number, at: number): number {
    const s = this.s;
    let i = at;
    const e = s.charCodeAt(i);
    if (e === 0x65 || e === 0x45) {
      i++;
      const sign = s.charCodeAt(i);
      if (sign === 0x2b || sign === MINUS) i++;
      const expStart = i;
      for (let c = s.charCodeAt(i); c >= DIGIT_0 && c <= DIGIT_9; c = s.charCodeAt(++i));
      if (i === expStart) throw UNSCANNED;
    }
    this.i = i;
    const v = Number(s.slice(start, i));
    if (!Number.isFinite(v)) throw UNSCANNED;
    return v;
  }
}
