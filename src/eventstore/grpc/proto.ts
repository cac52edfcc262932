// The EventStoreDB gRPC protocol from its published .proto files, kept in
// ../protos (licences noted there), loaded with protobufjs: the server
// depends on the protocol, not on a client package's generated code, which
// may change with any of its releases.
//
// Requests arrive decoded as protobufjs messages: fields in lowerCamelCase,
// a set oneof named by its virtual field (`options.countOption ===
// 'subscription'`), 64-bit integers as Long, bytes as Buffer. Answers are
// plain objects of the same shape, encoded by the message type.
import { join } from 'node:path';
import * as protobuf from 'protobufjs';
import type { ServiceDefinition } from '@grpc/grpc-js';

const PROTO_DIR = join(__dirname, '..', 'protos');
const FILES = ['streams.proto', 'serverfeatures.proto'];

function loadRoot(): protobuf.Root {
  const root = new protobuf.Root();
  // Imports of our files resolve in PROTO_DIR; google/protobuf/* are protobufjs's bundled copies.
  root.resolvePath = (_origin, target) => (target.startsWith('google/protobuf/') ? target : join(PROTO_DIR, target));
  return root.loadSync(FILES);
}

const root = loadRoot();

/** A message type of the protocol by its full name, e.g. `event_store.client.WrongExpectedVersion`. */
export function messageType(name: string): protobuf.Type {
  return root.lookupType(name);
}

/** The bytes of a message given as a plain object. */
export function encode(type: protobuf.Type, value: object): Buffer {
  return Buffer.from(type.encode(value).finish());
}

const lowerFirst = (s: string): string => s.charAt(0).toLowerCase() + s.slice(1);

/** grpc-js's definition of a service: method paths, streaming kinds, and each side's coding. */
function serviceDefinition(name: string): ServiceDefinition {
  const service = root.lookupService(name);
  const def: Record<string, ServiceDefinition[string]> = {};
  for (const method of service.methodsArray) {
    method.resolve();
    const req = method.resolvedRequestType;
    const res = method.resolvedResponseType;
    if (!req || !res) throw new Error(`${name}.${method.name}: message types not found`);
    def[lowerFirst(method.name)] = {
      path: `/${service.fullName.slice(1)}/${method.name}`,
      requestStream: method.requestStream === true,
      responseStream: method.responseStream === true,
      requestSerialize: (v: object) => encode(req, v),
      requestDeserialize: (b: Buffer) => req.decode(b),
      responseSerialize: (v: object) => encode(res, v),
      responseDeserialize: (b: Buffer) => res.decode(b),
      originalName: lowerFirst(method.name),
    };
  }
  return def;
}

export const StreamsService = serviceDefinition('event_store.client.streams.Streams');
export const ServerFeaturesService = serviceDefinition('event_store.client.server_features.ServerFeatures');

// The decoded requests, as far as the server reads them.

/** protobufjs's 64-bit integer (a `long` Long). */
export interface Int64 {
  toString(): string;
}
export type Empty = Record<string, never>;

export interface StreamIdentifier {
  streamName?: Uint8Array;
}
export interface Uuid {
  value?: 'structured' | 'string';
  string?: string;
  structured?: { mostSignificantBits?: Int64; leastSignificantBits?: Int64 };
}

/** The expected revision as Append, Delete and Tombstone options carry it. */
export interface ExpectedRevisionOptions {
  streamIdentifier?: StreamIdentifier;
  expectedStreamRevision?: 'revision' | 'noStream' | 'any' | 'streamExists';
  revision?: Int64;
}

export interface ProposedMessage {
  id?: Uuid;
  metadata?: Record<string, string>;
  customMetadata?: Uint8Array;
  data?: Uint8Array;
}

export interface FilterExpression {
  regex?: string;
  prefix?: string[];
}
export interface FilterOptions {
  filter?: 'streamIdentifier' | 'eventType';
  streamIdentifier?: FilterExpression;
  eventType?: FilterExpression;
  window?: 'max' | 'count';
  max?: number;
  checkpointIntervalMultiplier?: number;
}

export interface ReadOptions {
  streamOption?: 'stream' | 'all';
  stream?: { streamIdentifier?: StreamIdentifier; revisionOption?: 'revision' | 'start' | 'end'; revision?: Int64 };
  all?: { allOption?: 'position' | 'start' | 'end'; position?: { commitPosition?: Int64 } };
  /** 0 forwards, 1 backwards */
  readDirection?: number;
  resolveLinks?: boolean;
  countOption?: 'count' | 'subscription';
  count?: Int64;
  filterOption?: 'filter' | 'noFilter';
  filter?: FilterOptions;
}
export interface ReadReq {
  options?: ReadOptions;
}

export interface AppendReq {
  content?: 'options' | 'proposedMessage';
  options?: ExpectedRevisionOptions;
  proposedMessage?: ProposedMessage;
}

export interface BatchAppendOptions {
  streamIdentifier?: StreamIdentifier;
  expectedStreamPosition?: 'streamPosition' | 'noStream' | 'any' | 'streamExists';
  streamPosition?: Int64;
  /** When the client stops waiting for the batch (google.protobuf.Timestamp). */
  deadline?: { seconds?: Int64; nanos?: number };
}
export interface BatchAppendReq {
  correlationId?: Uuid;
  options?: BatchAppendOptions;
  proposedMessages?: ProposedMessage[];
  isFinal?: boolean;
}

export interface DeleteReq {
  options?: ExpectedRevisionOptions;
}
export type TombstoneReq = DeleteReq;
