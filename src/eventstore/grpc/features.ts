// ServerFeatures.GetSupportedMethods: the client asks this once per
// connection and uses BatchAppend only when it is listed, so the list must
// name exactly what this server implements.
import type { sendUnaryData, ServerUnaryCall } from '@grpc/grpc-js';

export const SERVER_VERSION = '24.10.0';

const STREAMS = 'event_store.client.streams.streams';
const IMPLEMENTED: Array<{ service: string; method: string; features?: string[] }> = [
  { service: STREAMS, method: 'read', features: ['position', 'events', 'all'] },
  { service: STREAMS, method: 'append' },
  { service: STREAMS, method: 'batchappend' },
  { service: STREAMS, method: 'delete' },
  { service: STREAMS, method: 'tombstone' },
  { service: 'event_store.client.server_features.serverfeatures', method: 'getsupportedmethods' },
];

export function supportedMethodsHandler() {
  return (_call: ServerUnaryCall<unknown, unknown>, callback: sendUnaryData<unknown>): void => {
    const resp = {
      eventStoreServerVersion: SERVER_VERSION,
      methods: IMPLEMENTED.map(({ service, method, features }) => ({ serviceName: service, methodName: method, features: features ?? [] })),
    };
    callback(null, resp);
  };
}
