// Epoch milliseconds as ISO 8601 UTC text, exactly as Date#toISOString writes
// them, for hot paths: every observation of a tag report (agent API), every
// item change in the items read model and in each AMQP message. toISOString (a
// Date object and its formatting) cost about as much per observation as
// everything else the agent API did with it, and about 0.7 us of the relay's
// few microseconds per message. Times come in runs within a few seconds, so
// the text up to the seconds is remembered for the last few seconds met; a
// second not among them is formatted by arithmetic on its UTC day, whose date
// part is computed once per day.
const DAY_MS = 86_400_000;
// Outside these years toISOString writes six-digit years; leave those to it.
const MIN_MS = Date.parse('0000-01-01T00:00:00.000Z');
const MAX_MS = Date.parse('9999-12-31T23:59:59.999Z');
/** How many seconds are remembered (firstSeen and lastSeen of one observation are often in different seconds). */
const SECONDS = 8;

const two = (n: number): string => (n < 10 ? `0${n}` : `${n}`);
const three = (n: number): string => (n < 10 ? `00${n}` : n < 100 ? `0${n}` : `${n}`);

let cachedDay = Number.NaN;
let cachedDate = '';

/** 'YYYY-MM-DDTHH:MM:SS.' of the epoch second `s`. */
function headOf(s: number): string {
  const ms = s * 1000;
  const day = Math.floor(ms / DAY_MS) * DAY_MS;
  if (day !== cachedDay) {
    cachedDate = new Date(day).toISOString().slice(0, 11); // 'YYYY-MM-DDT'
    cachedDay = day;
  }
  let rest = (ms - day) / 1000;
  const hours = Math.floor(rest / 3600);
  rest -= hours * 3600;
  const minutes = Math.floor(rest / 60);
  return `${cachedDate}${two(hours)}:${two(minutes)}:${two(rest - minutes * 60)}.`;
}

const seconds: number[] = [];
const heads: string[] = [];
let next = 0;

export function isoTime(ms: number): string {
  if (!Number.isInteger(ms) || ms < MIN_MS || ms > MAX_MS) return new Date(ms).toISOString();
  const s = Math.floor(ms / 1000);
  let i = seconds.indexOf(s);
  if (i < 0) {
    i = next;
    seconds[i] = s;
    heads[i] = headOf(s);
    next = (next + 1) % SECONDS;
  }
  return `${heads[i]!}${three(ms - s * 1000)}Z`;
}
