// SNMP notifications end to end: settings through HTTP, health events in the
// real event store, the notifier (relay role) sending to a UDP listener of the
// test, which decodes the BER itself (./ber.ts) and checks community, OIDs and
// values; nothing is sent while the settings are deleted.
import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EventStoreDBClient } from '@eventstore/db-client';
import { encodeEvent } from '../../src/core/events';
import { healthEvents, healthStream, type HealthStreamEvent } from '../../src/health/events';
import { NOTIFICATION_OIDS, OBJECT_OIDS } from '../../src/snmp/oids';
import { startTestApp, type TestApp } from '../support/app';
import type { DecodedNotification } from './ber';
import { Listener } from './listener';
import { sleep } from '../support/wait';

const SNMP = '/configuration/v1/settings/SNMP';
const SYS_UPTIME = '1.3.6.1.2.1.1.3.0';
const SNMP_TRAP_OID = '1.3.6.1.6.3.1.1.4.1.0';

const objects = (n: DecodedNotification): Record<string, unknown> => {
  const byOid = new Map(n.varbinds.map((v) => [v.oid, v.value]));
  return Object.fromEntries(Object.entries(OBJECT_OIDS).map(([k, o]) => [k, byOid.get(o)]));
};

describe('SNMP notifications of degraded reader health', function () {
  this.timeout(60_000);
  let app: TestApp;
  let client: EventStoreDBClient;
  let listener: Listener;
  const report = async (reader: string, code: string, type: string, ageMs = 0): Promise<string> => {
    const id = crypto.randomUUID();
    const e = { type: 'HealthEventReported', data: { readerName: reader, eventTime: new Date(Date.now() - ageMs).toISOString(), type, code, args: { note: code } } } as HealthStreamEvent;
    await client.appendToStream(healthStream(reader), [encodeEvent(healthEvents, e, { user: 'test' }, id)]);
    return id;
  };
  const settings = (community: string, extra: Record<string, unknown> = {}) => ({
    authConfig: { type: 'V2_COMMUNITY', communityName: community },
    trapTargetConfig: { host: '127.0.0.1', port: listener.port, ...extra },
  });

  before(async () => {
    app = await startTestApp();
    client = EventStoreDBClient.connectionString(app.eventStoreConnectionString);
    listener = await Listener.open();
  });
  after(async () => {
    await listener?.close();
    await client?.dispose();
    await app?.stop();
  });

  it('sends a v2c trap with the community, tagtrail OIDs and values for each degrading event only', async () => {
    const put = await app.request('PUT', SNMP, { body: settings('tt-community') });
    expect(put.status, JSON.stringify(put.body)).to.equal(200);
    const warning = await report('r1', 'NETWORK', 'CONNECTION');
    await report('r1', 'REBOOT', 'LIFECYCLE'); // lifecycle: degrades nothing
    await report('r1', 'CRASH', 'SOFTWARE_FAULT', 60 * 60_000); // an hour old: outside the status window
    const failed = await report('r2', 'CRASH', 'SOFTWARE_FAULT');
    const notResponding = { type: 'ReaderNotResponding', data: { readerName: 'r3', eventTime: new Date().toISOString(), lastCheckin: '2026-01-01T00:00:00.000Z' } } as HealthStreamEvent;
    await client.appendToStream(healthStream('r3'), [encodeEvent(healthEvents, notResponding, { user: 'test' })]);

    const got = await listener.waitFor(3);
    for (const n of got) {
      expect(n.version).to.equal(1); // SNMPv2c
      expect(n.community).to.equal('tt-community');
      expect(n.pduType).to.equal(0xa7); // SNMPv2-Trap-PDU
      expect(n.varbinds[0]).to.include({ oid: SYS_UPTIME, tag: 0x43 });
      expect(n.varbinds[1]).to.include({ oid: SNMP_TRAP_OID, tag: 0x06 });
      expect(n.varbinds.slice(2).map((v) => v.oid)).to.deep.equal(Object.values(OBJECT_OIDS));
    }
    expect(got.map((n) => n.varbinds[1]!.value)).to.deep.equal([
      NOTIFICATION_OIDS.readerHealthWarning,
      NOTIFICATION_OIDS.readerHealthFailed,
      NOTIFICATION_OIDS.readerNotResponding,
    ]);
    expect(objects(got[0]!)).to.include({ readerName: 'r1', eventType: 'CONNECTION', code: 'NETWORK', severity: 'WARNING', statusObject: 'connectionStatus', args: '{"note":"NETWORK"}', eventId: warning });
    expect(objects(got[1]!)).to.include({ readerName: 'r2', eventType: 'SOFTWARE_FAULT', code: 'CRASH', severity: 'FAILED', statusObject: 'softwareStatus', eventId: failed });
    expect(objects(got[2]!)).to.include({ readerName: 'r3', eventType: 'LIFECYCLE', code: 'NOT_RESPONDING', severity: 'FAILED', statusObject: 'state' });
  });

  it('sends nothing for events while the settings are deleted', async () => {
    const before = listener.received.length;
    expect((await app.request('DELETE', SNMP)).status).to.equal(204);
    await report('r1', 'LLRP', 'SOFTWARE_FAULT');
    await report('r1', 'NTP', 'CLOCK_SYNC');
    // Set again with another community: the notifier handles the log in order,
    // so once the next event's trap arrives the two above were handled too.
    expect((await app.request('PUT', SNMP, { body: settings('again') })).status).to.equal(200);
    const marker = await report('r4', 'DROPPED_READ', 'THROUGHPUT');
    const got = await listener.waitFor(before + 1);
    await sleep(300); // let a wrongly sent extra packet arrive, were there one
    expect(got.slice(before).map((n) => [n.community, objects(n)['eventId']])).to.deep.equal([['again', marker]]);
    expect(listener.received.length).to.equal(before + 1);
  });

  it('sends INFORMs when asked, resending an unanswered one `retries` times, then goes on', async () => {
    const before = listener.received.length;
    const put = await app.request('PUT', SNMP, { body: settings('inf', { messageType: 'INFORM', timeout: 'PT0.3S', retries: 1 }) });
    expect(put.body.trapTargetConfig).to.deep.equal({ host: '127.0.0.1', port: listener.port, messageType: 'INFORM', timeout: 'PT0.3S', retries: 1 });
    const first = await report('r5', 'CHECKSUM', 'SOFTWARE_FAULT');
    const second = await report('r5', 'NETWORK', 'CONNECTION');
    // The listener never answers: the first inform is sent 1 + 1 times, then
    // given up; the second follows.
    const got = (await listener.waitFor(before + 3)).slice(before, before + 3);
    expect(got.map((n) => n.pduType)).to.deep.equal([0xa6, 0xa6, 0xa6]);
    expect(got.map((n) => objects(n)['eventId'])).to.deep.equal([first, first, second]);
    expect(got[0]!.requestId).to.equal(got[1]!.requestId);
    expect(got[0]!.community).to.equal('inf');
    expect((await app.request('DELETE', SNMP)).status).to.equal(204);
  });
});

