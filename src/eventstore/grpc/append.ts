// Streams.Append (client streaming, one append per call) and
// Streams.BatchAppend (bidirectional, many appends per call keyed by
// correlation id; the client's default when the server advertises it).
import type { sendUnaryData, ServerDuplexStream, ServerReadableStream } from '@grpc/grpc-js';
import { status } from '@grpc/grpc-js';
import type { ProposedEvent, WriteResult } from '../storage/log';
import type { LogWrites } from './space';
import { DeadlineExceeded, Expected, InvalidArgument, MaxAppendSizeExceeded, StorageFull, StreamDeleted, WrongExpectedVersion } from '../storage/errors';
import { encode, messageType, type AppendReq, type BatchAppendOptions, type BatchAppendReq, type ProposedMessage, type Uuid } from './proto';
import { expectedFrom, expectedOf, streamIdentifier, streamName, toServiceError, uuidString } from './wire';

type AppendResp = object;
type BatchAppendResp = object;

export function toProposed(m: ProposedMessage): ProposedEvent {
  const type = m.metadata?.['type'];
  const contentType = m.metadata?.['content-type'];
  if (type === undefined || contentType === undefined) {
    throw new InvalidArgument('proposed message must carry "type" and "content-type" metadata');
  }
  return {
    id: uuidString(m.id ?? undefined),
    type,
    contentType,
    data: m.data ?? new Uint8Array(),
    metadata: m.customMetadata ?? new Uint8Array(),
  };
}

const batchExpected = (o: BatchAppendOptions): Expected => expectedFrom(o.expectedStreamPosition, o.streamPosition);

/** The batch's deadline (epoch ms) when the client set one. */
function batchDeadline(o: BatchAppendOptions): number | undefined {
  const d = o.deadline;
  if (!d) return undefined;
  return Number(String(d.seconds ?? '0')) * 1000 + Math.floor((d.nanos ?? 0) / 1e6);
}

const position = (r: WriteResult) => ({ commitPosition: r.position.toString(), preparePosition: r.position.toString() });

function appendSuccess(r: WriteResult): AppendResp {
  return { success: { ...(r.revision < 0n ? { noStream: {} } : { currentRevision: r.revision.toString() }), position: position(r) } };
}

/** The expected side of a WrongExpectedVersion, in the field names of `prefix` (Append's or the shared message's). */
function expectedFields(e: Expected, exactField: string): Record<string, unknown> {
  switch (e.kind) {
    case 'exact':
      return { [exactField]: e.revision.toString() };
    case 'any':
      return { expectedAny: {} };
    case 'no_stream':
      return { expectedNoStream: {} };
    case 'stream_exists':
      return { expectedStreamExists: {} };
  }
}

function appendWrongVersion(e: WrongExpectedVersion): AppendResp {
  const current = e.current === undefined ? { currentNoStream: {} } : { currentRevision: e.current.toString() };
  return { wrongExpectedVersion: { ...current, ...expectedFields(e.expected, 'expectedRevision') } };
}

export function appendHandler(log: LogWrites, maxAppendSize: number) {
  return (call: ServerReadableStream<AppendReq, AppendResp>, callback: sendUnaryData<AppendResp>): void => {
    let stream = '';
    let expected: Expected = { kind: 'any' };
    const events: ProposedEvent[] = [];
    let size = 0;
    let failure: unknown;
    call.on('data', (req: AppendReq) => {
      if (failure) return;
      try {
        const options = req.content === 'options' ? req.options : undefined;
        const message = req.content === 'proposedMessage' ? req.proposedMessage : undefined;
        if (options) {
          stream = streamName(options.streamIdentifier);
          expected = expectedOf(options);
        } else if (message) {
          const ev = toProposed(message);
          size += ev.data.length + ev.metadata.length;
          // Stop buffering as soon as the limit is passed: the call fails anyway.
          if (size > maxAppendSize) failure = new MaxAppendSizeExceeded(maxAppendSize);
          else events.push(ev);
        }
      } catch (err) {
        failure = err;
      }
    });
    call.on('error', () => undefined);
    call.on('end', () => {
      // grpc-js answers DEADLINE_EXCEEDED itself when the call's deadline passes; one already past is not carried out.
      if (!failure && call.getDeadline() instanceof Date && (call.getDeadline() as Date).getTime() < Date.now()) failure = new DeadlineExceeded();
      if (failure) return callback(toServiceError(failure, stream));
      log.append(stream, expected, events).then(
        (r) => callback(null, appendSuccess(r)),
        (err: unknown) =>
          err instanceof WrongExpectedVersion ? callback(null, appendWrongVersion(err)) : callback(toServiceError(err, stream)),
      );
    });
  };
}

