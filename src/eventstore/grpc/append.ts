// Streams.Append (client streaming, one append per call) and
// Streams.BatchAppend (bidirectional, many appends per call keyed by
// correlation id; the client's default when the server advertises it).
import type { sendUnaryData, ServerDuplexStream, ServerReadableStream } from '@grpc/grpc-js';
import { status } from '@grpc/grpc-js';
import type { ProposedEvent, WriteResult } from '../storage/log';
import type { LogWrites } from './space';
import { Expected, InvalidArgument, MaxAppendSizeExceeded, StorageFull, StreamDeleted, WrongExpectedVersion } from '../storage/errors';
import { AnyPb, EmptyPb, sharedPb, statusPb, streamsPb, type AppendReq, type AppendResp, type BatchAppendReq, type BatchAppendResp } from './proto';
import { expectedFrom, streamIdentifier, streamName, toServiceError, uuidString } from './wire';

type ProposedMessage = InstanceType<typeof streamsPb.AppendReq.ProposedMessage> | InstanceType<typeof streamsPb.BatchAppendReq.ProposedMessage>;

export function toProposed(m: ProposedMessage): ProposedEvent {
  const meta = m.getMetadataMap();
  const type = meta.get('type');
  const contentType = meta.get('content-type');
  if (type === undefined || contentType === undefined) {
    throw new InvalidArgument('proposed message must carry "type" and "content-type" metadata');
  }
  return {
    id: uuidString(m.getId()),
    type,
    contentType,
    data: m.getData_asU8(),
    metadata: m.getCustomMetadata_asU8(),
  };
}

function appendExpected(o: InstanceType<typeof streamsPb.AppendReq.Options>): Expected {
  const C = streamsPb.AppendReq.Options.ExpectedStreamRevisionCase;
  return expectedFrom(o.getExpectedStreamRevisionCase(), { exact: C.REVISION, noStream: C.NO_STREAM, streamExists: C.STREAM_EXISTS }, () => o.getRevision());
}

function batchExpected(o: InstanceType<typeof streamsPb.BatchAppendReq.Options>): Expected {
  const C = streamsPb.BatchAppendReq.Options.ExpectedStreamPositionCase;
  return expectedFrom(o.getExpectedStreamPositionCase(), { exact: C.STREAM_POSITION, noStream: C.NO_STREAM, streamExists: C.STREAM_EXISTS }, () => o.getStreamPosition());
}

function appendSuccess(r: WriteResult): AppendResp {
  const success = new streamsPb.AppendResp.Success();
  if (r.revision < 0n) success.setNoStream(new sharedPb.Empty());
  else success.setCurrentRevision(r.revision.toString());
  const pos = new streamsPb.AppendResp.Position();
  pos.setCommitPosition(r.position.toString());
  pos.setPreparePosition(r.position.toString());
  success.setPosition(pos);
  return new streamsPb.AppendResp().setSuccess(success);
}

