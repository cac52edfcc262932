// Engine snapshots on the local disk, under DATA_DIR/engine-snapshots. A
// snapshot is a cache of what ENGINE_STREAM already implies: a missing,
// corrupt, version-mismatched or foreign one costs a longer replay, never
// wrong output. The newest and the previous snapshot are kept: a new one is
// written to a temporary file, fsynced, then renamed over the newest (which
// first becomes the previous), so a crash mid-write leaves both intact.
//
// File layout: "TTENGSNP", u32 format version, u32 header length, header
// JSON (SnapshotHeaderCodec), then sections (u32 length + bytes: item chunks,
// job runtimes), then the SHA-256 of everything before it.
import { createHash, randomUUID } from 'node:crypto';
import { mkdir, open, readFile, readdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { decodeStored, StoredValueError } from '../core/stored-json';
import { SnapshotFormatError, SnapshotHeaderCodec, type SnapshotHeader } from './snapshot';

const MAGIC = Buffer.from('TTENGSNP', 'ascii');
/** Bump on any change of the layout or of what a section holds: older files are then ignored. */
export const SNAPSHOT_FORMAT_VERSION = 1;
const DIGEST_BYTES = 32;

export const CURRENT_FILE = 'engine.snapshot';
export const PREVIOUS_FILE = 'engine.snapshot.prev';
const TEMP_FILE = 'engine.snapshot.tmp';

export interface StoredSnapshot {
  readonly file: string;
  readonly header: SnapshotHeader;
  readonly sections: readonly Buffer[];
  readonly bytes: number;
}

export interface WriteOutcome {
  readonly bytes: number;
}

function u32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
}

/** A write never takes this long: an older temporary file was left by a crash. */
const ABANDONED_MS = 60 * 60 * 1000;

async function removeAbandonedTemps(dir: string): Promise<void> {
  for (const name of await readdir(dir)) {
    if (!name.startsWith(`${TEMP_FILE}.`)) continue;
    const file = join(dir, name);
    const info = await stat(file).catch(() => undefined);
    if (info !== undefined && Date.now() - info.mtimeMs > ABANDONED_MS) await rm(file, { force: true });
  }
}

/** Writes a snapshot atomically and keeps the one it replaces as the previous snapshot. */
export async function writeSnapshot(dir: string, header: SnapshotHeader, sections: AsyncIterable<Buffer>): Promise<WriteOutcome> {
  await mkdir(dir, { recursive: true });
  await removeAbandonedTemps(dir);
  // A file of its own per write: a second (fenced) instance on the same directory never writes into this one.
  const temp = join(dir, `${TEMP_FILE}.${process.pid}.${randomUUID()}`);
  const file = await open(temp, 'w');
  const hash = createHash('sha256');
  let bytes = 0;
  const put = async (b: Buffer): Promise<void> => {
    hash.update(b);
    bytes += b.length;
    await file.write(b);
  };
  try {
    const head = Buffer.from(JSON.stringify(SnapshotHeaderCodec.encode(header)), 'utf8');
    await put(Buffer.concat([MAGIC, u32(SNAPSHOT_FORMAT_VERSION), u32(head.length), head]));
    for await (const section of sections) await put(Buffer.concat([u32(section.length), section]));
    const digest = hash.digest();
    await file.write(digest);
    bytes += digest.length;
    await file.sync();
  } catch (err) {
    await file.close();
    await rm(temp, { force: true });
    throw err;
  }
  await file.close();
  await rename(join(dir, CURRENT_FILE), join(dir, PREVIOUS_FILE)).catch((err: NodeJS.ErrnoException) => {
    if (err.code !== 'ENOENT') throw err;
  });
  await rename(temp, join(dir, CURRENT_FILE));
  // The renames are durable only once the directory is.
  const d = await open(dir, 'r');
  try {
    await d.sync();
  } finally {
    await d.close();
  }
  return { bytes };
}

/** Parses one snapshot file; throws SnapshotFormatError when it is not a complete snapshot of this format. */
export function parseSnapshot(file: string, data: Buffer): StoredSnapshot {
  if (data.length < MAGIC.length + 8 + DIGEST_BYTES || !data.subarray(0, MAGIC.length).equals(MAGIC)) {
    throw new SnapshotFormatError('not an engine snapshot');
  }
  const version = data.readUInt32BE(MAGIC.length);
  if (version !== SNAPSHOT_FORMAT_VERSION) throw new SnapshotFormatError(`format version ${version}, this engine reads ${SNAPSHOT_FORMAT_VERSION}`);
  const body = data.subarray(0, data.length - DIGEST_BYTES);
  if (!createHash('sha256').update(body).digest().equals(data.subarray(data.length - DIGEST_BYTES))) {
    throw new SnapshotFormatError('checksum mismatch (incomplete or damaged file)');
  }
  let at = MAGIC.length + 4;
  const take = (): Buffer => {
    if (at + 4 > body.length) throw new SnapshotFormatError('truncated section');
    const n = body.readUInt32BE(at);
    const part = body.subarray(at + 4, at + 4 + n);
    if (part.length !== n) throw new SnapshotFormatError('truncated section');
    at += 4 + n;
    return part;
  };
  const headerJson = take().toString('utf8');
  let header: SnapshotHeader;
  try {
    header = decodeStored(SnapshotHeaderCodec, headerJson, 'the header');
  } catch (err) {
    throw err instanceof StoredValueError ? new SnapshotFormatError(err.message) : err;
  }
  const sections: Buffer[] = [];
  while (at < body.length) sections.push(take());
  return { file, header, sections, bytes: data.length };
}

export type SnapshotCandidate = { readonly ok: true; readonly snapshot: StoredSnapshot } | { readonly ok: false; readonly file: string; readonly reason: string };

/** The stored snapshots, newest first; a file that is missing is left out, one that does not parse is reported. */
export async function readSnapshots(dir: string): Promise<SnapshotCandidate[]> {
  const out: SnapshotCandidate[] = [];
  for (const name of [CURRENT_FILE, PREVIOUS_FILE]) {
    const file = join(dir, name);
    let data: Buffer;
    try {
      data = await readFile(file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue;
      out.push({ ok: false, file, reason: `unreadable: ${String(err)}` });
      continue;
    }
    try {
      out.push({ ok: true, snapshot: parseSnapshot(file, data) });
    } catch (err) {
      out.push({ ok: false, file, reason: err instanceof Error ? err.message : String(err) });
    }
  }
  return out;
}