describe('SNMP notifier across a restart', function () {
  this.timeout(60_000);

  it('neither resends what it sent before nor forgets the settings set before its checkpoint', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'tagtrail-snmp-'));
    const env = { DATA_DIR: dataDir, REDIS_KEY_PREFIX: `tagtrail-test-${crypto.randomUUID()}:` };
    const listener = await Listener.open();
    const report = async (app: TestApp, code: string): Promise<string> => {
      const client = EventStoreDBClient.connectionString(app.eventStoreConnectionString);
      const id = crypto.randomUUID();
      const e = { type: 'HealthEventReported', data: { readerName: 'r1', eventTime: new Date().toISOString(), type: 'CONNECTION', code, args: {} } } as HealthStreamEvent;
      await client.appendToStream(healthStream('r1'), [encodeEvent(healthEvents, e, { user: 'test' }, id)]);
      await client.dispose();
      return id;
    };
    let app: TestApp | undefined;
    try {
      app = await startTestApp(env);
      const put = await app.request('PUT', SNMP, { body: { authConfig: { type: 'V2_COMMUNITY', communityName: 'keep' }, trapTargetConfig: { host: '127.0.0.1', port: listener.port } } });
      expect(put.status).to.equal(200);
      const first = await report(app, 'NETWORK');
      await listener.waitFor(1);
      await app.stop({ keepRedis: true });
      app = undefined;

      app = await startTestApp(env);
      const second = await report(app, 'HTTP_FAILURE');
      await listener.waitFor(2);
      await sleep(300); // a wrongly resent first trap would arrive by now
      expect(listener.received.map((r) => [r.n.community, objects(r.n)['eventId']])).to.deep.equal([['keep', first], ['keep', second]]);
    } finally {
      await app?.stop();
      await listener.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
