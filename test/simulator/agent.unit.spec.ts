// The agent against a scripted service on a fake clock: check-in,
// acknowledgement, one report per reporting window, health events for
// faults, feature changes.
import { expect } from 'chai';
import { SimAgent } from '../../src/simulator/agent';
import { ReportSchedule, reportingIntervalMs } from '../../src/simulator/clock';
import { HttpClient, type HttpAnswer } from '../../src/simulator/http';
import { generateLayout } from '../../src/simulator/layout';
import type { ScriptedFault } from '../../src/simulator/scenario';
import { Stats } from '../../src/simulator/stats';
import { World } from '../../src/simulator/world';
import { createLogger } from '../../src/core/logger';
import { FakeClock, recordingTransport, type Call } from './support';

const BASE = 'http://sim.test/itemsense';
const layout = generateLayout({ facility: 'DEFAULT', readers: 1, families: ['SPEEDWAY'], tags: 20, seed: 1, prefix: 'sim-' });
const reader = layout.readers[0]!;
const assignment = (acknowledged: boolean, reportingInterval = 0) => ({
  jobId: 'job-1', facility: 'DEFAULT', status: 'RUNNING', acknowledged,
  recipe: { name: 'r', type: 'INVENTORY', reportingInterval },
  readerConfiguration: { name: 'c', operation: 'INVENTORY', configuration: { readerMode: 'MAX_THROUGHPUT', session: 2, searchMode: 'DUAL_TARGET' } },
  readerDefinition: { name: reader.name },
});

function setup(service: (c: Call, n: number) => HttpAnswer | undefined, faultRates = {}, scriptedFaults: ScriptedFault[] = []) {
  const clock = new FakeClock();
  let n = 0;
  const { transport, calls } = recordingTransport(clock, BASE, (c) => service(c, n++) ?? { status: 204, body: undefined });
  const stats = new Stats(clock.now());
  const agent = new SimAgent({
    reader, world: World.random(layout, 1), seed: 1, http: new HttpClient(BASE, 'Agent x', transport), clock, stats,
    log: createLogger('test', {}), faultRates, scriptedFaults, t0: clock.now(), timeScale: 1,
  });
  const stop = new AbortController();
  const done = agent.run(stop.signal);
  return { clock, calls, stats, agent, finish: async () => { stop.abort(); await done; } };
}

const path = `/agent/v1/readers/${reader.name}`;

describe('simulator report scheduling', () => {
  it('reportingInterval 0 means 500 ms, others seconds', () => {
    expect(reportingIntervalMs(0)).to.equal(500);
    expect(reportingIntervalMs(5)).to.equal(5000);
    expect(reportingIntervalMs(undefined)).to.equal(5000);
  });

  it('windows are aligned on the start and missed ones are skipped', () => {
    const s = new ReportSchedule(1000, 500);
    expect(s.dueAt()).to.equal(1500);
    expect(s.take(1500)).to.deep.equal({ index: 0, from: 1000, to: 1500 });
    expect(s.dueAt()).to.equal(2000);
    expect(s.take(2010)).to.deep.equal({ index: 1, from: 1500, to: 2000 });
    expect(s.take(4700)).to.deep.equal({ index: 6, from: 4000, to: 4500 }); // held up: the latest complete window
    expect(s.dueAt()).to.equal(5000);
  });
});

