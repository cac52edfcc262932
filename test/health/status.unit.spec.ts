import { expect } from 'chai';
import { STATUS_CODES, OTHER_CODES, codeFitsType, type StatusCategory } from '../../src/health/codes';
import type { HealthStreamEvent } from '../../src/health/events';
import { DEFAULT_HEALTH_SETTINGS } from '../../src/health/settings';
import { evolveHealth, initialHealthState, type ReaderHealthState } from '../../src/health/state';
import { readerHealthAt, type ReaderHealth } from '../../src/health/status';

const T0 = Date.parse('2026-11-23T10:00:00.000Z');
const at = (sec: number): string => new Date(T0 + sec * 1000).toISOString();
const min = (m: number): number => m * 60;
const settings = DEFAULT_HEALTH_SETTINGS; // 10 s check-ins, 3 missed, 15 min window

const report = (code: string, sec: number, type?: string, args: Record<string, unknown> = {}): HealthStreamEvent => ({
  type: 'HealthEventReported',
  data: {
    readerName: 'r1',
    eventTime: at(sec),
    type: (type ?? (code in STATUS_CODES ? STATUS_CODES[code as keyof typeof STATUS_CODES].type : 'LIFECYCLE')) as never,
    code,
    args,
  },
});
const checkin = (sec: number, state: 'IDLE' | 'RUNNING_JOB' | 'UPDATING_FIRMWARE' | 'ERROR' = 'IDLE', App = '1.0'): HealthStreamEvent => ({
  type: 'AgentCheckedIn',
  data: { reader: 'r1', agentId: 'a1', versions: { App, Firmware: '7.0' }, state, at: at(sec) },
});

const given = (...events: HealthStreamEvent[]): ReaderHealthState => events.reduce(evolveHealth, initialHealthState('r1'));
const healthAt = (state: ReaderHealthState | undefined, sec: number, gatewayCheckin?: string): ReaderHealth =>
  readerHealthAt('r1', state, gatewayCheckin, new Date(T0 + sec * 1000), settings);

