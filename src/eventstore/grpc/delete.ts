// Streams.Delete (soft) and Streams.Tombstone (hard).
import type { sendUnaryData, ServerUnaryCall } from '@grpc/grpc-js';
import type { WriteResult } from '../storage/log';
import type { LogWrites } from './space';
import type { DeleteReq, TombstoneReq } from './proto';
import { expectedOf, streamName, toServiceError } from './wire';

/** DeleteResp and TombstoneResp: the position of the event that deleted the stream. */
const respond = (r: WriteResult): object => ({ position: { commitPosition: r.position.toString(), preparePosition: r.position.toString() } });

function handler(write: (log: LogWrites, stream: string, o: NonNullable<DeleteReq['options']>) => Promise<WriteResult>, log: LogWrites) {
  return (call: ServerUnaryCall<DeleteReq | TombstoneReq, unknown>, callback: sendUnaryData<unknown>): void => {
    const o = call.request.options;
    const stream = streamName(o?.streamIdentifier);
    if (!o) return callback(toServiceError(new Error('options missing'), stream));
    write(log, stream, o).then(
      (r) => callback(null, respond(r)),
      (err: unknown) => callback(toServiceError(err, stream)),
    );
  };
}

export const deleteHandler = (log: LogWrites) => handler((l, stream, o) => l.delete(stream, expectedOf(o)), log);
export const tombstoneHandler = (log: LogWrites) => handler((l, stream, o) => l.tombstone(stream, expectedOf(o)), log);
