// The EventStoreDB protocol's generated message classes and service
// definitions, taken from the client package so server and client can never
// disagree on the wire format.
/* eslint-disable @typescript-eslint/no-require-imports */
import type * as StreamsPb from '@eventstore/db-client/generated/streams_pb';
import type * as SharedPb from '@eventstore/db-client/generated/shared_pb';
import type * as FeaturesPb from '@eventstore/db-client/generated/serverfeatures_pb';
import type * as StatusPb from '@eventstore/db-client/generated/status_pb';
import type { ServiceDefinition } from '@grpc/grpc-js';

export const streamsPb = require('@eventstore/db-client/generated/streams_pb') as typeof StreamsPb;
export const sharedPb = require('@eventstore/db-client/generated/shared_pb') as typeof SharedPb;
export const featuresPb = require('@eventstore/db-client/generated/serverfeatures_pb') as typeof FeaturesPb;
export const statusPb = require('@eventstore/db-client/generated/status_pb') as typeof StatusPb;

interface AnyCtor {
  new (): { pack(serialized: Uint8Array, name: string, prefix?: string): void };
}
interface EmptyCtor {
  new (): object;
}
// google-protobuf resolved from the client's own dependency tree, so `Any`
// and `Empty` are the very classes its generated messages expect.
const clientRequire = require('node:module').createRequire(require.resolve('@eventstore/db-client/generated/shared_pb')) as NodeJS.Require;
export const AnyPb = (clientRequire('google-protobuf/google/protobuf/any_pb') as { Any: AnyCtor }).Any;
export const EmptyPb = (clientRequire('google-protobuf/google/protobuf/empty_pb') as { Empty: EmptyCtor }).Empty;

export const StreamsService = (
  require('@eventstore/db-client/generated/streams_grpc_pb') as { StreamsService: ServiceDefinition }
).StreamsService;
export const ServerFeaturesService = (
  require('@eventstore/db-client/generated/serverfeatures_grpc_pb') as { ServerFeaturesService: ServiceDefinition }
).ServerFeaturesService;

export type ReadReq = StreamsPb.ReadReq;
export type ReadResp = StreamsPb.ReadResp;
export type AppendReq = StreamsPb.AppendReq;
export type AppendResp = StreamsPb.AppendResp;
export type BatchAppendReq = StreamsPb.BatchAppendReq;
export type BatchAppendResp = StreamsPb.BatchAppendResp;
export type DeleteReq = StreamsPb.DeleteReq;
export type TombstoneReq = StreamsPb.TombstoneReq;
