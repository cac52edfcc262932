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
