// ISO 8601 durations (`PT5M`, `P1DT2H`, `PT0.5S`) as the interface writes
// them, converted to and from milliseconds.
//
// The accepted grammar is the one of Java's `Duration.parse`, which is what
// existing clients and the original service use: days, hours, minutes and
// seconds, a fraction only on seconds (`.` or `,`), letters in any case.
// On top of it we accept weeks (`P2W`, one week = 7 days) because ISO 8601
// has them. We refuse:
// - years and months: they have no fixed length, so no millisecond value;
// - negative durations: no duration of this interface can be negative;
// - precision finer than a millisecond: a stored value must format back to
//   exactly what it means, and nothing here is timed below a millisecond.
// A day is always 24 hours (no calendar, no daylight saving).
import { left, right, type Either } from 'fp-ts/Either';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const WEEK = 7 * DAY;

const PATTERN = /^P(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)(?:[.,](\d{1,9}))?S)?)?$/;
const EXAMPLES = 'e.g. PT5M, PT1H30M, P1DT2H, PT0.5S';

/** Parses an ISO 8601 duration into milliseconds; Left holds a reason a client can act on. */
export function parseIsoDuration(text: string): Either<string, number> {
  const s = text.trim().toUpperCase();
  if (s.includes('-')) return left(`${JSON.stringify(text)}: a duration must not be negative`);
  const m = PATTERN.exec(s);
  if (m === null) {
    // Distinguish the calendar units, a common and understandable mistake.
    if (/^P(\d+Y|(\d+Y)?\d+M)/.test(s)) {
      return left(`${JSON.stringify(text)}: years and months have no fixed length; use weeks, days or smaller (${EXAMPLES})`);
    }
    return left(`${JSON.stringify(text)} is not an ISO 8601 duration (${EXAMPLES})`);
  }
  const [, weeks, days, hours, minutes, seconds, fraction] = m;
  if ([weeks, days, hours, minutes, seconds].every((g) => g === undefined) || s.endsWith('T')) {
    return left(`${JSON.stringify(text)} is not an ISO 8601 duration (${EXAMPLES})`);
  }
  const nanos = fraction === undefined ? 0 : Number(fraction.padEnd(9, '0'));
  if (nanos % 1_000_000 !== 0) return left(`${JSON.stringify(text)}: precision finer than a millisecond is not supported`);
  const ms =
    num(weeks) * WEEK +
    num(days) * DAY +
    num(hours) * HOUR +
    num(minutes) * MINUTE +
    num(seconds) * SECOND +
    nanos / 1_000_000;
  if (!Number.isSafeInteger(ms)) return left(`${JSON.stringify(text)} is too long`);
  return right(ms);
}

function num(group: string | undefined): number {
  return group === undefined ? 0 : Number(group);
}

/**
 * Canonical form of a number of milliseconds: days, hours, minutes and
 * seconds, largest first, zero parts left out (`PT0S` for zero). Java's
 * `Duration.parse` reads every output, so clients get back what they sent
 * in meaning (`PT60M` comes back as `PT1H`).
 * @throws RangeError for a negative, fractional or unsafe number: a caller bug.
 */
export function formatIsoDuration(ms: number): string {
  if (!Number.isSafeInteger(ms) || ms < 0) throw new RangeError(`not a duration in milliseconds: ${ms}`);
  const days = Math.floor(ms / DAY);
  const hours = Math.floor((ms % DAY) / HOUR);
  const minutes = Math.floor((ms % HOUR) / MINUTE);
  const seconds = Math.floor((ms % MINUTE) / SECOND);
  const millis = ms % SECOND;
  const fraction = millis === 0 ? '' : `.${String(millis).padStart(3, '0').replace(/0+$/, '')}`;
  const time =
    (hours ? `${hours}H` : '') + (minutes ? `${minutes}M` : '') + (seconds || millis ? `${seconds}${fraction}S` : '');
  if (days === 0 && time === '') return 'PT0S';
  return `P${days ? `${days}D` : ''}${time ? `T${time}` : ''}`;
}
