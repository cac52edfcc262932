// The simulated agent performing UPGRADE and TIME_SYNC commands on a fake
// clock against a scripted service: the HTTP calls it makes, in order, with
// their timing; and the options and scenario fields that configure it.
import { expect } from 'chai';
import { createLogger } from '../../src/core/logger';
import { SimAgent } from '../../src/simulator/agent';
import { HttpClient } from '../../src/simulator/http';
import { generateLayout } from '../../src/simulator/layout';
import { OptionsError, parseOptions } from '../../src/simulator/options';
import { decodeScenario, ScenarioError } from '../../src/simulator/scenario';
import { Stats } from '../../src/simulator/stats';
import type { UpgradeFault } from '../../src/simulator/upgrade';
import { World } from '../../src/simulator/world';
import { FakeClock, recordingTransport } from './support';

const BASE = 'http://sim.test/itemsense';
const layout = generateLayout({ facility: 'DEFAULT', readers: 1, families: ['XARRAY'], tags: 0, seed: 1, prefix: 'sim-' });
const reader = layout.readers[0]!;
const path = `/agent/v1/readers/${reader.name}`;
const SUM = 'ab'.repeat(32);

function agentWith(command: { id: string; type: string; args: Record<string, unknown> }, faults: UpgradeFault[] = []) {
  const clock = new FakeClock();
  let served = false;
  const { transport, calls } = recordingTransport(clock, BASE, (c) => {
    if (c.path.endsWith('/checkin')) {
      const commands = served ? [] : [command];
      served = true;
      return { status: 200, body: { checkinIntervalSeconds: 10, assignment: null, featureChanges: [], commands } };
    }
    return { status: 204, body: undefined };
  });
  const agent = new SimAgent({
    reader, world: World.random(layout, 1), seed: 1, http: new HttpClient(BASE, 'Agent x', transport), clock, stats: new Stats(clock.now()),
    log: createLogger('test', {}), faultRates: {}, scriptedFaults: [], t0: clock.now(), timeScale: 1, upgradeMs: 10_000, upgradeFaults: faults,
  });
  const stop = new AbortController();
  const done = agent.run(stop.signal);
  const t0 = clock.now();
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const seen = () => calls.map((c) => ({ at: c.at - t0, path: c.path.slice(path.length), body: c.body as any }));
  return { clock, agent, seen, finish: async () => { stop.abort(); await done; } };
}

const upgrade = (args: Record<string, unknown> = {}) => ({ id: 'cmd-1', type: 'UPGRADE', args: { versionIdentifier: '8.0.0', imageType: 'FIRMWARE_READER', checksum: SUM, ...args } });