function appendWrongVersion(e: WrongExpectedVersion): AppendResp {
  const w = new streamsPb.AppendResp.WrongExpectedVersion();
  if (e.current === undefined) w.setCurrentNoStream(new sharedPb.Empty());
  else w.setCurrentRevision(e.current.toString());
  switch (e.expected.kind) {
    case 'exact':
      w.setExpectedRevision(e.expected.revision.toString());
      break;
    case 'any':
      w.setExpectedAny(new sharedPb.Empty());
      break;
    case 'no_stream':
      w.setExpectedNoStream(new sharedPb.Empty());
      break;
    case 'stream_exists':
      w.setExpectedStreamExists(new sharedPb.Empty());
      break;
  }
  return new streamsPb.AppendResp().setWrongExpectedVersion(w);
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
        const options = req.getOptions();
        const message = req.getProposedMessage();
        if (options) {
          stream = streamName(options.getStreamIdentifier());
          expected = appendExpected(options);
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
  options: InstanceType<typeof streamsPb.BatchAppendReq.Options>;
  events: ProposedEvent[];
  size: number;
  failure?: unknown;
}

type RpcCode = Parameters<InstanceType<typeof statusPb.Status>['setCode']>[0];
// grpc-js and the generated google.rpc.Code enum share the numeric values.
const rpcCode = (s: status): RpcCode => s as number as RpcCode;

function batchError(err: unknown): InstanceType<typeof statusPb.Status> {
  const st = new statusPb.Status();
  const any = new AnyPb();
  if (err instanceof WrongExpectedVersion) {
    const w = new sharedPb.WrongExpectedVersion();
    if (err.current === undefined) w.setCurrentNoStream(new EmptyPb() as never);
    else w.setCurrentStreamRevision(err.current.toString());
    if (err.expected.kind === 'exact') w.setExpectedStreamPosition(err.expected.revision.toString());
    else if (err.expected.kind === 'no_stream') w.setExpectedNoStream(new EmptyPb() as never);
    else if (err.expected.kind === 'stream_exists') w.setExpectedStreamExists(new EmptyPb() as never);
    else w.setExpectedAny(new EmptyPb() as never);
    any.pack(w.serializeBinary(), 'event_store.client.WrongExpectedVersion');
    st.setCode(rpcCode(status.FAILED_PRECONDITION));
  } else if (err instanceof StreamDeleted) {
    const d = new sharedPb.StreamDeleted();
    d.setStreamIdentifier(streamIdentifier(err.stream));
    any.pack(d.serializeBinary(), 'event_store.client.StreamDeleted');
    st.setCode(rpcCode(status.FAILED_PRECONDITION));
  } else if (err instanceof MaxAppendSizeExceeded) {
    const d = new sharedPb.MaximumAppendSizeExceeded();
    d.setMaxappendsize(err.maxAppendSize);
    any.pack(d.serializeBinary(), 'event_store.client.MaximumAppendSizeExceeded');
    st.setCode(rpcCode(status.INVALID_ARGUMENT));
  } else {
    any.pack(new sharedPb.Unknown().serializeBinary(), 'event_store.client.Unknown');
    st.setCode(rpcCode(status.INTERNAL));
  }
  st.setMessage(err instanceof Error ? err.message : String(err));
  st.setDetails(any as never);
  return st;
}

/** The answer to one batch: its success (revision and position) or its error. */
function batchResponse(correlation: InstanceType<typeof sharedPb.UUID>, batch: PendingBatch, result: WriteResult | unknown, ok: boolean): BatchAppendResp {
  const resp = new streamsPb.BatchAppendResp();
  resp.setCorrelationId(correlation);
  resp.setStreamIdentifier(streamIdentifier(batch.stream));
  if (ok) {
    const r = result as WriteResult;
    const success = new streamsPb.BatchAppendResp.Success();
    if (r.revision < 0n) success.setNoStream(new EmptyPb() as never);
    else success.setCurrentRevision(r.revision.toString());
    const pos = new sharedPb.AllStreamPosition();
    pos.setCommitPosition(r.position.toString());
    pos.setPreparePosition(r.position.toString());
    success.setPosition(pos);
    resp.setSuccess(success);
  } else {
    resp.setError(batchError(result));
  }
  return resp;
}

/** Adds a request's messages to its batch; the first that does not decode or makes it too large fails the batch. */
function addMessages(batch: PendingBatch, req: BatchAppendReq, maxAppendSize: number): void {
  for (const m of req.getProposedMessagesList()) {
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
    const correlation = req.getCorrelationId();
    if (!correlation) return;
    const key = correlation.getString() || JSON.stringify(correlation.toObject());
    let batch = this.pending.get(key);
    const options = req.getOptions();
    if (!batch && options) {
      batch = { stream: streamName(options.getStreamIdentifier()), expected: batchExpected(options), options, events: [], size: 0 };
      this.pending.set(key, batch);
    }
    if (!batch) return;
    addMessages(batch, req, this.maxAppendSize);
    if (!req.getIsFinal()) return;
    this.pending.delete(key);
    this.append(correlation, batch);
  };

  readonly onEnd = (): void => {
    this.ended = true;
    if (this.inFlight === 0) this.finish();
  };

  private append(correlation: InstanceType<typeof sharedPb.UUID>, done: PendingBatch): void {
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

  private respond(correlation: InstanceType<typeof sharedPb.UUID>, batch: PendingBatch, result: WriteResult | unknown, ok: boolean): void {
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
