// Streams.Read: bounded reads of a stream or of $all, and catch-up-then-live
// subscriptions to either, with server-side filters. Events are written
// without an await while the call has room (Sink.write answers true at
// once): an await per event would cost a microtask each.
import type { ServerWritableStream } from '@grpc/grpc-js';
import type { EventLog } from '../storage/log';
import { StreamDeleted } from '../storage/errors';
import { exists, firstVisible, type StreamState } from '../storage/streamstate';
import type { StoredRecord } from '../storage/records';
import type { ReadOptions, ReadReq } from './proto';
import { caughtUpResp, checkpointResp, confirmationResp, streamNotFoundResp, type Outgoing } from './readresp';
import { readEventResp } from './links';
import { parseFilter, type EventFilter } from './filter';
import { Sink } from './sink';
import { streamName, toServiceError } from './wire';

const CHUNK = 256;
type From = 'start' | 'end' | bigint;

/** `open` tracks live calls so the server can stop them before closing the log. */
export function readHandler(log: EventLog, open: Set<Sink>) {
  return (call: ServerWritableStream<ReadReq, Outgoing>): void => {
    const sink = new Sink(call);
    open.add(sink);
    run(log, call.request, sink)
      .then(
        () => sink.end(),
        (err: unknown) => sink.fail(toServiceError(err)),
      )
      .finally(() => open.delete(sink));
  };
}

async function run(log: EventLog, req: ReadReq, sink: Sink): Promise<void> {
  const options = req.options;
  if (!options) return;
  const filter = parseFilter(options);
  const subscribe = options.countOption === 'subscription';
  const backwards = options.readDirection === 1;
  const count = subscribe ? Number.MAX_SAFE_INTEGER : Number(String(options.count ?? '0'));
  const out: Out = { sink, send: (rec) => readEventResp(log, rec, options.resolveLinks === true) };
  if (options.streamOption === 'stream') {
    const so = options.stream;
    const stream = streamName(so?.streamIdentifier);
    const rc = so?.revisionOption;
    const from: From = rc === 'end' ? 'end' : rc === 'revision' ? BigInt(String(so?.revision ?? '0')) : 'start';
    if (subscribe) return subscribeStream(log, out, stream, from);
    return readStream(log, out, stream, from, backwards, count);
  }
  const ao = options.all;
  const ac = ao?.allOption;
  const from: From = ac === 'end' ? 'end' : ac === 'position' ? BigInt(String(ao?.position?.commitPosition ?? '0')) : 'start';
  if (subscribe) return subscribeAll(log, out, from, filter);
  return readAll(log, out, from, backwards, count, filter, options);
}

/** Where a read's events go, and how each is answered (links resolved or not). */
interface Out {
  readonly sink: Sink;
  send(rec: StoredRecord): Outgoing;
}

function visibleAfter(log: EventLog, s: StreamState): bigint | undefined {
  return s.maxAge === undefined ? undefined : log.clock.now() - BigInt(Math.floor(s.maxAge * 1e7));
}

async function readStream(log: EventLog, { sink, send }: Out, stream: string, from: From, backwards: boolean, count: number): Promise<void> {
  const s = log.state(stream);
  if (s.tombstoned) throw new StreamDeleted(stream);
  if (!exists(s)) {
    await sink.write(streamNotFoundResp(stream));
    return;
  }
  const first = firstVisible(s);
  const minCreated = visibleAfter(log, s);
  let next: number;
  if (backwards) next = from === 'end' ? s.last : from === 'start' ? 0 : Math.min(Number(from), s.last);
  else next = from === 'end' ? s.last + 1 : from === 'start' ? first : Math.max(Number(from), first);
  let remaining = count;
  while (remaining > 0 && next >= first && (backwards || next <= s.last)) {
    const chunk = log.readStream(stream, next, backwards ? 'backwards' : 'forwards', Math.min(CHUNK, remaining));
    if (chunk.length === 0) return;
    for (const rec of chunk) {
      const rev = Number(rec.revision);
      if (rev < first) return;
      next = backwards ? rev - 1 : rev + 1;
      if (minCreated !== undefined && rec.createdTicks < minCreated) continue;
      const written = sink.write(send(rec));
      if (written !== true && !(await written)) return;
      remaining--;
    }
  }
}

