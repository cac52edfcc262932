// The repair of a damaged log: every record that passes its checksum is
// copied, as it was (position, revision, bytes), into a new store; damaged
// ones are left out and listed. A stream that lost a record keeps a gap at
// that revision (its other events and its last revision are unchanged), so
// clients' expected revisions still hold. The damaged store is only read.
import { CorruptRecord, decodeRecord, type StoredRecord } from './records';
import type { EventLog } from './log';
import type { Finding } from './verify';

export interface RepairProgress {
  readonly read: number;
  readonly total: number;
  readonly copied: number;
  readonly skipped: readonly Finding[];
}

const CHUNK = 10_000;

/** Copies the sound records of `source` into `target` (a new, empty log), calling `progress` after each chunk. */
export async function repairInto(source: EventLog, target: EventLog, progress: (p: RepairProgress) => void): Promise<RepairProgress> {
  if (target.recordCount() !== 0) throw new Error(`${target.dir} is not empty: repair writes into a new store`);
  const total = source.recordCount();
  const skipped: Finding[] = [];
  let read = 0;
  let copied = 0;
  let from = 0;
  for (;;) {
    const sound: Array<{ position: number; raw: Buffer; rec: StoredRecord }> = [];
    let last = -1;
    for (const { key, value } of source.rawRecords(from, 'forwards', CHUNK)) {
      read++;
      last = key;
      try {
        // The raw bytes are copied: LMDB may reuse the buffer it returned at the next read.
        const raw = Buffer.from(value);
        sound.push({ position: key, raw, rec: decodeRecord(BigInt(key), raw) });
      } catch (err) {
        skipped.push({ position: key, reason: err instanceof CorruptRecord ? err.reason : String(err) });
      }
    }
    if (last < 0) break;
    await target.importRecords(sound);
    copied += sound.length;
    progress({ read, total, copied, skipped });
    from = last + 1;
  }
  const done = { read, total, copied, skipped };
  progress(done);
  return done;
}
