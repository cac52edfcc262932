// The durable event log of the embedded event store, on LMDB.
//
// Three databases in one LMDB environment:
//   log      position -> record (header + protobuf RecordedEvent)
//   streams  stream name -> StreamState
//   index    [stream, revision] -> position
// Appends are validated synchronously against in-memory stream state (JS runs
// one append at a time, so checks and revision assignment cannot race), then
// committed in LMDB's batched write transactions. An append is acknowledged
// only once its transaction is flushed to disk, so an acknowledged append
// survives kill -9 (and power loss, as far as the disk honours fsync).
//
// The in-memory stream state runs ahead of the disk while a write is in
// flight (the next append must see the revision just assigned). A write that
// fails to commit is rolled back: its puts run in a child transaction, so a
// failing put leaves nothing behind; each write checks inside its transaction
// that the disk holds the stream state it was decided on, so writes decided on
// top of a failed one fail too instead of leaving a gap; and once the last
// write of a touched stream has settled, its cached state is dropped and read
// again from disk (and the next position from the log's last key).
//
// Integrity (./datafile.ts, ./marker.ts, ./verify.ts): before LMDB maps the
// data file its meta pages and size are checked, after it the first and last
// records are read back through their checksums; a damaged store throws
// StoreDamaged instead of opening. Every record read later is checked too.
import { open, type Database, type RootDatabase } from 'lmdb';
import { mkdirSync } from 'node:fs';
import { CorruptRecord, decodeHeader, decodeRecord, encodeRecord, RecordClock, TOMBSTONE_REVISION, type StoredRecord } from './records';
import { checkDataFile, DATA_FILE } from './datafile';
import { StoreDamaged } from './damage';
import { newMarker, readMarker, writeMarker, type StoreMarker } from './marker';
import { verifyEnds } from './verify';
import { checkStructure, dataFileNow, needsStructureCheck } from './structure';
import { Expected, InvalidArgument, MaxAppendSizeExceeded, StreamDeleted, WrongExpectedVersion } from './errors';
import { applyMetadata, EMPTY_STREAM, exists, type StreamState } from './streamstate';
import { HeadWatcher } from './head';
import { commitDurably, settleWrites } from './commit';

export interface ProposedEvent {
  id: string;
  type: string;
  contentType: string;
  data: Uint8Array;
  metadata: Uint8Array;
}

export interface WriteResult {
  /** revision of the last event written (or already present, for a retry) */
  revision: bigint;
  position: bigint;
}

export { TOMBSTONE_REVISION } from './records';
const METASTREAM_PREFIX = '$$';

export interface EventLogOptions {
  maxAppendSize: number;
  /** The time events are recorded at (epoch ms); the system clock unless a test moves time on. */
  now?: () => number;
  /** Open for reading only (verification and backups beside a running owner): nothing is created or written. */
  readOnly?: boolean;
  /** Skip the check of the first and last records at open: only repair, which reads a damaged log record by record. */
  skipEndsCheck?: boolean;
  /** Skip the structure check in a child process (./structure.ts): only that child itself. */
  skipStructureCheck?: boolean;
  /** Told once per position of each damaged record a read meets (the read then fails with CorruptRecord). */
  onCorrupt?: (err: CorruptRecord) => void;
}

/** How often the owner records the data file's size in the marker (it never shrinks; see ./marker.ts). */
const MARKER_REFRESH_MS = 30_000;

export class EventLog {
  private readonly root: RootDatabase;
  private readonly log: Database<Buffer, number>;
  private readonly streams: Database<StreamState, string>;
  private readonly index: Database<number, [string, number]>;
  private readonly cache = new Map<string, StreamState>();
  /** Writes not yet settled, per stream they change. */
  private readonly inFlight = new Map<string, number>();
  /** Settles with the latest write of each stream in flight. */
  private readonly lastWrite = new Map<string, Promise<void>>();
  /** Per stream, the writes in flight by the id of their first event: a retry of one waits for it (findRetry). */
  private readonly writingIds = new Map<string, Map<string, Promise<unknown>>>();
  /** Streams whose cached state a failed write left ahead of the disk. */
  private readonly stale = new Set<string>();
  private writesInFlight = 0;
  private positionStale = false;
  private nextPosition: number;
  readonly head: HeadWatcher;
  /** When records are created, and the maxAge cut-off of reads. */
  readonly clock: RecordClock;

