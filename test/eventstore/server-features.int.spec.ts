// ServerFeatures.GetSupportedMethods: what the client learns about the server
// (it decides between BatchAppend and Append from it).
import fs from 'node:fs';
import { expect } from 'chai';
import { credentials as grpcCredentials, makeGenericClientConstructor, type ChannelCredentials, type ServiceError } from '@grpc/grpc-js';
import { ServerFeaturesService } from '../../src/eventstore/grpc/proto';
import { NO_STREAM } from '@eventstore/db-client';
import { endpointOf, uniqueStream, withEventStore } from '../support/eventstore';
import { collect, testEvents } from '../support/helpers';
import { withTimeout } from '../support/wait';

const STREAMS = 'event_store.client.streams.streams';

function channelCredentials(connectionString: string, tls: boolean): ChannelCredentials {
  if (!tls) return grpcCredentials.createInsecure();
  const ca = /[?&]tlsCAFile=([^&]+)/i.exec(connectionString)?.[1];
  const root = ca ? fs.readFileSync(decodeURIComponent(ca)) : null;
  const verify = !/[?&]tlsVerifyCert=false(?:&|$)/i.test(connectionString);
  return grpcCredentials.createSsl(root, null, null, verify ? undefined : { checkServerIdentity: () => undefined });
}

/** The answer as decoded from the published ServerFeatures protocol. */
interface SupportedMethods {
  readonly methods: ReadonlyArray<{ readonly serviceName: string; readonly methodName: string }>;
  readonly eventStoreServerVersion: string;
}
type GetSupportedMethods = (req: object, done: (err: ServiceError | null, res: SupportedMethods) => void) => void;
const ServerFeaturesClient = makeGenericClientConstructor(ServerFeaturesService, 'ServerFeatures');

async function getSupportedMethods(connectionString: string): Promise<SupportedMethods> {
  const { address, port, tls } = endpointOf(connectionString);
  const client = new ServerFeaturesClient(`${address}:${port}`, channelCredentials(connectionString, tls));
  try {
    const call = new Promise<SupportedMethods>((resolve, reject) => {
      (client['getSupportedMethods'] as GetSupportedMethods).call(client, {}, (err, res) => (err ? reject(err) : resolve(res)));
    });
    return await withTimeout(call, 10_000, 'GetSupportedMethods');
  } finally {
    client.close();
  }
}

describe('event store contract: server features', () => {
  const fx = withEventStore();
  let methods: string[];
  let services: Set<string>;
  let supported: SupportedMethods;

  before(async () => {
    supported = await getSupportedMethods(fx.store.connectionString);
    methods = supported.methods.map((m) => `${m.serviceName}/${m.methodName}`.toLowerCase());
    services = new Set(supported.methods.map((m) => m.serviceName.toLowerCase()));
  });

  it('lets the client discover the server and append and read through it', async () => {
    const stream = uniqueStream('features');
    const result = await fx.client.appendToStream(stream, testEvents(2), { expectedRevision: NO_STREAM });
    expect(result.nextExpectedRevision).to.equal(1n);
    expect(await collect(fx.client.readStream(stream))).to.have.length(2);
  });

  it('reports a server version', () => {
    expect(supported.eventStoreServerVersion).to.be.a('string').and.not.equal('');
  });

  it('lists the Streams methods read, append, batchappend, delete and tombstone', () => {
    for (const m of ['read', 'append', 'batchappend', 'delete', 'tombstone']) {
      expect(methods, `${STREAMS}/${m}`).to.include(`${STREAMS}/${m}`);
    }
  });

  it('does not advertise services the embedded store does not implement', function () {
    if (!fx.store.embedded) this.skip();
    const unimplemented = [
      'event_store.client.persistent_subscriptions',
      'event_store.client.projections',
      'event_store.client.users',
      'event_store.client.operations',
    ];
    for (const svc of services) {
      for (const prefix of unimplemented) expect(svc.startsWith(prefix), `advertised ${svc}`).to.equal(false);
    }
  });
});
