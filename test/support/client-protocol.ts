// The official client's own decoders of the EventStoreDB protocol, for tests
// that check bytes the embedded store writes exactly as that client reads
// them. Product code never imports the client's internals (an ESLint rule
// refuses it); the store speaks the protocol from its own .proto files.
// eslint-disable-next-line no-restricted-imports -- the client's decoder is the reference these tests compare with
import * as streamsPb from '@eventstore/db-client/generated/streams_pb';

export { streamsPb };
