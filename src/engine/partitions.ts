// Which engine partition owns a facility, and the names of each partition's
// output stream and snapshot directory (docs/scaling.md, "Engine
// partitions"). Pure. One partition (the default) keeps today's names:
// partition 0 writes `itemsChanged-engine-0` and snapshots into the base
// directory, so an installation that never partitions sees no change.

/** Every partition's output stream starts with this: consumers follow them all by this prefix. */
export const ENGINE_STREAM_PREFIX = 'itemsChanged-engine-';

/** The output stream of partition `partition`. */
export function engineStream(partition: number): string {
  return `${ENGINE_STREAM_PREFIX}${partition}`;
}

const ENGINE_STREAM_NAME = /^itemsChanged-engine-(0|[1-9][0-9]*)$/;

/** True for the output stream of any partition. */
export function isEngineStream(streamId: string): boolean {
  return ENGINE_STREAM_NAME.test(streamId);
}

/** Every partition's output stream, in partition order. */
export function engineStreams(partitions: number): string[] {
  return Array.from({ length: partitions }, (_, i) => engineStream(i));
}

/**
 * The partition of a facility: FNV-1a (32 bits) of its name's UTF-8 bytes,
 * mixed by MurmurHash3's finalizer, modulo the partition count. Stable
 * across processes, versions and platforms (no seed, no Node hash), so
 * every process agrees without asking anyone; a facility never changes
 * partition while the count stays. The finalizer matters: FNV-1a's low bits
 * are weak (its lowest bit is the parity of the bytes' lowest bits), and a
 * small count keeps only the low bits.
 */
export function partitionOf(facility: string, partitions: number): number {
  if (partitions <= 1) return 0;
  return mix(fnv1a(facility)) % partitions;
}

/** FNV-1a, 32 bits, of the UTF-8 bytes of `text`. */
export function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (const byte of Buffer.from(text, 'utf8')) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/** MurmurHash3's 32-bit finalizer: every input bit moves every output bit. */
function mix(h: number): number {
  let x = h;
  x ^= x >>> 16;
  x = Math.imul(x, 0x85ebca6b);
  x ^= x >>> 13;
  x = Math.imul(x, 0xc2b2ae35);
  x ^= x >>> 16;
  return x >>> 0;
}

/** Where partition `partition` keeps its snapshots: the base directory for 0 (as before partitions), `<base>-<i>` otherwise. */
export function snapshotDirOf(baseDir: string, partition: number): string {
  return partition === 0 ? baseDir : `${baseDir}-${partition}`;
}
