// Upgrades through the agent API, played by hand so every step is exact: the
// UPGRADE command each reader gets at check-in, the next reader starting as
// one reports, a restart of the whole app mid-upgrade (same event store and
// Redis) after which the runner carries on without starting anyone twice;
// and the 400s/409 of start, which append nothing.
import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { agentAuthorization } from '../../src/agents/guard';
import { startTestApp, type TestApp } from '../support/app';
import { logHead } from '../support/log-head';
import { CHECKSUM, maxInProgress, registerImage, upgradeEventsOf, waitForStatus, finished } from './support';
import { sleep } from '../support/wait';

const U = '/control/v1/upgrades';
const A = '/agent/v1/readers';
const READERS = ['u-1', 'u-2', 'u-3', 'u-4'];
const versions = { App: '1.0.0', Firmware: '7.0.0' };

type Command = { id: string; type: string; args: Record<string, unknown> };
interface Agents {
  checkin(reader: string): Promise<Command[]>;
  /** Checks in until the runner's UPGRADE command is there (it is issued just after the reader is marked IN_PROGRESS). */
  command(reader: string): Promise<Command>;
  complete(reader: string, id: string, body: unknown): Promise<number>;
}

function agents(app: () => TestApp, secrets: Record<string, string>): Agents {
  const as = (r: string) => agentAuthorization(r, secrets[r] ?? '');
  return {
    async checkin(reader) {
      const res = await app().request('POST', `${A}/${reader}/checkin`, { body: { agentId: `a-${reader}`, versions, state: 'IDLE' }, auth: as(reader) });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      return res.body.commands;
    },
    async command(reader) {
      const deadline = Date.now() + 10_000;
      for (;;) {
        const [c] = await this.checkin(reader);
        if (c !== undefined) return c;
        if (Date.now() > deadline) throw new Error(`no command for ${reader}`);
        await sleep(50);
      }
    },
    async complete(reader, id, body) {
      return (await app().request('POST', `${A}/${reader}/commands/${id}`, { body, auth: as(reader) })).status;
    },
  };
}

async function setUp(app: TestApp, names: readonly string[], types: Record<string, string> = {}): Promise<Record<string, string>> {
  const secrets: Record<string, string> = {};
  for (const name of names) {
    const created = await app.request('POST', '/configuration/v1/readerDefinitions/create', { body: { name, type: types[name] ?? 'XARRAY' } });
    expect(created.status, JSON.stringify(created.body)).to.equal(200);
    secrets[name] = (await app.request('PUT', `${A}/${name}/secret`)).body.secret;
  }
  return secrets;
}

const inProgress = (s: { details: { readers: Array<{ name: string; status: string }> } }): string[] => s.details.readers.filter((r) => r.status === 'IN_PROGRESS').map((r) => r.name);