  private marker: StoreMarker | undefined;
  private readonly markerTimer: NodeJS.Timeout | undefined;
  private readonly reportedCorrupt = new Set<bigint>();

  /** Opens the store in `dir`; StoreDamaged when its files are damaged (see the top of the file). */
  constructor(
    readonly dir: string,
    readonly options: EventLogOptions,
  ) {
    const readOnly = options.readOnly === true;
    if (!readOnly) mkdirSync(dir, { recursive: true });
    const marker = readMarker(dir);
    const bytes = checkDataFile(dir, marker);
    if (options.skipStructureCheck !== true && needsStructureCheck(dir, marker)) checkStructure(dir);
    this.root = openEnvironment(dir, readOnly);
    this.log = this.root.openDB<Buffer, number>('log', { encoding: 'binary' });
    this.streams = this.root.openDB<StreamState, string>('streams', { encoding: 'msgpack' });
    this.index = this.root.openDB<number, [string, number]>('index', { encoding: 'msgpack' });
    try {
      if (options.skipEndsCheck !== true) verifyEnds(this);
    } catch (err) {
      void this.root.close();
      throw err instanceof CorruptRecord ? new StoreDamaged(dir, err.message) : err;
    }
    const last = this.lastPositionOnDisk();
    this.nextPosition = last + 1;
    this.head = new HeadWatcher(BigInt(last));
    this.clock = new RecordClock(options.now);
    if (!readOnly) {
      // Written at once without closedAs: until a clean close, a crash leaves the next open to check the structure.
      this.marker = marker ? { storeId: marker.storeId, created: marker.created, dataFileBytes: marker.dataFileBytes } : newMarker(bytes);
      this.refreshMarker();
      this.markerTimer = setInterval(() => this.refreshMarker(), MARKER_REFRESH_MS).unref();
    }
  }

  /** Records the data file's size in the marker when it grew (never shrinks it). */
  private refreshMarker(): void {
    const bytes = dataFileNow(this.dir)?.bytes;
    if (!this.marker || bytes === undefined) return;
    if (this.markerWritten && bytes <= this.marker.dataFileBytes) return;
    this.marker = { ...this.marker, dataFileBytes: Math.max(bytes, this.marker.dataFileBytes) };
    try {
      writeMarker(this.dir, this.marker);
      this.markerWritten = true;
    } catch {
      // A full disk: the previous marker stays, which only makes the check weaker. The next refresh tries again.
    }
  }

  private markerWritten = false;

  /** Raw records of the log from `from` (inclusive), forwards or backwards, for verification. */
  rawRecords(from: number, direction: 'forwards' | 'backwards', limit?: number): Iterable<{ key: number; value: Buffer }> {
    this.assertOpen();
    return direction === 'forwards'
      ? this.log.getRange({ start: from, ...(limit === undefined ? {} : { limit }) })
      : this.log.getRange({ start: from, end: 0, reverse: true, ...(limit === undefined ? {} : { limit }) });
  }

  /** The position the index holds for a stream's revision. */
  indexedPosition(stream: string, revision: number): number | undefined {
    return this.index.get([stream, revision]);
  }

  /**
   * Repair only (./repair.ts): writes sound records of another log as they
   * were (positions, revisions, bytes) into this one, which must hold
   * nothing at or after their positions, and folds the streams' states and
   * index as appends would have.
   */
  async importRecords(records: ReadonlyArray<{ position: number; raw: Buffer; rec: StoredRecord }>): Promise<void> {
    if (records.length === 0) return;
    const touched = new Map<string, StreamState>();
    const stateOf = (stream: string): StreamState => touched.get(stream) ?? this.state(stream);
    await commitDurably(this.root, this.dir, () => {
      for (const { position, raw, rec } of records) {
        void this.log.put(position, raw);
        const s = stateOf(rec.stream);
        if (rec.revision === TOMBSTONE_REVISION) {
          touched.set(rec.stream, { ...s, tombstoned: true });
          continue;
        }
        void this.index.put([rec.stream, Number(rec.revision)], position);
        touched.set(rec.stream, { ...s, last: Math.max(s.last, Number(rec.revision)) });
        if (rec.stream.startsWith(METASTREAM_PREFIX) && rec.type === '$metadata') {
          const target = rec.stream.slice(METASTREAM_PREFIX.length);
          touched.set(target, applyMetadata(stateOf(target), parseJsonOrEmpty(extractData(rec.proto))));
        }
      }
      for (const [stream, state] of touched) void this.streams.put(stream, state);
    });
    for (const [stream, state] of touched) this.cache.set(stream, state);
    const last = records[records.length - 1]?.position ?? 0;
    this.nextPosition = Math.max(this.nextPosition, last + 1);
    this.head.advance(BigInt(last));
  }