interface PendingBatch {
  stream: string;
  expected: Expected;
  options: BatchAppendOptions;
  events: ProposedEvent[];
  size: number;
  failure?: unknown;
}

const details = {
  WrongExpectedVersion: messageType('event_store.client.WrongExpectedVersion'),
  StreamDeleted: messageType('event_store.client.StreamDeleted'),
  MaximumAppendSizeExceeded: messageType('event_store.client.MaximumAppendSizeExceeded'),
  Timeout: messageType('event_store.client.Timeout'),
  Unknown: messageType('event_store.client.Unknown'),
};

// protobufjs's bundled google/protobuf types keep the .proto field names (type_url), unlike our own files.
/** google.protobuf.Any of a detail message: the client picks its error class by the type name. */
function packed(type: (typeof details)[keyof typeof details], value: object): { type_url: string; value: Buffer } {
  return { type_url: `type.googleapis.com/${type.fullName.slice(1)}`, value: encode(type, value) };
}

/** The google.rpc.Status of a failed batch, its detail as EventStoreDB sends it. */
function batchError(err: unknown): object {
  const message = err instanceof Error ? err.message : String(err);
  if (err instanceof WrongExpectedVersion) {
    const current = err.current === undefined ? { currentNoStream: {} } : { currentStreamRevision: err.current.toString() };
    const w = { ...current, ...expectedFields(err.expected, 'expectedStreamPosition') };
    return { code: status.FAILED_PRECONDITION, message, details: packed(details.WrongExpectedVersion, w) };
  }
  if (err instanceof StreamDeleted) {
    return { code: status.FAILED_PRECONDITION, message, details: packed(details.StreamDeleted, { streamIdentifier: streamIdentifier(err.stream) }) };
  }
  if (err instanceof MaxAppendSizeExceeded) {
    return { code: status.INVALID_ARGUMENT, message, details: packed(details.MaximumAppendSizeExceeded, { maxAppendSize: err.maxAppendSize }) };
  }
  if (err instanceof DeadlineExceeded) return { code: status.DEADLINE_EXCEEDED, message, details: packed(details.Timeout, {}) };
  return { code: status.INTERNAL, message, details: packed(details.Unknown, {}) };
}

/** The answer to one batch: its success (revision and position) or its error. */
function batchResponse(correlation: Uuid, batch: PendingBatch, result: WriteResult | unknown, ok: boolean): BatchAppendResp {
  const head = { correlationId: correlation, streamIdentifier: streamIdentifier(batch.stream) };
  if (!ok) return { ...head, error: batchError(result) };
  const r = result as WriteResult;
  return { ...head, success: { ...(r.revision < 0n ? { noStream: {} } : { currentRevision: r.revision.toString() }), position: position(r) } };
}

/** Adds a request's messages to its batch; the first that does not decode or makes it too large fails the batch. */
function addMessages(batch: PendingBatch, req: BatchAppendReq, maxAppendSize: number): void {
  for (const m of req.proposedMessages ?? []) {
    if (batch.failure) break;
    try {
      const ev = toProposed(m);
      batch.size += ev.data.length + ev.metadata.length;
      if (batch.size > maxAppendSize) batch.failure = new MaxAppendSizeExceeded(maxAppendSize);
      else batch.events.push(ev);
    } catch (err) {
      batch.failure = err;
    }
  }
}