describe('simulator agent (fake clock)', () => {
  it('checks in, acknowledges, then reports every 500 ms window with consecutive from/to', async () => {
    let acked = false;
    const t = setup((c) => {
      if (c.path.endsWith('/checkin')) return { status: 200, body: { checkinIntervalSeconds: 10, assignment: assignment(acked, 0), featureChanges: [], commands: [] } };
      if (c.path.endsWith('/ack')) {
        acked = true;
        return { status: 204, body: undefined };
      }
      if (c.path.endsWith('/reports')) return { status: 200, body: { duplicate: false } };
      return undefined;
    });
    await t.clock.advance(3_000);
    await t.finish();
    const checkin = t.calls.find((c) => c.path === `${path}/checkin`)!;
    expect(checkin.body).to.deep.include({ state: 'IDLE', features: { ANTENNA_HUB: 'DISABLED' } });
    expect(t.calls.filter((c) => c.path === `${path}/assignments/job-1/ack`)).to.have.length(1);
    const reports = t.calls.filter((c) => c.path === `${path}/reports`).map((c) => c.body as { from: string; to: string; jobId: string; reportId: string; observations: unknown[] });
    expect(reports).to.have.length(6);
    const start = t.calls[0]!.at;
    reports.forEach((r, i) => {
      expect(r.jobId).to.equal('job-1');
      expect(Date.parse(r.from)).to.equal(start + i * 500);
      expect(Date.parse(r.to)).to.equal(start + (i + 1) * 500);
    });
    expect(new Set(reports.map((r) => r.reportId)).size).to.equal(6);
    expect(t.stats.totals()).to.include({ checkins: 1, reportsSent: 6, reportsAccepted: 6, errors: 0 });
  });

  it('honours the check-in interval and stops reading when the assignment ends', async () => {
    let checkins = 0;
    const t = setup((c) => {
      if (c.path.endsWith('/checkin')) {
        checkins++;
        return { status: 200, body: { checkinIntervalSeconds: 2, assignment: checkins <= 2 ? assignment(true, 1) : null } };
      }
      return { status: 200, body: {} };
    });
    await t.clock.advance(10_000);
    await t.finish();
    expect(checkins).to.equal(6); // 0, 2, 4, 6, 8, 10 s
    const reports = t.calls.filter((c) => c.path.endsWith('/reports'));
    // The third check-in (4 s) ends the job; it comes before the report due at the same instant.
    expect(reports.map((r) => r.at - t.calls[0]!.at)).to.deep.equal([1000, 2000, 3000]);
  });

  it('counts refused reports (409)', async () => {
    const t = setup((c) => {
      if (c.path.endsWith('/checkin')) return { status: 200, body: { assignment: assignment(true, 1) } };
      if (c.path.endsWith('/reports')) return { status: 409, body: { message: 'not in a running job', errors: [{ path: 'body.jobId', reason: 'NOT_ASSIGNED' }] } };
      return undefined;
    });
    await t.clock.advance(3_000);
    await t.finish();
    expect(t.stats.totals()).to.include({ reportsSent: 3, reportsRefused: 3, reportsAccepted: 0 });
  });

  it('a network fault resends the same report (same reportId) and posts a CONNECTION/NETWORK health event', async () => {
    const t = setup((c) => {
      if (c.path.endsWith('/checkin')) return { status: 200, body: { assignment: assignment(true, 1) } };
      if (c.path.endsWith('/reports')) return { status: 200, body: {} };
      return undefined;
    }, { network: 1 });
    await t.clock.advance(1_000);
    await t.finish();
    const reports = t.calls.filter((c) => c.path.endsWith('/reports')).map((c) => c.body as { reportId: string });
    expect(reports).to.have.length(2);
    expect(reports[0]!.reportId).to.equal(reports[1]!.reportId);
    const health = t.calls.filter((c) => c.path.endsWith('/health')).map((c) => (c.body as { events: Array<{ type: string; code: string }> }).events[0]);
    expect(health).to.deep.include.members([{ ...health[0]!, type: 'CONNECTION', code: 'NETWORK' }]);
    expect(t.stats.totals()).to.include({ reportsRetried: 1, reportsAccepted: 1 });
  });

  it('keeps reports the service answers 503 (or does not answer) and sends them again in order, same reportId, once it takes them', async () => {
    let down = true;
    const t = setup((c) => {
      if (c.path.endsWith('/checkin')) return { status: 200, body: { checkinIntervalSeconds: 10, assignment: assignment(true, 1) } };
      if (c.path.endsWith('/reports')) {
        if (!down) return { status: 200, body: {} };
        return { status: 503, body: { message: 'Redis is not reachable; retry shortly', errors: [] } };
      }
      return undefined;
    });
    await t.clock.advance(3_000);
    const whileDown = t.calls.filter((c) => c.path.endsWith('/reports')).map((c) => (c.body as { reportId: string }).reportId);
    // Each tick tries the oldest kept report first and stops there: nothing is skipped.
    expect(new Set(whileDown).size).to.equal(1);
    expect(t.stats.totals()).to.include({ reportsSent: 3, reportsAccepted: 0, errors: 0 });
    down = false;
    await t.clock.advance(1_000);
    await t.finish();
    const accepted = t.calls.filter((c) => c.path.endsWith('/reports')).slice(whileDown.length).map((c) => c.body as { reportId: string; from: string });
    expect(accepted).to.have.length(4);
    expect(accepted[0]!.reportId).to.equal(whileDown[0]);
    expect(accepted.map((r) => Date.parse(r.from))).to.deep.equal([...accepted.map((r) => Date.parse(r.from))].sort((x, y) => x - y));
    expect(t.stats.totals()).to.include({ reportsSent: 4, reportsAccepted: 4, reportsRetried: 1, errors: 0 });
  });

  it('not responding: no check-in and no report for a while, then back', async () => {
    let checkins = 0;
    const t = setup((c) => {
      if (c.path.endsWith('/checkin')) {
        checkins++;
        return { status: 200, body: { checkinIntervalSeconds: 1, assignment: null } };
      }
      return undefined;
    }, { 'not-responding': 0.3 });
    await t.clock.advance(120_000);
    await t.finish();
    const times = t.calls.filter((c) => c.path.endsWith('/checkin')).map((c) => c.at);
    const gaps = times.slice(1).map((x, i) => x - times[i]!);
    expect(Math.max(...gaps)).to.be.at.least(8_000); // 3 missed intervals + 5 s
    expect(checkins).to.be.greaterThan(10);
  });

  it('takes a feature change and completes it (TAKEN then COMPLETED), and reports the new status at check-in', async () => {
    let n = 0;
    const t = setup((c) => {
      if (c.path.endsWith('/checkin')) return { status: 200, body: { checkinIntervalSeconds: 2, assignment: null, featureChanges: n++ === 0 ? [{ feature: 'ANTENNA_HUB', target: 'ENABLED' }] : [] } };
      return undefined;
    });
    await t.clock.advance(2_500);
    await t.finish();
    const progress = t.calls.filter((c) => c.path === `${path}/features/ANTENNA_HUB`).map((c) => c.body);
    expect(progress).to.deep.equal([{ progress: 'TAKEN' }, { progress: 'COMPLETED', status: 'ENABLED' }]);
    const last = t.calls.filter((c) => c.path.endsWith('/checkin')).pop()!;
    expect((last.body as { features: unknown }).features).to.deep.equal({ ANTENNA_HUB: 'ENABLED' });
  });

  it('reboots on a REBOOT command: result DONE, silence, then a LIFECYCLE REBOOT event with the reason', async () => {
    let n = 0;
    const t = setup((c) => {
      if (c.path.endsWith('/checkin')) return { status: 200, body: { checkinIntervalSeconds: 1, assignment: null, commands: n++ === 0 ? [{ id: 'cmd-1', type: 'REBOOT' }] : [] } };
      return undefined;
    });
    await t.clock.advance(8_000);
    await t.finish();
    expect(t.calls.find((c) => c.path === `${path}/commands/cmd-1`)!.body).to.deep.equal({ result: 'DONE' });
    const reboot = t.calls.find((c) => c.path.endsWith('/health'))!;
    expect(reboot.at - t.calls[0]!.at).to.equal(5_000);
    const ev = (reboot.body as { events: Array<Record<string, unknown>> }).events[0]!;
    expect(ev).to.include({ type: 'LIFECYCLE', code: 'REBOOT' });
    expect((ev['args'] as { reason: string }).reason).to.match(/cmd-1/);
    const checkinTimes = t.calls.filter((c) => c.path.endsWith('/checkin')).map((c) => c.at - t.calls[0]!.at);
    expect(checkinTimes.filter((x) => x > 0 && x < 5_000)).to.deep.equal([]);
  });
});