  /** A consistent copy of the store's data file into `dir` (LMDB's copy, from one read transaction), while appends go on. */
  async backup(dir: string): Promise<void> {
    this.assertOpen();
    await this.root.backup(dir, false);
  }

  /** How many records the log holds. */
  recordCount(): number {
    return this.log.getCount();
  }

  /**
   * Adds the record to a read's chunk; false at a damaged one when the chunk
   * already holds records: they are answered first, and the next read, which
   * starts at the damaged record, fails with CorruptRecord.
   */
  private pushSound(out: StoredRecord[], position: number, raw: Buffer): boolean {
    try {
      out.push(this.decode(position, raw));
      return true;
    } catch (err) {
      if (err instanceof CorruptRecord && out.length > 0) return false;
      throw err;
    }
  }

  /** A record read from disk, checked; CorruptRecord (reported once per position) when its bytes are damaged. */
  private decode(position: number, raw: Buffer): StoredRecord {
    try {
      return decodeRecord(BigInt(position), raw);
    } catch (err) {
      if (err instanceof CorruptRecord && !this.reportedCorrupt.has(err.position)) {
        this.reportedCorrupt.add(err.position);
        this.options.onCorrupt?.(err);
      }
      throw err;
    }
  }

  private lastPositionOnDisk(): number {
    let last = 0;
    for (const key of this.log.getKeys({ reverse: true, limit: 1 })) last = key;
    return last;
  }

  state(stream: string): StreamState {
    this.assertOpen();
    let s = this.cache.get(stream);
    if (s === undefined) {
      s = this.streams.get(stream) ?? EMPTY_STREAM;
      this.cache.set(stream, s);
    }
    return s;
  }

  async append(stream: string, expected: Expected, events: ProposedEvent[]): Promise<WriteResult> {
    if (stream.length === 0) throw new InvalidArgument('stream name must not be empty');
    const size = events.reduce((n, e) => n + e.data.length + e.metadata.length, 0);
    if (size > this.options.maxAppendSize) throw new MaxAppendSizeExceeded(this.options.maxAppendSize);
    const s = this.state(stream);
    if (s.tombstoned) throw new StreamDeleted(stream);
    const first = this.writingIds.get(stream)?.get(events[0]?.id ?? '');
    if (first !== undefined) {
      // The same events again while their first append is still being written (a client that
      // gave up on an answer and retried at once): they are not on disk yet, so findRetry would
      // miss them. Decided again once that write has settled: the original result, or a write
      // if it failed.
      await first.catch(() => undefined);
      return this.append(stream, expected, events);
    }
    const retry = this.findRetry(stream, s, expected, events);
    if (retry) return retry;
    const refusal = this.refused(stream, s, expected);
    if (refusal) return refusal;
    if (events.length === 0) {
      const lastPos = s.last >= 0 ? this.index.get([stream, s.last]) ?? 0 : 0;
      return { revision: s.last >= 0 ? BigInt(s.last) : -1n, position: BigInt(lastPos) };
    }
    return this.tracked(stream, events[0]?.id ?? '', this.write(stream, s, events, false));
  }

  /** Keeps `writing` findable by its first event id until it settles. */
  private tracked(stream: string, id: string, writing: Promise<WriteResult>): Promise<WriteResult> {
    let ids = this.writingIds.get(stream);
    if (ids === undefined) this.writingIds.set(stream, (ids = new Map()));
    ids.set(id, writing);
    const forget = (): void => {
      if (ids.get(id) === writing) ids.delete(id);
      if (ids.size === 0 && this.writingIds.get(stream) === ids) this.writingIds.delete(stream);
    };
    writing.then(forget, forget);
    return writing;
  }

