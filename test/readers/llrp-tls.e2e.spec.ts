// LLRP over TLS end to end: simulated LLRP readers serving TLS with a
// certificate made in the test (openssl, self-signed for 127.0.0.1). One is
// trusted through the definition's caCertificate; one is pinned by a wrong
// fingerprint (refused: a BAD_CERTIFICATE health event, never connected),
// then by its own (connected); without either, Node's trusted CAs refuse the
// self-signed certificate (BAD_CERTIFICATE).
import { X509Certificate } from 'node:crypto';
import { expect } from 'chai';
import { generateLayout } from '../../src/simulator/layout';
import { SimLlrpReader } from '../../src/simulator/llrp-reader';
import { World } from '../../src/simulator/world';
import { appWithEnv, closedAfter, until } from './support';
import { silent } from '../support/logger';
import { selfSigned } from '../support/tls';

const ENV = { READERS_KEEPALIVE_SECONDS: '1', READERS_RECONNECT_MAX_SECONDS: '1', HEALTH_CHECKIN_INTERVAL_SECONDS: '1' };

describe('LLRP readers over TLS', function () {
  this.timeout(120_000);
  const app = appWithEnv(ENV);
  const sims = closedAfter<SimLlrpReader>();

  it('trusted by caCertificate or pinned by certificateSha256: connected; a wrong pin: BAD_CERTIFICATE, not connected', async () => {
    const tls = selfSigned();
    const layout = generateLayout({ facility: 'DEFAULT', readers: 2, families: ['SPEEDWAY'], tags: 10, seed: 4, prefix: 'tls-' });
    const world = World.random(layout, 4);
    for (const reader of layout.readers) sims.push(new SimLlrpReader({ reader, world, seed: 4, t0: Date.now(), timeScale: 1, port: 0, log: silent, tls }));
    for (const s of sims) await s.listen();
    const [byCa, pinned] = sims as [SimLlrpReader, SimLlrpReader];
    const define = async (sim: SimLlrpReader, connection: Record<string, unknown>): Promise<Record<string, unknown>> => {
      const res = await app().request('PUT', '/configuration/v1/readerDefinitions/createOrReplace', { body: { name: sim.name, address: '127.0.0.1', type: 'SPEEDWAY', facility: 'DEFAULT', connection: { protocol: 'LLRP', tls: true, port: sim.port, ...connection } } });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      return res.body.connection as Record<string, unknown>;
    };
    const health = (sim: SimLlrpReader) => async (): Promise<Record<string, unknown>> => (await app().request('GET', `/health/v1/readers/${sim.name}`)).body;

    expect(await define(byCa, { caCertificate: tls.cert })).to.deep.equal({ protocol: 'LLRP', port: byCa.port, tls: true, caCertificate: tls.cert, certificateSha256: null });
    const wrongPin = '00'.repeat(32);
    await define(pinned, { certificateSha256: wrongPin });

    await until('the reader trusted by its CA connected (IDLE, its firmware)', async () => {
      const h = await health(byCa)();
      return h['state'] === 'IDLE' && (h['version'] as { Firmware?: string } | null)?.Firmware === '7.6.1-sim' ? true : undefined;
    });
    const refused = await until('the wrong pin recorded as BAD_CERTIFICATE', async () => {
      const res = await app().request('POST', '/health/v1/events', { body: { readerNames: [pinned.name], codes: ['BAD_CERTIFICATE'] } });
      return res.body?.events?.length > 0 ? res.body.events : undefined;
    });
    expect(refused[0].type).to.equal('CONNECTION');
    expect(String(refused[0].args.message)).to.contain(`not the pinned ${wrongPin}`);
    expect((await health(pinned)()).state).to.equal('AWAITING_AGENT');
    expect((await health(pinned)()).connectionStatus).to.deep.equal({ status: 'FAILED', code: 'BAD_CERTIFICATE' });

    // Its own fingerprint (as openssl and browsers print it, with colons): the changed definition reconnects.
    const fingerprint = new X509Certificate(tls.cert).fingerprint256;
    expect((await define(pinned, { certificateSha256: fingerprint }))['certificateSha256']).to.equal(fingerprint.replace(/:/g, '').toLowerCase());
    await until('the pinned reader connected', async () => ((await health(pinned)())['lastCheckin'] ? true : undefined));

    // Neither a CA nor a pin: Node's trusted CAs do not know a self-signed certificate.
    await define(byCa, {});
    const untrusted = await until('the self-signed certificate refused', async () => {
      const res = await app().request('POST', '/health/v1/events', { body: { readerNames: [byCa.name], codes: ['BAD_CERTIFICATE'] } });
      return res.body?.events?.length > 0 ? res.body.events : undefined;
    });
    expect(String(untrusted[0].args.message)).to.contain('certificate was refused');
  });
});
