// Conversions between the wire messages and the storage engine's terms, and
// the gRPC errors the client recognises (status code + `exception` trailer).
import { Metadata, status, type ServiceError } from '@grpc/grpc-js';
import { CorruptRecord } from '../storage/records';
import type { ExpectedRevisionOptions, Int64, StreamIdentifier, Uuid } from './proto';
import { DeadlineExceeded, Expected, InvalidArgument, MaxAppendSizeExceeded, StorageFull, StreamDeleted, WrongExpectedVersion } from '../storage/errors';

export function streamName(identifier: StreamIdentifier | undefined): string {
  return identifier?.streamName ? Buffer.from(identifier.streamName).toString('utf8') : '';
}

export function streamIdentifier(name: string): StreamIdentifier {
  return { streamName: Buffer.from(name, 'utf8') };
}

export function uuidString(u: Uuid | undefined): string {
  if (u?.value === 'string' && u.string !== undefined) return u.string.toLowerCase();
  const s = u?.value === 'structured' ? u.structured : undefined;
  if (!s) throw new InvalidArgument('event id is missing');
  const hex = (v: Int64 | undefined): string => BigInt.asUintN(64, BigInt(String(v ?? '0'))).toString(16).padStart(16, '0');
  const h = hex(s.mostSignificantBits) + hex(s.leastSignificantBits);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/**
 * The expected revision of Append, BatchAppend, Delete and Tombstone
 * options: the set case of the oneof (named `revision` or `streamPosition`
 * for an exact revision) and that revision.
 */
export function expectedFrom(which: string | undefined, revision: Int64 | undefined): Expected {
  if (which === 'revision' || which === 'streamPosition') return { kind: 'exact', revision: BigInt(String(revision ?? '0')) };
  if (which === 'noStream') return { kind: 'no_stream' };
  if (which === 'streamExists') return { kind: 'stream_exists' };
  return { kind: 'any' };
}

/** Append, Delete and Tombstone options: the same fields. */
export const expectedOf = (o: ExpectedRevisionOptions): Expected => expectedFrom(o.expectedStreamRevision, o.revision);

/** EventStoreDB's legacy numeric expected versions, used in error trailers. */
export function expectedAsNumber(e: Expected): string {
  switch (e.kind) {
    case 'any':
      return '-2';
    case 'no_stream':
      return '-1';
    case 'stream_exists':
      return '-4';
    case 'exact':
      return e.revision.toString();
    default: {
      const never: never = e;
      return String(never);
    }
  }
}

function serviceError(code: status, details: string, meta: Record<string, string>): ServiceError {
  const metadata = new Metadata();
  for (const [k, v] of Object.entries(meta)) metadata.set(k, v);
  return Object.assign(new Error(details), { code, details, metadata });
}

/** Maps a storage failure to the gRPC error EventStoreDB sends for it. */
export function toServiceError(err: unknown, stream?: string): ServiceError {
  if (err instanceof WrongExpectedVersion) {
    const meta: Record<string, string> = {
      exception: 'wrong-expected-version',
      'stream-name': err.stream,
      'expected-version': expectedAsNumber(err.expected),
    };
    if (err.current !== undefined) meta['actual-version'] = err.current.toString();
    return serviceError(status.FAILED_PRECONDITION, err.message, meta);
  }
  if (err instanceof StreamDeleted) {
    return serviceError(status.FAILED_PRECONDITION, err.message, { exception: 'stream-deleted', 'stream-name': err.stream });
  }
  if (err instanceof MaxAppendSizeExceeded) {
    return serviceError(status.INVALID_ARGUMENT, err.message, {
      exception: 'maximum-append-size-exceeded',
      'maximum-append-size': String(err.maxAppendSize),
    });
  }
  if (err instanceof InvalidArgument) {
    return serviceError(status.INVALID_ARGUMENT, err.message, stream ? { 'stream-name': stream } : {});
  }
  if (err instanceof CorruptRecord) {
    // Not retryable: the bytes on disk stay damaged until the store is restored or repaired.
    return serviceError(status.DATA_LOSS, err.message, { exception: 'data-loss', position: err.position.toString() });
  }
  // gRPC's code for "the entire file system is out of space". Not UNAVAILABLE:
  // the client would drop the channel, and every subscription with it.
  if (err instanceof StorageFull) return serviceError(status.RESOURCE_EXHAUSTED, err.message, {});
  if (err instanceof DeadlineExceeded) return serviceError(status.DEADLINE_EXCEEDED, err.message, {});
  const message = err instanceof Error ? err.message : String(err);
  return serviceError(status.INTERNAL, message, {});
}