describe('reader health: status objects', () => {
  it('given no events, then every status object is HEALTHY with code null and devices []', () => {
    const h = healthAt(given(), 0);
    for (const c of ['connectionStatus', 'throughputStatus', 'clockSyncStatus', 'hardwareStatus', 'softwareStatus'] as const) {
      expect(h[c]).to.include({ status: 'HEALTHY', code: null });
    }
    expect(h.hardwareStatus.devices).to.deep.equal([]);
  });

  it('given each status code, then its status object takes the code with the severity of the table, others stay HEALTHY', () => {
    for (const [code, row] of Object.entries(STATUS_CODES)) {
      const h = healthAt(given(report(code, 0)), 1);
      expect(h[row.category], code).to.include({ status: row.severity, code });
      const others = (['connectionStatus', 'throughputStatus', 'clockSyncStatus', 'hardwareStatus', 'softwareStatus'] as StatusCategory[]).filter((c) => c !== row.category);
      for (const c of others) expect(h[c].status, `${code} ${c}`).to.equal('HEALTHY');
    }
  });

  it('severity table: transient codes are WARNING, the others FAILED', () => {
    const warning = Object.entries(STATUS_CODES).filter(([, r]) => r.severity === 'WARNING').map(([c]) => c).sort();
    expect(warning).to.deep.equal(
      ['COMMAND_NOT_FOUND', 'DROPPED_READ', 'HTTP_FAILURE', 'INVALID_SET_VARIABLE', 'NETWORK', 'NTP', 'READER_COMMAND', 'READER_EXCEPTION', 'REPORT_BUFFER', 'TAG_POPULATION_OVERFLOW', 'UNMARSHAL'],
    );
  });

  it('given codes without a status object (REBOOT, VERSION_UPDATE, HEALTH_RESET, KNOWN, UNKNOWN), then all stays HEALTHY', () => {
    for (const [code, type] of Object.entries(OTHER_CODES)) {
      const h = healthAt(given(report(code, 0, type)), 1);
      expect([h.connectionStatus, h.throughputStatus, h.clockSyncStatus, h.hardwareStatus, h.softwareStatus].every((s) => s.status === 'HEALTHY'), code).to.equal(true);
    }
  });

  it('given a WARNING then a FAILED code in one category, then FAILED wins even when the WARNING is newer', () => {
    const h = healthAt(given(report('HTTP_FAILURE', 0), report('BAD_CERTIFICATE', 10), report('NETWORK', 20)), 30);
    expect(h.connectionStatus).to.deep.equal({ status: 'FAILED', code: 'BAD_CERTIFICATE' });
  });

  it('given two codes of one severity, then the code is that of the newest eventTime (arrival order does not matter)', () => {
    expect(healthAt(given(report('DROPPED_READ', 0), report('REPORT_BUFFER', 10)), 20).throughputStatus.code).to.equal('REPORT_BUFFER');
    expect(healthAt(given(report('REPORT_BUFFER', 10), report('DROPPED_READ', 0)), 20).throughputStatus.code).to.equal('REPORT_BUFFER');
  });

  it('return to HEALTHY: a WARNING counts for the status window (15 min) after its eventTime, then the status is HEALTHY', () => {
    const s = given(report('NTP', 0));
    expect(healthAt(s, min(15) - 1).clockSyncStatus.status).to.equal('WARNING');
    expect(healthAt(s, min(15)).clockSyncStatus).to.deep.equal({ status: 'HEALTHY', code: null });
  });

  it('return to HEALTHY: an expired FAILED falls back to a WARNING still in the window, then to HEALTHY', () => {
    const s = given(report('CRASH', 0), report('UNMARSHAL', min(10)));
    expect(healthAt(s, min(14)).softwareStatus).to.deep.equal({ status: 'FAILED', code: 'CRASH' });
    expect(healthAt(s, min(16)).softwareStatus).to.deep.equal({ status: 'WARNING', code: 'UNMARSHAL' });
    expect(healthAt(s, min(26)).softwareStatus.status).to.equal('HEALTHY');
  });

  it('given a HEALTH_RESET, then older events count no more and newer ones do', () => {
    const s = given(report('READER_RESTART', 0), report('NTP', 5), report('HEALTH_RESET', 10), report('READER_COMMAND', 20));
    const h = healthAt(s, 30);
    expect(h.hardwareStatus).to.deep.equal({ status: 'WARNING', code: 'READER_COMMAND', devices: [] });
    expect(h.clockSyncStatus.status).to.equal('HEALTHY');
  });

  it('given an event whose eventTime is before a HEALTH_RESET but that arrives after it, then it is ignored', () => {
    const s = given(report('HEALTH_RESET', 10), report('BAD_CERTIFICATE', 5));
    expect(healthAt(s, 20).connectionStatus.status).to.equal('HEALTHY');
  });

  it('given an older HEALTH_RESET after a newer one, then the newer one stays in force', () => {
    const s = given(report('HEALTH_RESET', 20), report('HEALTH_RESET', 5), report('NETWORK', 10));
    expect(healthAt(s, 30).connectionStatus.status).to.equal('HEALTHY');
  });

  it('codes fit their own type only', () => {
    expect(codeFitsType('THROUGHPUT', 'DROPPED_READ')).to.equal(true);
    expect(codeFitsType('CONNECTION', 'DROPPED_READ')).to.equal(false);
    expect(codeFitsType('LIFECYCLE', 'HEALTH_RESET')).to.equal(true);
    expect(codeFitsType('UNCLASSIFIED', 'UNKNOWN')).to.equal(true);
    expect(codeFitsType('UNCLASSIFIED', 'NOPE')).to.equal(false);
  });
});