/**
 * One BatchAppend call: batches gathered by correlation id over several
 * requests, each appended once its final request arrived; the call ends once
 * the client ended it and every append was answered.
 *
 * A full disk ends the call instead, with RESOURCE_EXHAUSTED: the client
 * maps a batch's own error only by its detail type, and has no type for it
 * (it would read as an unknown error), whereas it keeps the status code of a
 * failed call. So once an append finds the disk full, no further batch of
 * the call is appended, the appends still in flight are answered as they
 * settle, and then the call fails: every batch not answered by then gets
 * that error, and none of them was written.
 */
class BatchAppendCall {
  private readonly pending = new Map<string, PendingBatch>();
  private inFlight = 0;
  private ended = false;
  private full: StorageFull | undefined;
  private finished = false;

  constructor(
    private readonly call: ServerDuplexStream<BatchAppendReq, BatchAppendResp>,
    private readonly log: LogWrites,
    private readonly maxAppendSize: number,
  ) {}

  readonly onData = (req: BatchAppendReq): void => {
    const correlation = req.correlationId;
    if (!correlation) return;
    const key = correlation.value === 'string' ? (correlation.string ?? '') : JSON.stringify(correlation.structured);
    let batch = this.pending.get(key);
    const options = req.options;
    if (!batch && options) {
      batch = { stream: streamName(options.streamIdentifier), expected: batchExpected(options), options, events: [], size: 0 };
      this.pending.set(key, batch);
    }
    if (!batch) return;
    addMessages(batch, req, this.maxAppendSize);
    if (!req.isFinal) return;
    this.pending.delete(key);
    // The client stops waiting at its deadline: a batch complete after it is refused, not written.
    const deadline = batchDeadline(batch.options);
    if (!batch.failure && deadline !== undefined && deadline < Date.now()) batch.failure = new DeadlineExceeded();
    this.append(correlation, batch);
  };

  readonly onEnd = (): void => {
    this.ended = true;
    if (this.inFlight === 0) this.finish();
  };

  private append(correlation: Uuid, done: PendingBatch): void {
    if (done.failure) return this.respond(correlation, done, done.failure, false);
    // Refused by the call's failure (see the class).
    if (this.full) return;
    this.inFlight++;
    this.log.append(done.stream, done.expected, done.events).then(
      (r) => {
        this.respond(correlation, done, r, true);
        this.settle();
      },
      (err: unknown) => {
        if (err instanceof StorageFull) this.full ??= err;
        else this.respond(correlation, done, err, false);
        this.settle();
      },
    );
  }

  private respond(correlation: Uuid, batch: PendingBatch, result: WriteResult | unknown, ok: boolean): void {
    const resp = batchResponse(correlation, batch, result, ok);
    if (!this.call.cancelled && this.call.writable) this.call.write(resp);
  }

  private settle(): void {
    this.inFlight--;
    if (this.inFlight === 0 && (this.ended || this.full)) this.finish();
  }

  /** Ends the call: with the full disk's error when an append found it, else normally. */
  private finish(): void {
    if (this.finished) return;
    this.finished = true;
    if (!this.full) return void this.call.end();
    if (!this.call.cancelled) this.call.emit('error', toServiceError(this.full));
  }
}

export function batchAppendHandler(log: LogWrites, maxAppendSize: number) {
  return (call: ServerDuplexStream<BatchAppendReq, BatchAppendResp>): void => {
    const batches = new BatchAppendCall(call, log, maxAppendSize);
    call.on('data', batches.onData);
    call.on('end', batches.onEnd);
    call.on('error', () => undefined);
  };
}