  /**
   * The expected revision against the stream state, in-flight writes
   * included: undefined when it holds, else the refusal. A refusal caused by
   * a write still in flight is answered once that write has settled: the
   * client re-reads the stream on the refusal and must see the write it lost
   * to, or it decides on the same state and loses again (two processes
   * creating the same first document at once did).
   */
  private refused(stream: string, s: StreamState, expected: Expected): Promise<never> | undefined {
    // Synchronous when the check passes: the write must follow in the same turn (see the top of the file).
    try {
      checkExpected(stream, s, expected);
      return undefined;
    } catch (err) {
      return (async () => {
        while ((this.inFlight.get(stream) ?? 0) > 0) await this.lastWrite.get(stream);
        throw err;
      })();
    }
  }

  /** Soft delete: hides the events (truncate-before in the metastream); the stream may be appended to again. */
  async delete(stream: string, expected: Expected): Promise<WriteResult> {
    const s = this.state(stream);
    if (s.tombstoned) throw new StreamDeleted(stream);
    const refusal = this.refused(stream, s, expected);
    if (refusal) return refusal;
    const meta = this.currentMetadata(stream);
    meta['$tb'] = s.last + 1;
    const data = Buffer.from(JSON.stringify(meta), 'utf8');
    return this.write(
      METASTREAM_PREFIX + stream,
      this.state(METASTREAM_PREFIX + stream),
      [{ id: crypto.randomUUID(), type: '$metadata', contentType: 'application/json', data, metadata: new Uint8Array() }],
      false,
    );
  }

  /** Hard delete: the stream name can never be used again. */
  async tombstone(stream: string, expected: Expected): Promise<WriteResult> {
    const s = this.state(stream);
    if (s.tombstoned) throw new StreamDeleted(stream);
    const refusal = this.refused(stream, s, expected);
    if (refusal) return refusal;
    const ev: ProposedEvent = {
      id: crypto.randomUUID(),
      type: '$streamDeleted',
      contentType: 'application/octet-stream',
      data: new Uint8Array(),
      metadata: new Uint8Array(),
    };
    return this.write(stream, s, [ev], true);
  }

  private currentMetadata(stream: string): Record<string, unknown> {
    const ms = this.state(METASTREAM_PREFIX + stream);
    if (ms.last < 0) return {};
    const pos = this.index.get([METASTREAM_PREFIX + stream, ms.last]);
    const raw = pos === undefined ? undefined : this.log.get(pos);
    if (!raw) return {};
    const parsed = parseJsonOrEmpty(extractData(this.decode(pos ?? 0, raw).proto));
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : {};
  }

  private setState(stream: string, s: StreamState): void {
    this.cache.set(stream, s);
  }

  private async write(stream: string, s: StreamState, events: ProposedEvent[], tombstone: boolean): Promise<WriteResult> {
    const created = this.clock.next();
    const first = s.last + 1;
    const base = this.nextPosition;
    this.nextPosition += events.length;
    const puts: Array<() => void> = [];
    events.forEach((e, i) => {
      const revision = tombstone ? TOMBSTONE_REVISION : BigInt(first + i);
      const position = base + i;
      const rec = encodeRecord({
        stream,
        revision,
        position: BigInt(position),
        id: e.id,
        type: e.type,
        contentType: e.contentType,
        createdTicks: created,
        data: e.data,
        metadata: e.metadata,
      });
      // Inside transaction() puts apply synchronously; their promises carry nothing.
      puts.push(() => {
        void this.log.put(position, rec);
        if (!tombstone) void this.index.put([stream, first + i], position);
      });
    });
    const next: StreamState = tombstone
      ? { ...s, tombstoned: true }
      : { ...s, last: first + events.length - 1 };
    this.setState(stream, next);
    const metaTarget = this.metadataTarget(stream, events);
    if (metaTarget) this.setState(metaTarget.stream, metaTarget.state);
    const touched = metaTarget ? [stream, metaTarget.stream] : [stream];
    this.begin(touched);
    let written: () => void = () => undefined;
    const settled = new Promise<void>((resolve) => (written = resolve));
    for (const st of touched) this.lastWrite.set(st, settled);
    let failed = false;
    try {
      // A child transaction: if any put throws (a key over LMDB's size limit,
      // say), none of this write's puts stay in the batch. A full disk fails
      // it with StorageFull (commit.ts).
      await commitDurably(this.root, this.dir, () =>
        this.root.childTransaction(() => {
          this.assertOnDisk(stream, s);
          for (const p of puts) p();
          void this.streams.put(stream, next);
          if (metaTarget) void this.streams.put(metaTarget.stream, metaTarget.state);
        }),
      );
    } catch (err) {
      failed = true;
      throw err;
    } finally {
      this.settle(touched, failed);
      written();
    }
    const lastPosition = BigInt(base + events.length - 1);
    this.head.advance(lastPosition);
    return { revision: tombstone ? TOMBSTONE_REVISION : BigInt(first + events.length - 1), position: lastPosition };
  }

