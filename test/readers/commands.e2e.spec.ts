// Reader commands for readers tagtrail connects to: through the support
// routes (readerReboot, timeSync) and an UPGRADE on the command channel, a
// simulated IoT-interface reader is rebooted (and reports LIFECYCLE REBOOT
// with the reason once back), has its clock set, refuses the clock while on
// NTP, and receives the upgrade file; a simulated LLRP reader has each
// command FAILED with why LLRP cannot do it.
import http from 'node:http';
import { createHash } from 'node:crypto';
import { expect } from 'chai';
import { issueReaderCommand, readerCommandsOf } from '../../src/agents/commands';
import { EventStoreDBClient } from '@eventstore/db-client';
import { createClient } from 'redis';
import { RedisKeys } from '../../src/core/redis/keys';
import type { ResourceDeps } from '../../src/core/resource/routes';
import { ConfigReadModel } from '../../src/core/resource/readmodel';
import { generateLayout } from '../../src/simulator/layout';
import { SimIotReader } from '../../src/simulator/iot-reader';
import { SimLlrpReader } from '../../src/simulator/llrp-reader';
import { World } from '../../src/simulator/world';
import { appWithEnv, until } from './support';
import { silent } from '../support/logger';

describe('reader commands for LLRP and IoT readers (simulated)', function () {
  this.timeout(120_000);
  const app = appWithEnv({ READERS_KEEPALIVE_SECONDS: '1', READERS_RECONNECT_MAX_SECONDS: '1' });
  const layout = generateLayout({ facility: 'DEFAULT', readers: 2, families: ['SPEEDWAY'], tags: 2, seed: 6, prefix: `cmd-${Date.now().toString(36)}-` });
  const world = World.random(layout, 6);
  const password = `pw-${crypto.randomUUID()}`;
  const iot = new SimIotReader({ reader: layout.readers[0]!, world, seed: 6, t0: Date.now(), timeScale: 1, port: 0, username: 'root', password, log: silent });
  const llrp = new SimLlrpReader({ reader: layout.readers[1]!, world, seed: 6, t0: Date.now(), timeScale: 1, port: 0, log: silent });
  const image = Buffer.from(`firmware image ${crypto.randomUUID()}`);
  const images = http.createServer((_req, res) => res.end(image));
  const closers: Array<() => Promise<void>> = [];
  after(async () => {
    for (const c of closers) await c();
    await iot.close();
    await llrp.close();
    images.close();
  });

  const request = async (path: string, body: unknown): Promise<{ requestId: string }> => {
    const res = await app().request('POST', path, { body });
    expect(res.status, JSON.stringify(res.body)).to.equal(202);
    return res.body;
  };
  const completed = (requestId: string) =>
    until(`request ${requestId} completed`, async () => {
      const res = await app().request('GET', `/support/v1/readerCommands/show/${requestId}`);
      return res.body?.completed === true ? (res.body.readers as Array<{ readerName: string; status: string; message: string }>) : undefined;
    });

  it('performs them on the IoT reader and refuses them clearly on the LLRP one', async () => {
    await iot.listen();
    await llrp.listen();
    await new Promise<void>((r) => images.listen(0, '127.0.0.1', r));
    for (const [sim, connection] of [
      [iot, { protocol: 'IOT', scheme: 'http', port: iot.port, password, delivery: 'STREAM' }],
      [llrp, { protocol: 'LLRP', port: llrp.port }],
    ] as const) {
      const res = await app().request('PUT', '/configuration/v1/readerDefinitions/createOrReplace', { body: { name: sim.name, address: '127.0.0.1', type: 'SPEEDWAY', facility: 'DEFAULT', connection } });
      expect(res.status).to.equal(200);
    }
    for (const name of [iot.name, llrp.name]) {
      await until(`${name} connected`, async () => ((await app().request('GET', `/health/v1/readers/${name}`)).body?.version?.Firmware ? true : undefined));
    }

    const reboot = await request('/support/v1/readerReboot', { readerNames: [iot.name, llrp.name], reason: 'quarterly maintenance' });
    const rebooted = await completed(reboot.requestId);
    const byName = new Map(rebooted.map((r) => [r.readerName, r]));
    expect(byName.get(iot.name)).to.include({ status: 'DONE' });
    expect(byName.get(llrp.name)?.status).to.equal('FAILED');
    expect(byName.get(llrp.name)?.message).to.match(/LLRP has no reboot message/);
    expect(iot.reboots).to.equal(1);
    await until('LIFECYCLE REBOOT with the reason once the reader is back', async () => {
      const res = await app().request('POST', '/health/v1/events', { body: { readerNames: [iot.name], codes: ['REBOOT'] } });
      const events = (res.body?.events ?? []) as Array<{ args: { reason?: string } }>;
      return events.some((e) => e.args.reason === 'quarterly maintenance') ? true : undefined;
    });

    const sync = await request('/support/v1/timeSync', { readerNames: [iot.name, llrp.name] });
    const synced = new Map((await completed(sync.requestId)).map((r) => [r.readerName, r]));
    expect(synced.get(iot.name)?.status).to.equal('DONE');
    expect(Math.abs(Date.parse(iot.clockSetTo ?? '') - Date.now())).to.be.lessThan(60_000);
    expect(synced.get(llrp.name)?.message).to.match(/LLRP cannot set the reader clock/);
    // A reader keeping time by NTP without a server: FAILED, saying so; with servers: DONE, naming them, its clock left to NTP.
    iot.ntp = true;
    iot.clockSetTo = null;
    const noServer = await request('/support/v1/timeSync', { readerNames: [iot.name] });
    const [withoutServer] = await completed(noServer.requestId);
    expect(withoutServer).to.include({ status: 'FAILED' });
    expect(withoutServer?.message).to.contain('has no NTP server');
    iot.ntpServers = [{ serverId: 1, server: 'pool.ntp.example', serverType: 'static', status: 'current' }];
    const onNtp = await request('/support/v1/timeSync', { readerNames: [iot.name] });
    const [byNtp] = await completed(onNtp.requestId);
    expect(byNtp).to.include({ status: 'DONE' });
    expect(byNtp?.message).to.contain('pool.ntp.example (current)');
    expect(iot.clockSetTo).to.equal(null);
    expect(iot.refusedBodies).to.deep.equal([]);

    const redis = createClient({ url: 'redis://127.0.0.1:6379' });
    await redis.connect();
    const client = EventStoreDBClient.connectionString(app().eventStoreConnectionString);
    closers.push(() => redis.quit().then(() => undefined), () => client.dispose());
    const deps = { client, readModel: new ConfigReadModel(redis, new RedisKeys(app().keyPrefix)) } as unknown as ResourceDeps;
    const port = (images.address() as { port: number }).port;
    const checksum = createHash('sha256').update(image).digest('hex');
    const upgrade = await issueReaderCommand(deps, iot.name, 'UPGRADE', { versionIdentifier: '8.4.0', imageName: 'r700-8.4.0.upgx', imageUrl: `http://127.0.0.1:${port}/r700.upgx`, checksum });
    const noUrl = await issueReaderCommand(deps, llrp.name, 'UPGRADE', { versionIdentifier: '8.4.0' });
    const results = await until('upgrade commands completed', async () => {
      const [a, b] = await Promise.all([readerCommandsOf(deps, iot.name), readerCommandsOf(deps, llrp.name)]);
      const mine = a.find((c) => c.commandId === upgrade.commandId);
      const other = b.find((c) => c.commandId === noUrl.commandId);
      return mine?.result && other?.result ? [mine, other] : undefined;
    });
    expect(results[0]).to.include({ result: 'DONE' });
    expect(iot.upgrades).to.deep.equal([{ name: 'r700-8.4.0.upgx', bytes: image.length }]);
    expect(results[1]).to.include({ result: 'FAILED' });
    expect(results[1]?.message).to.match(/LLRP has no software upgrade/);
  });
});
