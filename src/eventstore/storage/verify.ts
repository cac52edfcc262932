// Reading the log back through its checksums. At every open the first and
// last records are checked (a cut or overwritten end is where damage shows
// first: the last writes, a copy that stopped); `npm run verify-store`
// checks every record, and that the index and the records agree.
import { CorruptRecord, decodeRecord, TOMBSTONE_REVISION } from './records';

/** What verification reads of a log (EventLog has it; named here so the log can call its own check at open). */
export interface VerifiableLog {
  rawRecords(from: number, direction: 'forwards' | 'backwards', limit?: number): Iterable<{ key: number; value: Buffer }>;
  indexedPosition(stream: string, revision: number): number | undefined;
  recordCount(): number;
}

/** Records checked at each end of the log when a store opens. */
export const ENDS_CHECKED = 1000;

/** A record that does not hold, and why. */
export interface Finding {
  readonly position: number;
  readonly reason: string;
}

/** Checks one record: its checksum, and that the index finds it where it is. */
export function checkRecord(log: VerifiableLog, position: number, raw: Buffer): Finding | undefined {
  let rec;
  try {
    rec = decodeRecord(BigInt(position), raw);
  } catch (err) {
    return { position, reason: err instanceof CorruptRecord ? err.reason : String(err) };
  }
  if (rec.revision === TOMBSTONE_REVISION) return undefined;
  const indexed = log.indexedPosition(rec.stream, Number(rec.revision));
  if (indexed !== position) {
    const where = indexed === undefined ? 'has no entry' : `points at position ${indexed}`;
    return { position, reason: `the index of ${rec.stream}@${rec.revision} ${where}` };
  }
  return undefined;
}

/** Checks the first and last `n` records; throws CorruptRecord for the first that does not hold. */
export function verifyEnds(log: VerifiableLog, n = ENDS_CHECKED): void {
  const ends = [log.rawRecords(0, 'forwards', n), log.rawRecords(Number.MAX_SAFE_INTEGER, 'backwards', n)];
  for (const end of ends) {
    for (const { key, value } of end) {
      const finding = checkRecord(log, key, value);
      if (finding) throw new CorruptRecord(BigInt(finding.position), finding.reason);
    }
  }
}

export interface VerifyProgress {
  readonly checked: number;
  readonly total: number;
  readonly findings: readonly Finding[];
  /** The position checked last (0 before the first). */
  readonly last: number;
}

/**
 * Checks every record, in position order, calling `progress` every
 * `everyRecords` records and at the end. Yields to the event loop between
 * chunks, so a caller can log and be stopped.
 */
export async function verifyAll(log: VerifiableLog, progress: (p: VerifyProgress) => void, everyRecords = 50_000): Promise<VerifyProgress> {
  const total = log.recordCount();
  const findings: Finding[] = [];
  let checked = 0;
  let from = 0;
  for (;;) {
    let last = -1;
    for (const { key, value } of log.rawRecords(from, 'forwards', everyRecords)) {
      const finding = checkRecord(log, key, value);
      if (finding) findings.push(finding);
      checked++;
      last = key;
    }
    if (last < 0) break;
    progress({ checked, total, findings, last });
    from = last + 1;
    await new Promise((r) => setImmediate(r));
  }
  const done = { checked, total, findings, last: from - 1 };
  progress(done);
  return done;
}