async function readAll(log: EventLog, { sink, send }: Out, from: From, backwards: boolean, count: number, filter: EventFilter | undefined, _o: ReadOptions): Promise<void> {
  const head = log.head.committed;
  let next: bigint;
  if (backwards) next = from === 'end' ? head + 1n : from === 'start' ? 0n : from;
  else next = from === 'end' ? head + 1n : from === 'start' ? 0n : from;
  let remaining = count;
  while (remaining > 0) {
    const chunk = log.readAll(next, backwards ? 'backwards' : 'forwards', CHUNK);
    if (chunk.length === 0) return;
    for (const rec of chunk) {
      next = backwards ? rec.position : rec.position + 1n;
      if (filter && !filter.matches(rec)) continue;
      const written = sink.write(send(rec));
      if (written !== true && !(await written)) return;
      if (--remaining === 0) return;
    }
  }
}

/**
 * Nothing past `head`: say CaughtUp the first time, then wait for the head
 * to move. False when the call is gone.
 */
async function idle(log: EventLog, sink: Sink, head: bigint, caughtUp: boolean): Promise<boolean> {
  if (!caughtUp && !(await sink.write(caughtUpResp()))) return false;
  await log.head.waitBeyond(head, sink.abort.signal);
  return true;
}

async function subscribeAll(log: EventLog, { sink, send }: Out, from: From, filter: EventFilter | undefined): Promise<void> {
  let next = from === 'start' ? 0n : from === 'end' ? log.head.committed + 1n : from + 1n;
  await sink.write(confirmationResp(crypto.randomUUID()));
  let caughtUp = false;
  let scanned = 0;
  while (!sink.closed) {
    // Read up to the head as it is now; with nothing new, wait for it to move
    // (waiting on `next - 1` would spin while the log is empty).
    const head = log.head.committed;
    const chunk = log.readAll(next, 'forwards', CHUNK);
    if (chunk.length === 0) {
      if (!(await idle(log, sink, head, caughtUp))) return;
      caughtUp = true;
      continue;
    }
    for (const rec of chunk) {
      next = rec.position + 1n;
      if (!filter || filter.matches(rec)) {
        const written = sink.write(send(rec));
        if (written !== true && !(await written)) return;
      }
      if (filter && ++scanned >= filter.checkpointInterval) {
        scanned = 0;
        if (!(await sink.write(checkpointResp(rec.position)))) return;
      }
    }
  }
}

async function subscribeStream(log: EventLog, { sink, send }: Out, stream: string, from: From): Promise<void> {
  const initial = log.state(stream);
  if (initial.tombstoned) throw new StreamDeleted(stream);
  let next = from === 'start' ? 0 : from === 'end' ? initial.last + 1 : Number(from) + 1;
  await sink.write(confirmationResp(crypto.randomUUID()));
  let caughtUp = false;
  while (!sink.closed) {
    const s = log.state(stream);
    if (s.tombstoned) throw new StreamDeleted(stream);
    next = Math.max(next, firstVisible(s));
    const head = log.head.committed;
    const chunk: StoredRecord[] = log.readStream(stream, next, 'forwards', CHUNK).filter((r) => r.position <= head);
    if (chunk.length === 0) {
      if (!(await idle(log, sink, head, caughtUp))) return;
      caughtUp = true;
      continue;
    }
    for (const rec of chunk) {
      next = Number(rec.revision) + 1;
      const written = sink.write(send(rec));
      if (written !== true && !(await written)) return;
    }
  }
}
