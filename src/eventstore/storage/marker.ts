// store.json beside the LMDB files: the store's identity and the largest
// size its data file has had. LMDB's data file never shrinks, so a smaller
// one was cut short (a copy that stopped, a truncated disk image); and a
// directory with a marker but no data is a store that was lost, not a fresh
// install. Without the marker both would open as something else: a cut file
// makes LMDB read pages past its end (SIGBUS), an empty one starts a new log
// with the factory default admin password.
import * as t from 'io-ts';
import { randomUUID } from 'node:crypto';
import { closeSync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import path from 'node:path';
import { decodeStored } from '../../core/stored-json';

export const MARKER_FILE = 'store.json';

const ClosedAsCodec = t.type({ bytes: t.number, mtimeMs: t.number });
export type ClosedAs = t.TypeOf<typeof ClosedAsCodec>;

const MarkerCodec = t.intersection([
  t.type({
    storeId: t.string,
    created: t.string,
    /** The largest size of data.mdb seen by an owner of this store. */
    dataFileBytes: t.number,
  }),
  t.partial({
    /**
     * The data file as its owner left it at a clean close; absent while an
     * owner has it open (and so after a crash). A file that still matches was
     * not touched since, and needs no structure check at the next open.
     */
    closedAs: ClosedAsCodec,
  }),
]);
export type StoreMarker = t.TypeOf<typeof MarkerCodec>;

/** The marker of `dir`, undefined when there is none; StoredValueError when it is unreadable. */
export function readMarker(dir: string): StoreMarker | undefined {
  let raw: string;
  try {
    raw = readFileSync(path.join(dir, MARKER_FILE), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  return decodeStored(MarkerCodec, raw, `${path.join(dir, MARKER_FILE)}`);
}

export function newMarker(dataFileBytes: number): StoreMarker {
  return { storeId: randomUUID(), created: new Date().toISOString(), dataFileBytes };
}

/** Writes the marker atomically (temporary file, fsync, rename): a crash leaves the old or the new one. */
export function writeMarker(dir: string, marker: StoreMarker): void {
  const file = path.join(dir, MARKER_FILE);
  const temp = `${file}.${process.pid}.tmp`;
  const fd = openSync(temp, 'w', 0o644);
  try {
    writeSync(fd, `${JSON.stringify(marker)}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temp, file);
}