describe('simulated agent: UPGRADE and TIME_SYNC', () => {
  it('upgrade: UPDATING_FIRMWARE at once, VERSION_UPDATE then DONE after the duration, then a check-in with the new firmware', async () => {
    const a = agentWith(upgrade());
    await a.clock.advance(11_000);
    await a.finish();
    const calls = a.seen();
    const checkins = calls.filter((c) => c.path === '/checkin');
    expect(checkins[0]!.body).to.deep.include({ state: 'IDLE', versions: { App: 'sim-0.1.0', Firmware: '7.6.1' } });
    expect(checkins[1]).to.deep.include({ at: 0 });
    expect(checkins[1]!.body.state).to.equal('UPDATING_FIRMWARE');
    const rest = calls.filter((c) => c.path !== '/checkin');
    expect(rest.map((c) => [c.at, c.path])).to.deep.equal([[10_000, '/health'], [10_000, '/commands/cmd-1']]);
    expect(rest[0]!.body.events[0]).to.deep.include({ type: 'LIFECYCLE', code: 'VERSION_UPDATE', args: { newVersion: { Firmware: '8.0.0' } } });
    expect(rest[1]!.body).to.deep.equal({ result: 'DONE', message: 'upgraded to FIRMWARE_READER 8.0.0' });
    // Every check-in until the result says UPDATING_FIRMWARE; the one right after it the new firmware.
    expect(checkins.filter((c) => c.at > 0 && c.at < 10_000).every((c) => c.body.state === 'UPDATING_FIRMWARE')).to.equal(true);
    const last = calls.at(-1)!;
    expect(last).to.deep.include({ at: 10_000, path: '/checkin' });
    expect(last.body).to.deep.include({ state: 'IDLE', versions: { App: 'sim-0.1.0', Firmware: '8.0.0' } });
    expect(a.agent.reportedVersions.Firmware).to.equal('8.0.0');
  });

  it('CHECKSUM: the corrupt download is found after 20 % of the duration; SOFTWARE_FAULT CHECKSUM, FAILED, version kept', async () => {
    const a = agentWith(upgrade(), ['CHECKSUM']);
    await a.clock.advance(11_000);
    await a.finish();
    const calls = a.seen().filter((c) => c.path !== '/checkin');
    expect(calls.map((c) => [c.at, c.path])).to.deep.equal([[2_000, '/health'], [2_000, '/commands/cmd-1']]);
    expect(calls[0]!.body.events[0]).to.deep.include({ type: 'SOFTWARE_FAULT', code: 'CHECKSUM' });
    expect(calls[1]!.body.result).to.equal('FAILED');
    expect(calls[1]!.body.message).to.contain(`expected ${SUM}`);
    expect(a.agent.reportedVersions.Firmware).to.equal('7.6.1');
  });

  it('UPGRADE_STATUS: the install fails at the end; HARDWARE_FAULT UPGRADE_STATUS, FAILED', async () => {
    const a = agentWith(upgrade({ imageType: 'CAP_SERVICE' }), ['UPGRADE_STATUS']);
    await a.clock.advance(11_000);
    await a.finish();
    const calls = a.seen().filter((c) => c.path !== '/checkin');
    expect(calls.map((c) => [c.at, c.path])).to.deep.equal([[10_000, '/health'], [10_000, '/commands/cmd-1']]);
    expect(calls[0]!.body.events[0]).to.deep.include({ type: 'HARDWARE_FAULT', code: 'UPGRADE_STATUS' });
    expect(calls[1]!.body.result).to.equal('FAILED');
    expect(a.agent.reportedVersions.App).to.equal('sim-0.1.0');
  });

  it('an UPGRADE without a checksum fails verification', async () => {
    const a = agentWith(upgrade({ checksum: undefined }));
    await a.clock.advance(3_000);
    await a.finish();
    expect(a.seen().find((c) => c.path === '/commands/cmd-1')!.body.result).to.equal('FAILED');
  });

  it('TIME_SYNC answers DONE with the offset', async () => {
    const a = agentWith({ id: 'sync-1', type: 'TIME_SYNC', args: {} });
    await a.clock.advance(100);
    await a.finish();
    expect(a.seen().find((c) => c.path === '/commands/sync-1')!.body).to.deep.equal({ result: 'DONE', message: 'clock synchronised; offset was 0 ms' });
  });

  it('options --upgrade-seconds and --upgrade-failures; scenario upgrades', () => {
    const o = parseOptions(['--upgrade-seconds', '2.5', '--upgrade-failures', 'r1=checksum, r2=UPGRADE_STATUS']);
    expect(o.upgradeSeconds).to.equal(2.5);
    expect(o.upgradeFailures).to.deep.equal([{ reader: 'r1', fault: 'CHECKSUM' }, { reader: 'r2', fault: 'UPGRADE_STATUS' }]);
    expect(parseOptions([]).upgradeSeconds).to.equal(null);
    expect(() => parseOptions(['--upgrade-failures', 'r1=FIRE'])).to.throw(OptionsError, /--upgrade-failures: expected READER=CHECKSUM\|UPGRADE_STATUS/);
    expect(() => parseOptions(['--upgrade-seconds', '-1'])).to.throw(OptionsError, /--upgrade-seconds/);

    const doc = {
      zones: [{ name: 'A', points: [{ x: 0, y: 0 }, { x: 5, y: 5 }] }],
      readers: [{ name: 'r1', family: 'XARRAY', placement: { x: 2, y: 2 } }],
      tags: [], timeline: [],
      upgrades: { seconds: 4, failures: [{ reader: 'r1', fault: 'CHECKSUM' }] },
    };
    expect(decodeScenario(doc).upgrades).to.deep.equal({ seconds: 4, failures: [{ reader: 'r1', fault: 'CHECKSUM' }] });
    expect(decodeScenario({ ...doc, upgrades: undefined }).upgrades).to.deep.equal({ seconds: null, failures: [] });
    try {
      decodeScenario({ ...doc, upgrades: { failures: [{ reader: 'r9', fault: 'CHECKSUM' }] } });
      expect.fail('expected a ScenarioError');
    } catch (err) {
      expect(err).to.be.instanceOf(ScenarioError);
      expect((err as ScenarioError).errors).to.deep.include({ path: 'upgrades.failures.0.reader', reason: 'no reader named "r9" in readers' });
    }
  });
});