describe('reader health: lifecycle fields', () => {
  it('given a REBOOT, then lastReboot is its eventTime and lastRebootReason its args.reason; an older REBOOT does not go back', () => {
    const s = given(report('REBOOT', 50, 'LIFECYCLE', { reason: 'power' }), report('REBOOT', 10, 'LIFECYCLE', { reason: 'old' }));
    expect(healthAt(s, 60)).to.include({ lastReboot: at(50), lastRebootReason: 'power' });
  });

  it('given a check-in then a VERSION_UPDATE, then version is the check-in versions updated by newVersion', () => {
    expect(healthAt(given(checkin(0), report('VERSION_UPDATE', 1, 'LIFECYCLE', { newVersion: { Firmware: '8.0' } })), 2).version)
      .to.deep.equal({ App: '1.0', Firmware: '8.0' });
    expect(healthAt(given(checkin(0), report('VERSION_UPDATE', 1, 'LIFECYCLE', { newVersion: '2.0' })), 2).version)
      .to.deep.equal({ App: '2.0', Firmware: '7.0' });
  });

  it('given check-ins with and without a temperature, then temperature is the newest one reported, with its check-in time; null before any', () => {
    const warm = (sec: number, celsius: number): HealthStreamEvent => ({ type: 'AgentCheckedIn', data: { ...(checkin(sec).data as object), temperatureCelsius: celsius } as never });
    expect(healthAt(given(checkin(0)), 1).temperature).to.equal(null);
    expect(healthAt(given(warm(0, 38), checkin(60)), 61).temperature).to.deep.equal({ celsius: 38, at: at(0) });
    expect(healthAt(given(warm(0, 38), warm(60, 52.5)), 61).temperature).to.deep.equal({ celsius: 52.5, at: at(60) });
    // A state stored before temperatures existed has no field: null.
    const { temperature: _dropped, ...old } = given(checkin(0));
    expect(healthAt(old as ReaderHealthState, 1).temperature).to.equal(null);
  });

  it('given a later check-in, then version is what the agent reports', () => {
    expect(healthAt(given(report('VERSION_UPDATE', 1, 'LIFECYCLE', { newVersion: '2.0' }), checkin(5, 'IDLE', '3.0')), 6).version)
      .to.deep.equal({ App: '3.0', Firmware: '7.0' });
  });
});

describe('reader health: state', () => {
  it('given no check-in, then AWAITING_AGENT with lastCheckin null (even with health events)', () => {
    expect(healthAt(undefined, 0)).to.include({ state: 'AWAITING_AGENT', lastCheckin: null });
    expect(healthAt(given(report('CRASH', 0)), 1).state).to.equal('AWAITING_AGENT');
  });

  it('given check-ins with each agent state, then the state follows it', () => {
    expect(healthAt(given(checkin(0, 'IDLE')), 1).state).to.equal('IDLE');
    expect(healthAt(given(checkin(0, 'RUNNING_JOB')), 1).state).to.equal('RUNNING_JOB');
    expect(healthAt(given(checkin(0, 'UPDATING_FIRMWARE')), 1).state).to.equal('UPDATING_FIRMWARE');
    expect(healthAt(given(checkin(0, 'ERROR')), 1).state).to.equal('ERROR');
  });

  it('given a FAILED status object, then ERROR (but UPDATING_FIRMWARE wins: faults are expected while updating)', () => {
    expect(healthAt(given(checkin(0, 'RUNNING_JOB'), report('READER_RESTART', 1)), 2).state).to.equal('ERROR');
    expect(healthAt(given(checkin(0, 'UPDATING_FIRMWARE'), report('UPGRADE_STATUS', 1)), 2).state).to.equal('UPDATING_FIRMWARE');
    expect(healthAt(given(checkin(0, 'RUNNING_JOB'), report('DROPPED_READ', 1)), 2).state).to.equal('RUNNING_JOB');
  });

  it('given the FAILED status expired or reset, then back from ERROR to the agent state', () => {
    expect(healthAt(given(checkin(min(20)), report('READER_RESTART', 0)), min(20) + 1).state).to.equal('IDLE');
    expect(healthAt(given(checkin(20), report('READER_RESTART', 0), report('HEALTH_RESET', 10)), 21).state).to.equal('IDLE');
  });

  it('given no check-in for more than 3 intervals (30 s), then NOT_RESPONDING; exactly 30 s is still responding', () => {
    const s = given(checkin(0, 'RUNNING_JOB'));
    expect(healthAt(s, 30).state).to.equal('RUNNING_JOB');
    expect(healthAt(s, 31)).to.include({ state: 'NOT_RESPONDING', lastCheckin: at(0) });
  });

  it('NOT_RESPONDING wins over ERROR', () => {
    expect(healthAt(given(checkin(0, 'ERROR')), 100).state).to.equal('NOT_RESPONDING');
  });

  it('given a fresher check-in from the gateway (Redis), then it counts: responding again, lastCheckin is the newest', () => {
    const s = given(checkin(0, 'IDLE'));
    expect(healthAt(s, 100, at(95))).to.include({ state: 'IDLE', lastCheckin: at(95) });
    expect(healthAt(undefined, 100, at(95))).to.include({ state: 'IDLE', lastCheckin: at(95) });
  });
});
