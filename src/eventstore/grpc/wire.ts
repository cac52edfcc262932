// Conversions between the wire messages and the storage engine's terms, and
// the gRPC errors the client recognises (status code + `exception` trailer).
import { Metadata, status, type ServiceError } from '@grpc/grpc-js';
import { CorruptRecord } from '../storage/records';
import { sharedPb } from './proto';
import { Expected, InvalidArgument, MaxAppendSizeExceeded, StorageFull, StreamDeleted, WrongExpectedVersion } from '../storage/errors';

export function streamName(identifier: { getStreamName_asU8(): Uint8Array } | undefined): string {
  return identifier ? Buffer.from(identifier.getStreamName_asU8()).toString('utf8') : '';
}

export function streamIdentifier(name: string): InstanceType<typeof sharedPb.StreamIdentifier> {
  const id = new sharedPb.StreamIdentifier();
  id.setStreamName(Buffer.from(name, 'utf8'));
  return id;
}

export function uuidString(u: InstanceType<typeof sharedPb.UUID> | undefined): string {
  if (!u) throw new InvalidArgument('event id is missing');
  if (u.hasString()) return u.getString().toLowerCase();
  const s = u.getStructured();
  if (!s) throw new InvalidArgument('event id is missing');
  const hex = (v: string): string => BigInt.asUintN(64, BigInt(v)).toString(16).padStart(16, '0');
  const h = hex(s.getMostSignificantBits()) + hex(s.getLeastSignificantBits());
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/**
 * The expected-revision oneof of Append, BatchAppend, Delete and Tombstone
 * options: each message names its cases differently but means the same.
 */
export function expectedFrom(
  which: number,
  cases: { exact: number; noStream: number; streamExists: number },
  revision: () => string,
): Expected {
  if (which === cases.exact) return { kind: 'exact', revision: BigInt(revision()) };
  if (which === cases.noStream) return { kind: 'no_stream' };
  if (which === cases.streamExists) return { kind: 'stream_exists' };
  return { kind: 'any' };
}

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
  const message = err instanceof Error ? err.message : String(err);
  return serviceError(status.INTERNAL, message, {});
}

