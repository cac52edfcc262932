// Free space where the service keeps its files (DATA_DIR: the embedded event
// store, the retained log, engine snapshots, the reader secret key), and the
// one test of "this failed because the disk is full" every part uses.
import { statfsSync } from 'node:fs';
import { constants } from 'node:os';
import path from 'node:path';

const { ENOSPC, EDQUOT, EIO } = constants.errno;
/** LMDB's "environment mapsize limit reached": the store could not grow its file. */
const MDB_MAP_FULL = -30792;
// A platform without one of the errnos leaves it undefined, which must not match an error without a code.
const FULL_CODES = new Set<unknown>(['ENOSPC', 'EDQUOT', ENOSPC, EDQUOT, MDB_MAP_FULL].filter((c) => c !== undefined));

/** Free space under which a filesystem counts as full: what is left is less than one of LMDB's larger writes. */
const NEARLY_FULL_BYTES = 1024 * 1024;

const codeOf = (err: unknown): unknown => (typeof err === 'object' && err !== null ? (err as { code?: unknown }).code : undefined);

/**
 * Whether a failure means there is no room left to write: no space left on
 * the device (errno or Node's code), a disk quota reached, or LMDB unable to
 * grow its map. lmdb reports the errno as a number, Node's fs as a string.
 * Given the directory written to, an I/O error while its filesystem is all
 * but full counts too: LMDB reports a write the disk took only part of
 * ("short write, filesystem full?") as EIO.
 */
export function isNoSpace(err: unknown, dir?: string): boolean {
  const code = codeOf(err);
  if (FULL_CODES.has(code)) return true;
  if (dir === undefined || (code !== EIO && code !== 'EIO')) return false;
  try {
    return freeBytes(dir) < NEARLY_FULL_BYTES;
  } catch {
    return false;
  }
}

/** The directory itself, or the nearest ancestor that exists (the one it will be created in). */
function existingAncestor(dir: string): string {
  let at = path.resolve(dir);
  for (;;) {
    try {
      statfsSync(at);
      return at;
    } catch (err) {
      const parent = path.dirname(at);
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT' || parent === at) throw err;
      at = parent;
    }
  }
}

/** Bytes an unprivileged writer may still use on the filesystem holding `dir` (created later if missing). */
export function freeBytes(dir: string): number {
  const s = statfsSync(existingAncestor(dir));
  return s.bavail * s.bsize;
}

export interface SpaceShortfall {
  readonly dataDir: string;
  readonly freeBytes: number;
  readonly neededBytes: number;
}

/** The shortfall when `dir` has less than `neededBytes` free, else undefined (0 needed: never checked). */
export function spaceShortfall(dir: string, neededBytes: number): SpaceShortfall | undefined {
  if (neededBytes <= 0) return undefined;
  const free = freeBytes(dir);
  return free < neededBytes ? { dataDir: path.resolve(dir), freeBytes: free, neededBytes } : undefined;
}

/**
 * A failure of start-up in plain words when the disk is full (a bare
 * "ENOSPC: no space left on device, mkdir ..." names neither the setting
 * nor the remedy); any other failure unchanged.
 */
export function explainNoSpace(err: unknown, dataDir: string): unknown {
  if (!isNoSpace(err)) return err;
  const detail = err instanceof Error ? err.message : String(err);
  return new Error(
    `The data directory ${path.resolve(dataDir)} has no space left on its disk (${detail}). Free space on that filesystem, or set DATA_DIR to a directory with room`,
    { cause: err },
  );
}