describe('simulator agent: scripted faults', () => {
  it('a scenario ntp fault skews the next report and posts CLOCK_SYNC/NTP; a restart silences the reader and posts READER_RESTART', async () => {
    const t = setup((c) => {
      if (c.path.endsWith('/checkin')) return { status: 200, body: { assignment: assignment(true, 1) } };
      if (c.path.endsWith('/reports')) return { status: 200, body: {} };
      return undefined;
    }, {}, [{ reader: reader.name, at: 2.5, fault: 'ntp', seconds: null }, { reader: reader.name, at: 5.5, fault: 'restart', seconds: 3 }]);
    await t.clock.advance(10_000);
    await t.finish();
    const start = t.calls[0]!.at;
    const reports = t.calls.filter((c) => c.path.endsWith('/reports')).map((c) => ({ at: c.at - start, from: Date.parse((c.body as { from: string }).from) - start }));
    // windows 0-1 and 1-2 s as usual; the next one (2-3 s, sent at 3 s) is skewed; then normal again
    expect(reports.slice(0, 2).map((r) => r.from)).to.deep.equal([0, 1000]);
    expect(reports[2]!.at).to.equal(3000);
    expect(reports[2]!.from).to.not.equal(2000);
    expect(reports[3]!.from).to.equal(3000);
    // none while restarting (5.5-8.5 s); the window 8-9 s is reported again
    expect(reports.filter((r) => r.at > 5_500 && r.at < 8_500)).to.deep.equal([]);
    expect(reports.filter((r) => r.at >= 9_000).map((r) => r.from)).to.deep.equal([8000, 9000]);
    const codes = t.calls.filter((c) => c.path.endsWith('/health')).map((c) => (c.body as { events: Array<{ code: string }> }).events[0]!.code);
    expect(codes).to.deep.equal(['NTP', 'READER_RESTART']);
  });
});

describe('simulator agent determinism', () => {
  it('the same seed gives the same reports (observations), whatever the report ids', async () => {
    const run = async (): Promise<unknown[]> => {
      const t = setup((c) => {
        if (c.path.endsWith('/checkin')) return { status: 200, body: { assignment: assignment(true, 1) } };
        if (c.path.endsWith('/reports')) return { status: 200, body: {} };
        return undefined;
      }, { 'dropped-reads': 0.3 });
      await t.clock.advance(20_000);
      await t.finish();
      return t.calls.filter((c) => c.path.endsWith('/reports') || c.path.endsWith('/health')).map((c) => {
        const { reportId: _id, ...rest } = c.body as Record<string, unknown>;
        return { path: c.path, at: c.at, ...rest };
      });
    };
    const [a, b] = [await run(), await run()];
    expect(a.length).to.be.greaterThan(20);
    expect(a.some((c) => ((c as { observations?: unknown[] }).observations ?? []).length > 0)).to.equal(true);
    expect(a.some((c) => (c as { path: string }).path.endsWith('/health'))).to.equal(true);
    expect(a).to.deep.equal(b);
  });
});
