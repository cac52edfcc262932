// Checks of LMDB's data file made before LMDB maps it. LMDB trusts its file:
// pages past the end of a cut-short file are read through the memory map
// and kill the process with SIGBUS, a damaged meta page can send it through
// a wild pointer. Reading the two meta pages and the file's size ourselves
// turns those into a refusal that says what is wrong.
//
// Layout (liblmdb as built by the lmdb package, 64-bit): each page starts
// with a 24-byte header (pgno u64, txnid u64, pad u16, flags u16, lower u16,
// upper u16); pages 0 and 1 are meta pages (flag P_META), each with magic
// u32, version u32, address u64, mapsize u64, two tree records of 48 bytes
// (pad u32 — the page size, in the first —, flags u16, depth u16, branch,
// leaf and overflow page counts u64, entries u64, root u64), last page u64
// and txnid u64. LMDB uses the meta page with the larger txnid.
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import path from 'node:path';
import { StoreDamaged } from './damage';
import type { StoreMarker } from './marker';

export const DATA_FILE = 'data.mdb';
const PAGE_HEADER = 24;
const P_META = 0x08;
const MAGIC = 0xbeefc0de;
const TREE = 48;
const NO_PAGE = 0xffffffffffffffffn;
/** The smallest page LMDB writes, and so where meta page 1 starts at the earliest. */
const MIN_PAGE = 512;
const MAX_PAGE = 65536;

interface Meta {
  readonly pageSize: number;
  readonly txnid: bigint;
  readonly roots: readonly bigint[];
}

/** What data.mdb holds, as far as the checks go: its size in bytes (0 when there is no file yet). */
export function checkDataFile(dir: string, marker: StoreMarker | undefined): number {
  const file = path.join(dir, DATA_FILE);
  let size: number;
  try {
    size = statSync(file).size;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    if (marker) throw new StoreDamaged(dir, `${DATA_FILE} is missing, but ${dir} held the store ${marker.storeId} (created ${marker.created}, ${marker.dataFileBytes} bytes)`);
    return 0;
  }
  if (marker && size < marker.dataFileBytes) {
    throw new StoreDamaged(dir, `${DATA_FILE} holds ${size} bytes, but it held ${marker.dataFileBytes}: it was cut short (the data file of this store never shrinks)`);
  }
  if (size < 2 * MIN_PAGE) throw new StoreDamaged(dir, `${DATA_FILE} holds ${size} bytes, too few for its two meta pages${size === 0 ? ' (it is empty)' : ''}`);
  const current = currentMeta(dir, file, size);
  for (const root of current.roots) {
    if (root !== NO_PAGE && (root + 1n) * BigInt(current.pageSize) > BigInt(size)) {
      throw new StoreDamaged(dir, `${DATA_FILE} holds ${size} bytes, but its last transaction (${current.txnid}) has a tree root at page ${root}, past the end: it was cut short`);
    }
  }
  return size;
}

/** The meta page LMDB would use, after checking both. */
function currentMeta(dir: string, file: string, size: number): Meta {
  const first = readAt(file, 0, MAX_PAGE + PAGE_HEADER + 256);
  const m0 = parseMeta(first, 0);
  if (typeof m0 === 'string') throw new StoreDamaged(dir, `meta page 0 of ${DATA_FILE} is damaged (${m0})`);
  if (2 * m0.pageSize > size) throw new StoreDamaged(dir, `${DATA_FILE} holds ${size} bytes, less than its two ${m0.pageSize}-byte meta pages`);
  const m1 = parseMeta(first.length >= 2 * m0.pageSize ? first.subarray(m0.pageSize) : readAt(file, m0.pageSize, m0.pageSize), 1);
  if (typeof m1 === 'string') throw new StoreDamaged(dir, `meta page 1 of ${DATA_FILE} is damaged (${m1})`);
  if (m1.pageSize !== m0.pageSize) throw new StoreDamaged(dir, `the meta pages of ${DATA_FILE} disagree on the page size (${m0.pageSize}, ${m1.pageSize})`);
  return m1.txnid > m0.txnid ? m1 : m0;
}

/** Meta page `n` at the start of `page`, or why it is not one. */
function parseMeta(page: Buffer, n: number): Meta | string {
  if (page.length < PAGE_HEADER + 24 + 2 * TREE + 16) return 'the page is cut short';
  if (page.readBigUInt64LE(0) !== BigInt(n)) return `it names itself page ${page.readBigUInt64LE(0)}`;
  if ((page.readUInt16LE(18) & P_META) === 0) return 'it is not marked as a meta page';
  const meta = PAGE_HEADER;
  if (page.readUInt32LE(meta) !== MAGIC) return 'no LMDB signature';
  const trees = meta + 24;
  const pageSize = page.readUInt32LE(trees);
  if (pageSize < MIN_PAGE || pageSize > MAX_PAGE || (pageSize & (pageSize - 1)) !== 0) return `page size ${pageSize}`;
  const roots = [0, 1].map((i) => page.readBigUInt64LE(trees + i * TREE + 40));
  const txnid = page.readBigUInt64LE(trees + 2 * TREE + 8);
  return { pageSize, txnid, roots };
}

function readAt(file: string, offset: number, length: number): Buffer {
  const fd = openSync(file, 'r');
  try {
    const buf = Buffer.alloc(length);
    const n = readSync(fd, buf, 0, length, offset);
    return buf.subarray(0, n);
  } finally {
    closeSync(fd);
  }
}
