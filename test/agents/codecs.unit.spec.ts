import { expect } from 'chai';
import * as E from 'fp-ts/Either';
import { CheckinBody, FeatureProgressBody, normaliseReport, TagReportBody } from '../../src/agents/codecs';
import { Observation, TagsReportedData } from '../../src/agents/events';
import { checkinIsNews, refusalOf } from '../../src/agents/gateway';
import { ALL_HEALTH_CODES, HEALTH_CODES, HealthEventsBody, statusPropertyOfCode } from '../../src/agents/health-codes';
import { formatDecodeErrors } from '../../src/core/decode-errors';
import type { Assignment } from '../../src/agents/assignment';

const paths = <A>(r: E.Either<import('io-ts').Errors, A>): string[] => (E.isLeft(r) ? formatDecodeErrors(r.left, 'body').map((e) => e.path) : []);

const obs = (over: Record<string, unknown> = {}) => ({
  epc: 'e28011606000020abc', antennaId: 3, peakRssi: -52.5, readCount: 4,
  firstSeen: '2026-11-23T10:00:01.000Z', lastSeen: '2026-11-23T10:00:04.000Z', ...over,
});
const report = (over: Record<string, unknown> = {}) => ({
  reportId: 'C0A80101-0000-4000-8000-000000000001', jobId: 'job-1',
  from: '2026-11-23T10:00:00.000Z', to: '2026-11-23T10:00:05.000Z', observations: [obs()], ...over,
});