  /**
   * Inside the write transaction: the stream on disk is in the state the
   * write was decided on. It is not when an earlier write this one was
   * decided on top of failed; then this one must fail too.
   */
  private assertOnDisk(stream: string, decidedOn: StreamState): void {
    const onDisk = this.streams.get(stream) ?? EMPTY_STREAM;
    if (onDisk.last !== decidedOn.last || onDisk.tombstoned !== decidedOn.tombstoned) {
      throw new Error(`Append to ${stream} was decided on a write that failed to commit; retry`);
    }
  }

  private begin(streams: readonly string[]): void {
    this.writesInFlight++;
    for (const st of streams) this.inFlight.set(st, (this.inFlight.get(st) ?? 0) + 1);
  }

  /**
   * Ends a write. After a failure the touched streams (and the next position)
   * are re-read from disk once no other write on them is in flight: until
   * then those writes still count on the cached state, and fail the disk
   * check if it was wrong.
   */
  private settle(streams: readonly string[], failed: boolean): void {
    this.writesInFlight--;
    if (failed) this.positionStale = true;
    for (const st of streams) {
      if (failed) this.stale.add(st);
      const left = (this.inFlight.get(st) ?? 1) - 1;
      if (left > 0) {
        this.inFlight.set(st, left);
        continue;
      }
      this.inFlight.delete(st);
      this.lastWrite.delete(st);
      if (this.stale.delete(st)) this.cache.delete(st);
    }
    if (this.writesInFlight === 0 && this.positionStale) {
      this.positionStale = false;
      this.nextPosition = this.lastPositionOnDisk() + 1;
    }
  }

  /** A `$metadata` event appended to `$$x` changes what readers of `x` may see. */
  private metadataTarget(stream: string, events: ProposedEvent[]): { stream: string; state: StreamState } | undefined {
    if (!stream.startsWith(METASTREAM_PREFIX)) return undefined;
    const last = [...events].reverse().find((e) => e.type === '$metadata');
    if (!last) return undefined;
    const target = stream.slice(METASTREAM_PREFIX.length);
    return { stream: target, state: applyMetadata(this.state(target), parseJsonOrEmpty(Buffer.from(last.data))) };
  }

  /**
   * EventStoreDB answers a retried append (same event ids at the same place)
   * with the original result instead of writing the events twice. "The same
   * place" is the expected revision when one is given, else the stream's tail.
   */
  private findRetry(stream: string, s: StreamState, expected: Expected, events: ProposedEvent[]): WriteResult | undefined {
    const n = events.length;
    if (n === 0 || s.last < 0) return undefined;
    const start =
      expected.kind === 'exact' ? Number(expected.revision) + 1 : expected.kind === 'no_stream' ? 0 : s.last - n + 1;
    if (start < 0 || start + n - 1 > s.last) return undefined;
    let lastPos = 0;
    for (let i = 0; i < n; i++) {
      const p = this.index.get([stream, start + i]);
      const raw = p === undefined ? undefined : this.log.get(p);
      if (p === undefined || !raw || decodeHeader(BigInt(p), raw).id !== events[i]?.id) return undefined;
      lastPos = p;
    }
    return { revision: BigInt(start + n - 1), position: BigInt(lastPos) };
  }

