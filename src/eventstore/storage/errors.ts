// Failures of the storage engine, mapped to EventStoreDB's wire errors by the
// gRPC layer.
export type Expected =
  | { kind: 'any' }
  | { kind: 'no_stream' }
  | { kind: 'stream_exists' }
  | { kind: 'exact'; revision: bigint };

export class WrongExpectedVersion extends Error {
  constructor(
    readonly stream: string,
    readonly expected: Expected,
    /** undefined when the stream does not exist */
    readonly current: bigint | undefined,
  ) {
    super(`Wrong expected version for stream ${stream}`);
  }
}

export class StreamDeleted extends Error {
  constructor(readonly stream: string) {
    super(`Stream ${stream} is deleted`);
  }
}

export class MaxAppendSizeExceeded extends Error {
  constructor(readonly maxAppendSize: number) {
    super(`Maximum append size of ${maxAppendSize} bytes exceeded`);
  }
}

export class InvalidArgument extends Error {}

/** The client's deadline for the call or batch passed before it was carried out: nothing was written. */
export class DeadlineExceeded extends Error {
  constructor() {
    super('Deadline exceeded before the append was carried out; nothing was written');
  }
}

/**
 * The disk holding the log has no room for an append (or LMDB could not grow
 * its map): nothing of it was written, and the same append may succeed once
 * space is freed. The gRPC layer answers RESOURCE_EXHAUSTED.
 */
export class StorageFull extends Error {
  constructor(cause: unknown) {
    const detail = cause instanceof Error ? cause.message : String(cause);
    super(`No space left on the event store's disk; nothing was written (${detail})`, { cause });
  }
}