describe('agent codecs', () => {
  describe('tag report', () => {
    it('decodes a report; EPC upper-cased, reportId lower-cased, absent tid/x/y become null', () => {
      const r = TagReportBody.decode(report());
      expect(E.isRight(r)).to.equal(true);
      if (E.isLeft(r)) return;
      const { report: n, errors } = normaliseReport(r.right);
      expect(errors).to.deep.equal([]);
      expect(n.reportId).to.equal('c0a80101-0000-4000-8000-000000000001');
      expect(n.observations[0]).to.deep.equal({ ...obs(), epc: 'E28011606000020ABC', tid: null, x: null, y: null });
      expect(E.isRight(Observation.decode(n.observations[0]))).to.equal(true);
    });
    it('accepts polarized antenna ids, tid hex, x/y numbers', () => {
      for (const antennaId of [1, 52, 1001, 1052, 2001, 2052]) {
        expect(paths(TagReportBody.decode(report({ observations: [obs({ antennaId, tid: 'E2003412', x: 1.5, y: -2 })] }))), String(antennaId)).to.deep.equal([]);
      }
    });
    const bad: Array<[string, Record<string, unknown>, string]> = [
      ['epc not hex', { observations: [obs({ epc: 'XYZ' })] }, 'body.observations.0.epc'],
      ['epc empty', { observations: [obs({ epc: '' })] }, 'body.observations.0.epc'],
      ['tid not hex', { observations: [obs({ tid: 'nope' })] }, 'body.observations.0.tid'],
      ['antenna 0', { observations: [obs({ antennaId: 0 })] }, 'body.observations.0.antennaId'],
      ['antenna 53', { observations: [obs({ antennaId: 53 })] }, 'body.observations.0.antennaId'],
      ['antenna 1053', { observations: [obs({ antennaId: 1053 })] }, 'body.observations.0.antennaId'],
      ['antenna 2.5', { observations: [obs({ antennaId: 2.5 })] }, 'body.observations.0.antennaId'],
      ['readCount 0', { observations: [obs({ readCount: 0 })] }, 'body.observations.0.readCount'],
      ['peakRssi string', { observations: [obs({ peakRssi: '-50' })] }, 'body.observations.0.peakRssi'],
      ['firstSeen not ISO', { observations: [obs({ firstSeen: 'yesterday' })] }, 'body.observations.0.firstSeen'],
      ['x string', { observations: [obs({ x: '1' })] }, 'body.observations.0.x'],
      ['reportId not uuid', { reportId: 'r1' }, 'body.reportId'],
      ['jobId missing', { jobId: undefined }, 'body.jobId'],
      ['observations not array', { observations: {} }, 'body.observations'],
    ];
    for (const [label, over, path] of bad) {
      it(`refuses ${label} at ${path}`, () => {
        expect(paths(TagReportBody.decode(report(over)))).to.include(path);
      });
    }
    it('refuses firstSeen after lastSeen and from after to, at the later field', () => {
      const r = TagReportBody.decode(report({ from: '2026-11-23T10:00:06.000Z', observations: [obs(), obs({ firstSeen: '2026-11-23T10:00:05.000Z' })] }));
      if (E.isLeft(r)) return expect.fail('should decode');
      expect(normaliseReport(r.right).errors.map((e) => e.path)).to.deep.equal(['body.to', 'body.observations.1.lastSeen']);
    });
    it('the stored event data codec round-trips', () => {
      const data = { reader: 'r1', jobId: 'j', facility: 'DEFAULT', from: report().from, to: report().to, observations: [{ ...obs(), tid: null, x: null, y: null }] };
      const r = TagsReportedData.decode(JSON.parse(JSON.stringify(TagsReportedData.encode(data))));
      expect(E.isRight(r) && r.right.observations[0]?.epc).to.equal('E28011606000020ABC');
    });
  });

  describe('check-in', () => {
    it('decodes; refuses an unknown state and empty agentId', () => {
      expect(E.isRight(CheckinBody.decode({ agentId: 'a', versions: { App: '1', Firmware: '2' }, state: 'IDLE', features: { ANTENNA_HUB: 'DISABLED' } }))).to.equal(true);
      expect(paths(CheckinBody.decode({ agentId: '', versions: { App: '1' }, state: 'SLEEPING' }))).to.have.members(['body.agentId', 'body.versions.Firmware', 'body.state']);
    });
    const base = { agentId: 'a', versions: { App: '1', Firmware: '2' }, state: 'IDLE' as const };
    const at = new Date('2026-11-23T10:00:00.000Z');
    const last = { ...base, at: at.toISOString() };
    it('is news the first time, on a change, and after a minute', () => {
      expect(checkinIsNews(undefined, base, at)).to.equal(true);
      expect(checkinIsNews(last, base, new Date(at.getTime() + 59_999))).to.equal(false);
      expect(checkinIsNews(last, { ...base, versions: { Firmware: '2', App: '1' } }, at), 'key order').to.equal(false);
      expect(checkinIsNews(last, { ...base, state: 'RUNNING_JOB' }, at)).to.equal(true);
      expect(checkinIsNews(last, { ...base, agentId: 'b' }, at)).to.equal(true);
      expect(checkinIsNews(last, { ...base, versions: { App: '1', Firmware: '3' } }, at)).to.equal(true);
      expect(checkinIsNews(last, base, new Date(at.getTime() + 60_000))).to.equal(true);
    });
  });

  describe('report acceptance', () => {
    const a = (over: Partial<Assignment> = {}): Assignment => ({
      jobId: 'j1', facility: 'DEFAULT', status: 'RUNNING', acknowledged: true, recipe: {}, readerConfiguration: {}, readerDefinition: {}, ...over,
    });
    it('accepts an acknowledged STARTING or RUNNING assignment of that job only', () => {
      expect(refusalOf(a(), 'j1')).to.equal(undefined);
      expect(refusalOf(a({ status: 'STARTING' }), 'j1')).to.equal(undefined);
      expect(refusalOf(undefined, 'j1')?.reason).to.equal('NOT_ASSIGNED');
      expect(refusalOf(a(), 'j2')?.reason).to.equal('OTHER_JOB');
      expect(refusalOf(a({ status: 'STARTING', acknowledged: false }), 'j1')?.reason).to.equal('NOT_ACKNOWLEDGED');
    });
  });

  describe('health events', () => {
    it('accepts every code under its type; args default to {}', () => {
      for (const [type, codes] of Object.entries(HEALTH_CODES)) {
        for (const code of codes) {
          const r = HealthEventsBody.decode({ events: [{ eventTime: '2026-11-23T10:00:00Z', type, code }] });
          expect(E.isRight(r) && r.right.events[0]?.args, `${type}/${code}`).to.deep.equal({});
        }
      }
      expect(ALL_HEALTH_CODES).to.have.length(27);
    });
    it('refuses an unknown type, a code of another type, a bad time, naming the field', () => {
      const r = HealthEventsBody.decode({
        events: [
          { eventTime: '2026-11-23T10:00:00Z', type: 'WEATHER', code: 'NTP' },
          { eventTime: '2026-11-23T10:00:00Z', type: 'CONNECTION', code: 'NTP' },
          { eventTime: 'now', type: 'CLOCK_SYNC', code: 'NTP' },
        ],
      });
      expect(paths(r)).to.deep.equal(['body.events.0.type', 'body.events.1.code', 'body.events.2.eventTime']);
      if (E.isLeft(r)) expect(formatDecodeErrors(r.left)[1]?.reason).to.contain('BAD_CERTIFICATE, HTTP_FAILURE, NETWORK');
    });
    it('maps codes to status objects', () => {
      expect(statusPropertyOfCode('NTP')).to.equal('clockSyncStatus');
      expect(statusPropertyOfCode('CRASH')).to.equal('softwareStatus');
      expect(statusPropertyOfCode('REBOOT')).to.equal(null);
      expect(statusPropertyOfCode('UNKNOWN')).to.equal(null);
    });
  });

  describe('feature progress', () => {
    it('decodes the three forms and refuses others', () => {
      for (const b of [{ progress: 'TAKEN' }, { progress: 'COMPLETED', status: 'ENABLED' }, { progress: 'COMPLETED' }, { progress: 'FAILED', message: 'x' }]) {
        expect(E.isRight(FeatureProgressBody.decode(b)), JSON.stringify(b)).to.equal(true);
      }
      expect(E.isRight(FeatureProgressBody.decode({ progress: 'DONE' }))).to.equal(false);
      expect(E.isRight(FeatureProgressBody.decode({ progress: 'COMPLETED', status: 'ON' }))).to.equal(false);
    });
    it('refuses a wrong-typed status or message with any progress, naming the field', () => {
      for (const progress of ['TAKEN', 'COMPLETED', 'FAILED']) {
        expect(paths(FeatureProgressBody.decode({ progress, status: 'ON' })), progress).to.deep.equal(['body.status']);
        expect(paths(FeatureProgressBody.decode({ progress, message: 42 })), progress).to.deep.equal(['body.message']);
      }
    });
  });
});
