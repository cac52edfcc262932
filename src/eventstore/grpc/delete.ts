// Streams.Delete (soft) and Streams.Tombstone (hard).
import type { sendUnaryData, ServerUnaryCall } from '@grpc/grpc-js';
import type { WriteResult } from '../storage/log';
import type { LogWrites } from './space';
import type { Expected } from '../storage/errors';
import { streamsPb, type DeleteReq, type TombstoneReq } from './proto';
import { expectedFrom, streamName, toServiceError } from './wire';

type DeleteOptions = InstanceType<typeof streamsPb.DeleteReq.Options> | InstanceType<typeof streamsPb.TombstoneReq.Options>;

function expectedOf(o: DeleteOptions): Expected {
  // Delete and Tombstone options share field numbers and case values.
  const C = streamsPb.DeleteReq.Options.ExpectedStreamRevisionCase;
  return expectedFrom(o.getExpectedStreamRevisionCase() as number, { exact: C.REVISION, noStream: C.NO_STREAM, streamExists: C.STREAM_EXISTS }, () => o.getRevision());
}

function respond<R extends { setPosition(p: P): R }, P extends { setCommitPosition(v: string): P; setPreparePosition(v: string): P }>(
  resp: R,
  pos: P,
  r: WriteResult,
): R {
  pos.setCommitPosition(r.position.toString());
  pos.setPreparePosition(r.position.toString());
  return resp.setPosition(pos);
}

export function deleteHandler(log: LogWrites) {
  return (call: ServerUnaryCall<DeleteReq, unknown>, callback: sendUnaryData<unknown>): void => {
    const o = call.request.getOptions();
    const stream = streamName(o?.getStreamIdentifier());
    if (!o) return callback(toServiceError(new Error('options missing'), stream));
    log.delete(stream, expectedOf(o)).then(
      (r) => callback(null, respond(new streamsPb.DeleteResp(), new streamsPb.DeleteResp.Position(), r)),
      (err: unknown) => callback(toServiceError(err, stream)),
    );
  };
}

export function tombstoneHandler(log: LogWrites) {
  return (call: ServerUnaryCall<TombstoneReq, unknown>, callback: sendUnaryData<unknown>): void => {
    const o = call.request.getOptions();
    const stream = streamName(o?.getStreamIdentifier());
    if (!o) return callback(toServiceError(new Error('options missing'), stream));
    log.tombstone(stream, expectedOf(o)).then(
      (r) => callback(null, respond(new streamsPb.TombstoneResp(), new streamsPb.TombstoneResp.Position(), r)),
      (err: unknown) => callback(toServiceError(err, stream)),
    );
  };
}