describe('upgrades through the agent API', function () {
  this.timeout(120_000);
  const dataDir = mkdtempSync(join(tmpdir(), 'tagtrail-upgrade-'));
  const env = { DATA_DIR: dataDir, REDIS_KEY_PREFIX: `tagtrail-test-${crypto.randomUUID()}:` };
  let app: TestApp;
  after(async () => {
    await app?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('readers get UPGRADE at check-in, the next starts as one reports, and a restart mid-upgrade carries on', async () => {
    app = await startTestApp(env);
    const secrets = await setUp(app, READERS);
    const ag = agents(() => app, secrets);
    for (const r of READERS.slice(0, 3)) await ag.checkin(r); // u-4 has never checked in: previous version unknown
    await registerImage(app, '9.0');
    const start = await app.request('POST', `${U}/start`, { body: { target: { type: 'DEVICE', values: READERS }, versionIdentifier: { version: '9.0', imageType: 'FIRMWARE_READER' }, policy: { maxParallelReaders: 2 } } });
    expect(start.status, JSON.stringify(start.body)).to.equal(200);
    const id = start.body.upgradeInstanceId as string;

    let s = await waitForStatus(app, id, (x) => inProgress(x).length === 2);
    expect(inProgress(s)).to.deep.equal(['u-1', 'u-2']);
    expect(s.status).to.equal('IN_PROGRESS');
    expect(s.details.readers.find((r: { name: string }) => r.name === 'u-4').previousVersion).to.equal(null);
    expect(s.details.readers.find((r: { name: string }) => r.name === 'u-1').previousVersion).to.deep.equal({ version: '7.0.0', imageType: 'FIRMWARE_READER' });
    const cmd1 = await ag.command('u-1');
    expect(cmd1).to.deep.include({ type: 'UPGRADE', args: { versionIdentifier: '9.0', imageType: 'FIRMWARE_READER', imageName: 'img-9.0.upgx', checksum: CHECKSUM } });
    expect(await ag.checkin('u-3')).to.deep.equal([]); // not started yet
    expect(await ag.complete('u-1', cmd1.id, { result: 'DONE' })).to.equal(204);
    s = await waitForStatus(app, id, (x) => inProgress(x).includes('u-3'));
    expect(inProgress(s)).to.deep.equal(['u-2', 'u-3']);

    // Restart everything on the same data while u-2 and u-3 are upgrading.
    await app.stop({ keepRedis: true });
    app = await startTestApp(env);
    s = await waitForStatus(app, id, () => true);
    expect(inProgress(s)).to.deep.equal(['u-2', 'u-3']);
    const cmd3 = await ag.command('u-3');
    const cmd2 = await ag.command('u-2');
    expect(await ag.complete('u-2', cmd2.id, { result: 'FAILED', message: 'flash write error' })).to.equal(204);
    expect(inProgress(await waitForStatus(app, id, (x) => inProgress(x).includes('u-4')))).to.deep.equal(['u-3', 'u-4']);
    expect(await ag.complete('u-3', cmd3.id, { result: 'DONE' })).to.equal(204);
    const cmd4 = await ag.command('u-4');
    expect(await ag.complete('u-4', cmd4.id, { result: 'DONE' })).to.equal(204);
    s = await waitForStatus(app, id, finished);
    expect(s.status).to.equal('FAILED');
    expect(s.details.readers.map((r: { name: string; status: string }) => [r.name, r.status])).to.deep.equal([['u-1', 'COMPLETED'], ['u-2', 'FAILED'], ['u-3', 'COMPLETED'], ['u-4', 'COMPLETED']]);
    expect(s.details.failedReaders).to.deep.equal([{ name: 'u-2', reason: 'flash write error' }]);
    const events = await upgradeEventsOf(app, id);
    expect(events.filter((e) => e.type === 'UpgradeReaderStarted').map((e) => e.data.readerName)).to.deep.equal(READERS);
    expect(maxInProgress(events)).to.equal(2);
    expect(events.at(-1)).to.deep.include({ type: 'UpgradeFinished' });
    for (const r of READERS) expect(await ag.checkin(r)).to.deep.equal([]);
  });

  it('start: 400 naming the field for bad input, unknown readers or facilities, an unregistered image, nothing of the allowed types; 409 for a reader in an active upgrade; nothing appended', async () => {
    const secrets = await setUp(app, ['v-1', 'v-2'], { 'v-2': 'SPEEDWAY' });
    const ag = agents(() => app, secrets);
    await registerImage(app, '9.1');
    const ok = { target: { type: 'DEVICE', values: ['v-1'] }, versionIdentifier: { version: '9.1', imageType: 'FIRMWARE_READER' } };
    const busy = await app.request('POST', `${U}/start`, { body: { ...ok, policy: { maxParallelReaders: 1 } } });
    expect(busy.status).to.equal(200);
    await ag.command('v-1'); // the runner has started v-1 and issued its command: the log stays still from here
    await ag.checkin('v-1');
    const before = await logHead(app.eventStoreConnectionString);
    const cases: Array<[unknown, string, number?]> = [
      [{ ...ok, target: { type: 'DEVICE', values: ['nope'] } }, 'body.target.values.0'],
      [{ ...ok, target: { type: 'FACILITY', values: ['NOWHERE'] } }, 'body.target.values.0'],
      [{ ...ok, target: { type: 'ZONE', values: ['v-1'] } }, 'body.target.type'],
      [{ ...ok, target: { type: 'DEVICE', values: [] } }, 'body.target.values'],
      [{ ...ok, versionIdentifier: { version: '0.0.1', imageType: 'FIRMWARE_READER' } }, 'body.versionIdentifier'],
      [{ ...ok, versionIdentifier: { version: '9.1', imageType: 'OS' } }, 'body.versionIdentifier.imageType'],
      [{ ...ok, policy: { maxParallelReaders: 0 } }, 'body.policy.maxParallelReaders'],
      [{ ...ok, policy: { allowedReaderTypes: ['TOASTER'] } }, 'body.policy.allowedReaderTypes.0'],
      [{ ...ok, target: { type: 'DEVICE', values: ['v-2'] }, policy: { allowedReaderTypes: ['XARRAY'] } }, 'body.target'],
      [ok, 'body.target', 409],
    ];
    for (const [body, path, status] of cases) {
      const res = await app.request('POST', `${U}/start`, { body });
      expect(res.status, JSON.stringify(body)).to.equal(status ?? 400);
      expect(res.body.errors.map((e: { path: string }) => e.path), JSON.stringify(res.body)).to.include(path);
    }
    expect(await logHead(app.eventStoreConnectionString)).to.equal(before);
  });
});