  /** Records of a stream in revision order, starting at `from` (inclusive). */
  readStream(stream: string, from: number, direction: 'forwards' | 'backwards', limit: number): StoredRecord[] {
    this.assertOpen();
    const range =
      direction === 'forwards'
        ? this.index.getRange({ start: [stream, from], end: [stream, Number.MAX_SAFE_INTEGER], limit })
        : this.index.getRange({ start: [stream, from], end: [stream, -1], reverse: true, limit });
    const out: StoredRecord[] = [];
    for (const { value } of range) {
      const raw = this.log.get(value);
      if (raw && !this.pushSound(out, value, raw)) break;
    }
    return out;
  }

  /** Records of $all from `from` (inclusive, forwards) or before `from` (exclusive, backwards). */
  readAll(from: bigint, direction: 'forwards' | 'backwards', limit: number): StoredRecord[] {
    this.assertOpen();
    const head = Number(this.head.committed);
    const range =
      direction === 'forwards'
        ? this.log.getRange({ start: Number(from), end: head + 1, limit })
        : this.log.getRange({ start: Number(from) - 1, end: 0, reverse: true, limit });
    const out: StoredRecord[] = [];
    for (const { key, value } of range) if (!this.pushSound(out, key, value)) break;
    return out;
  }

  private closed = false;

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.markerTimer);
    // A read-only open has nothing to settle (and may not write even an empty transaction).
    if (this.options.readOnly !== true) await settleWrites(this.root, this.dir);
    this.refreshMarker();
    await this.root.close();
    this.recordCleanClose();
  }

  /** The data file as this clean close leaves it: the next open skips the structure check while it is unchanged. */
  private recordCleanClose(): void {
    const closedAs = dataFileNow(this.dir);
    if (!this.marker || !this.markerWritten || closedAs === undefined) return;
    try {
      writeMarker(this.dir, { ...this.marker, closedAs });
    } catch {
      // A full disk: the next open checks the structure, which costs time only.
    }
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('event log is closed');
  }
}

function parseJsonOrEmpty(bytes: Buffer): unknown {
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch {
    return {};
  }
}

/** LMDB's environment in `dir`; a refusal of LMDB's (its own checks of the file) as StoreDamaged. */
function openEnvironment(dir: string, readOnly: boolean): RootDatabase {
  try {
    return open({ path: dir, maxDbs: 8, mapSize: 2 * 1024 ** 3, ...(readOnly ? { readOnly: true } : {}) });
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    if (/MDB_(INVALID|CORRUPTED|VERSION_MISMATCH|PAGE_NOTFOUND|BAD_)/.test(message)) throw new StoreDamaged(dir, `LMDB refused ${DATA_FILE}: ${message}`);
    throw err;
  }
}

function checkExpected(stream: string, s: StreamState, expected: Expected): void {
  const current = exists(s) ? BigInt(s.last) : undefined;
  switch (expected.kind) {
    case 'any':
      return;
    case 'no_stream':
      if (current !== undefined) throw new WrongExpectedVersion(stream, expected, current);
      return;
    case 'stream_exists':
      if (current === undefined) throw new WrongExpectedVersion(stream, expected, current);
      return;
    case 'exact':
      if (current !== expected.revision) throw new WrongExpectedVersion(stream, expected, current);
      return;
    default: {
      const never: never = expected;
      throw new Error(`unknown expected revision ${JSON.stringify(never)}`);
    }
  }
}

/** The `data` field (8) of an encoded RecordedEvent. */
export function extractData(proto: Buffer): Buffer {
  let o = 0;
  while (o < proto.length) {
    const [tag, n1] = readVarint(proto, o);
    o = n1;
    const field = tag >>> 3;
    const wire = tag & 7;
    if (wire === 0) {
      o = readVarint(proto, o)[1];
    } else if (wire === 2) {
      const [len, n2] = readVarint(proto, o);
      if (field === 8) return proto.subarray(n2, n2 + len);
      o = n2 + len;
    } else {
      break;
    }
  }
  return Buffer.alloc(0);
}

function readVarint(b: Buffer, o: number): [number, number] {
  let result = 0;
  let shift = 0;
  for (;;) {
    const byte = b[o++] ?? 0;
    result += (byte & 0x7f) * 2 ** shift;
    if ((byte & 0x80) === 0) return [result, o];
    shift += 7;
  }
}
