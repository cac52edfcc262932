// Crash test of the item engine, the whole service as a child process
// (`node --require tsx/cjs src/main.ts`): tag reports flow through the agent
// API of a running INVENTORY job, the process is SIGKILLed once the engine has
// written some ItemsChanged, right after a report of 2,000 more tags was
// accepted (deciding it takes the engine longer than the kill), and restarted
// on the same data directory and Redis prefix. The kill must have been
// mid-stream: the last ItemsChanged the killed run wrote (its inputPosition is
// the restarted engine's resumeAfter) does not cover the last tag report
// stored before the kill. When the engine happened to have covered
// everything, the kill is tried again (at most MAX_KILLS times). Then the
// rest of the reports are posted. Once the engine has caught
// up (its last inputPosition covers the last stored report), ENGINE_STREAM
// must hold, per EPC, exactly the history the stored reports imply (no gap,
// no duplicate), and no two ItemsChanged may cover overlapping input.
//
// Reports: EPCs move between two antenna zones; the peak RSSI grows with every
// round by more than the INVENTORY hysteresis margin, so the newest read always
// wins and the expected zone of a tag is that of its latest read, whatever the
// compute window holds.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EventStoreDBClient } from '@eventstore/db-client';
import { expect } from 'chai';
import { agentAuthorization } from '../../src/agents/guard';
import { tagReportEvents, tagReportsStream } from '../../src/agents/events';
import { readStream } from '../../src/core/eventstore';
import { ENGINE_STREAM, itemEvents } from '../../src/engine/events';
import { replayEngine } from '../../src/engine/replay';
import { MAX_CHANGES_PER_EVENT } from '../../src/engine/output';
import { replaySummary } from '../../scripts/replay';
import { silent } from '../support/logger';
import { INVENTORY_HYSTERESIS_DB } from '../../src/engine/inventory';
import { ADMIN } from '../support/app';
import { childEnv, runEntryPoint, serviceUp, type LogLine, type RunningProcess, CHILD_START_MS } from '../support/tagtrailProcess';
import { removeRedisKeys, testRedisPrefix } from '../support/redis-prefix';
import { sleep } from '../support/wait';
import { mix } from './live-job';

const READER = 'crash-1';
const AGENT = `/agent/v1/readers/${READER}`;
const ZONES: Record<number, string> = { 1: 'DOCK', 2: 'SHELF' };
const EPCS = 24;
const ROUNDS_AFTER = 30;
const MAX_ROUNDS_BEFORE = 400;
const MAX_KILLS = 5;
const CROWD = 2_000;
const crowdEpc = (r: number, k: number): string => `E28011606000D${(r * CROWD + k).toString(16).toUpperCase().padStart(11, '0')}`;
const epc = (n: number): string => `E28011606000C${n.toString(16).toUpperCase().padStart(11, '0')}`;
/** The EPCs whose history is checked. */
const moving = new Set(Array.from({ length: EPCS }, (_, n) => epc(n)));

interface Service {
  readonly proc: RunningProcess;
  readonly baseUrl: string;
  readonly client: EventStoreDBClient;
  /** resumeAfter of the engine's 'item engine started' log line. */
  readonly resumeAfter: Promise<string>;
}

interface HistoryRecord {
  kind: string;
  from: string;
  to: string;
}

describe('item engine: SIGKILL mid-stream and restart (child process)', function () {
  this.timeout(300_000);
  const dataDir = mkdtempSync(join(tmpdir(), 'tagtrail-engine-crash-'));
  const keyPrefix = testRedisPrefix();
  let service: Service | undefined;
  let secret = '';
  let jobId = '';
  let t = 0;

  const start = async (): Promise<Service> => {
    const proc = runEntryPoint(
      'src/main.ts',
      childEnv({
        PORT: '0',
        HOST: '127.0.0.1',
        EVENTSTORE_PORT: '0',
        DATA_DIR: dataDir,
        REDIS_KEY_PREFIX: keyPrefix,
        LOG_LEVEL: 'info',
        JOB_ACK_TIMEOUT_SECONDS: '60',
        SHUTDOWN_TIMEOUT_MS: '5000',
        // Snapshots every few changes: the killed run's last snapshot is older than its last output.
        ENGINE_SNAPSHOT_EVERY_CHANGES: '20',
      }),
    );
    const up = await serviceUp(proc);
    const client = EventStoreDBClient.connectionString(up.connectionString);
    const resumeAfter = proc.waitForLog((l) => l.msg === 'item engine started', CHILD_START_MS).then((l) => String(l['resumeAfter']));
    resumeAfter.catch(() => undefined);
    return { proc, client, resumeAfter, baseUrl: up.baseUrl };
  };
  const stop = async (s: Service, signal: NodeJS.Signals): Promise<void> => {
    await s.client.dispose().catch(() => undefined);
    if (s.proc.child.exitCode === null && s.proc.child.signalCode === null) {
      s.proc.child.kill(signal);
      const killer = setTimeout(() => s.proc.child.kill('SIGKILL'), 10_000);
      await s.proc.exited;
      clearTimeout(killer);
    }
  };

  after(async () => {
    if (service) await stop(service, 'SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
    await removeRedisKeys(keyPrefix);
  });

  const request = async (method: string, path: string, body?: unknown, auth: string = ADMIN): Promise<{ status: number; body: any }> => { // eslint-disable-line @typescript-eslint/no-explicit-any
    if (!service) throw new Error('no service');
    const headers: Record<string, string> = { Authorization: auth };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const res = await fetch(`${service.baseUrl}${path}`, { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
    const text = await res.text();
    return { status: res.status, body: text.length ? JSON.parse(text) : undefined };
  };
  const ok = async (method: string, path: string, body?: unknown, auth?: string): Promise<any> => { // eslint-disable-line @typescript-eslint/no-explicit-any
    const res = await request(method, path, body, auth);
    expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).to.be.oneOf([200, 202, 204]);
    return res.body;
  };
  const auth = (): string => agentAuthorization(READER, secret);
  /** A reader's agent takes its secret, checks in until the job is assigned and acknowledges it; returns the secret. */
  const enrol = async (reader: string, job: string): Promise<string> => {
    const path = `/agent/v1/readers/${reader}`;
    const readerSecret = (await ok('PUT', `${path}/secret`)).secret as string;
    const readerAuth = agentAuthorization(reader, readerSecret);
    const checkin = { agentId: `${reader}-agent`, versions: { App: '1.0.0', Firmware: '7.6.1' }, state: 'IDLE' };
    for (let i = 0; ; i++) {
      const res = await ok('POST', `${path}/checkin`, checkin, readerAuth);
      if (res.assignment?.jobId === job) break;
      if (i > 100) throw new Error(`no assignment: ${JSON.stringify(res)}`);
      await sleep(100);
    }
    await ok('POST', `${path}/assignments/${job}/ack`, undefined, readerAuth);
    return readerSecret;
  };
  const kill = async (): Promise<void> => {
    const killed = service;
    if (!killed) throw new Error('no service');
    killed.proc.child.kill('SIGKILL');
    expect(await killed.proc.exited).to.equal('SIGKILL');
    await killed.client.dispose().catch(() => undefined);
    service = undefined;
  };
  const posted: string[] = [];
  /** Round `r`: most EPCs, each on a pseudo-random antenna, RSSI growing with the round past the hysteresis margin. */
  const postRound = async (r: number): Promise<void> => {
    t = Math.max(t + 1, Date.now());
    const at = new Date(t).toISOString();
    const observations = [];
    for (let k = 0; k < EPCS; k++) {
      const m = mix(k, r);
      if (m % 5 === 0 && r > 0) continue; // not seen this round
      observations.push({ epc: epc(k), tid: null, antennaId: ((m >>> 3) % 2) + 1, peakRssi: -100 + r * (INVENTORY_HYSTERESIS_DB + 1), readCount: 1, firstSeen: at, lastSeen: at, x: null, y: null });
    }
    const reportId = crypto.randomUUID();
    await ok('POST', `${AGENT}/reports`, { reportId, jobId, from: at, to: at, observations }, auth());
    posted.push(reportId);
  };
  /** A report of CROWD tags, each seen once, none of them among the moving EPCs. */
  const postCrowd = async (r: number): Promise<void> => {
    t = Math.max(t + 1, Date.now());
    const at = new Date(t).toISOString();
    const observations = [];
    for (let k = 0; k < CROWD; k++) observations.push({ epc: crowdEpc(r, k), tid: null, antennaId: 1, peakRssi: -70, readCount: 1, firstSeen: at, lastSeen: at, x: null, y: null });
    const reportId = crypto.randomUUID();
    await ok('POST', `${AGENT}/reports`, { reportId, jobId, from: at, to: at, observations }, auth());
    posted.push(reportId);
  };
  const output = async () => {
    if (!service) throw new Error('no service');
    return (await readStream(service.client, ENGINE_STREAM, itemEvents)).events;
  };
  const reports = async () => {
    if (!service) throw new Error('no service');
    return (await readStream(service.client, tagReportsStream(READER), tagReportEvents)).events;
  };

  it('after a SIGKILL mid-stream and a restart, every EPC has exactly the history its reports imply', async () => {
    service = await start();
    await ok('POST', '/configuration/v1/readerConfigurations/create', { name: 'inv', operation: 'INVENTORY', configuration: { readerMode: 'MAX_THROUGHPUT', session: 2, searchMode: 'DUAL_TARGET' } });
    await ok('POST', '/configuration/v1/readerDefinitions/create', { name: READER, antennaZones: { '1': ZONES[1], '2': ZONES[2] } });
    await ok('POST', '/configuration/v1/recipes/create', { name: 'rec', type: 'INVENTORY', readerConfigurationName: 'inv', reportingInterval: 1, computeWindow: 1 });
    const job = await ok('POST', '/control/v1/jobs/start', { name: 'crash', recipeName: 'rec', startDelay: 'PT0S' });
    jobId = job.id as string;
    secret = await enrol(READER, jobId);

    // Reports flow; once the engine has written a few ItemsChanged (on a
    // retry: one more), kill the process right after an accepted report.
    let round = 0;
    let kills = 0;
    let roundsBefore: number;
    let resumeAfter: string;
    for (;;) {
      if (++kills > MAX_KILLS) throw new Error(`the engine had covered all stored reports at each of ${MAX_KILLS} kills`);
      const written = (await output()).length;
      for (;;) {
        await postRound(round++);
        if (round % 5 === 0 && (await output()).length >= Math.max(3, written + 1)) break;
        if (round >= MAX_ROUNDS_BEFORE) throw new Error('the engine wrote no ItemsChanged while reports flowed');
      }
      await postRound(round++);
      // The last report before the kill also carries a crowd of tags seen
      // once: the engine needs tens of milliseconds to decide it and append
      // the outcome, the test kills within a millisecond or two of the
      // report's acknowledgement (a report of the test's few tags alone is
      // decided before the acknowledgement reaches the test).
      await postCrowd(round);
      await kill();
      roundsBefore = round;

      service = await start();
      resumeAfter = await service.resumeAfter;
      const beforeRestart = await reports();
      expect(beforeRestart.map((e) => e.id), 'every accepted report survived the kill').to.include.members(posted);
      // Nothing appends tag reports while the test posts none: the last stored one is the input head at the kill.
      const inputHeadAtKill = beforeRestart.at(-1)?.position?.commit;
      if (inputHeadAtKill === undefined) throw new Error('no stored reports');
      expect(resumeAfter, 'the engine resumes from its own output').to.match(/^\d+$/);
      expect(BigInt(resumeAfter) <= inputHeadAtKill, 'resume point within the stored input').to.equal(true);
      // Mid-stream: input stored before the kill that the killed run's output does not cover.
      if (BigInt(resumeAfter) < inputHeadAtKill) break;
    }

    for (let i = 0; i < ROUNDS_AFTER; i++) await postRound(round++);

    // Caught up: the last ItemsChanged covers the last stored report, and the output stops growing.
    const stored = await reports();
    const head = stored.at(-1)?.position?.commit;
    if (head === undefined) throw new Error('no stored reports');
    const deadline = Date.now() + 20_000;
    let events = await output();
    let stableSince = Date.now();
    for (;;) {
      await sleep(200);
      const now = await output();
      if (now.length !== events.length) stableSince = Date.now();
      events = now;
      const last = events.at(-1)?.data.inputPosition;
      if (last !== undefined && BigInt(last) >= head && Date.now() - stableSince >= 1000) break;
      if (Date.now() > deadline) throw new Error(`engine did not catch up: last inputPosition ${String(last)}, head ${head}`);
    }

    // Expected history from the stored reports in log order (the engine's input order).
    const expected = new Map<string, HistoryRecord[]>();
    const zoneOf = new Map<string, string>();
    for (const e of stored) {
      for (const o of e.data.observations) {
        if (!moving.has(o.epc)) continue;
        const zone = ZONES[o.antennaId] ?? 'FACILITY';
        const current = zoneOf.get(o.epc);
        if (current === zone) continue;
        const list = expected.get(o.epc) ?? [];
        list.push(current === undefined ? { kind: 'FIRST_SEEN', from: 'ABSENT', to: zone } : { kind: 'ZONE_CHANGE', from: current, to: zone });
        expected.set(o.epc, list);
        zoneOf.set(o.epc, zone);
      }
    }
    const actual = new Map<string, HistoryRecord[]>();
    for (const e of events) {
      for (const c of e.data.changes) {
        if (c.kind === 'HEARTBEAT' || c.kind === 'MOVED' || !moving.has(c.epc)) continue;
        const list = actual.get(c.epc) ?? [];
        list.push({ kind: c.kind, from: c.fromZone, to: c.toZone });
        actual.set(c.epc, list);
      }
    }
    expect(stored.map((e) => e.id), 'every acknowledged report stored').to.include.members(posted);
    expect(stored.length, 'reports stored').to.be.at.least(roundsBefore + ROUNDS_AFTER);
    expect(expected.size).to.equal(EPCS);
    expect([...actual.keys()].sort(), 'EPCs with history').to.deep.equal([...expected.keys()].sort());
    for (const [e, list] of expected) {
      expect(list.length, `moves of ${e}`).to.be.greaterThan(2);
      expect(actual.get(e), `history of ${e}`).to.deep.equal(list);
    }

    // No overlapping input: inputPosition strictly increases, except in
    // batches of tick changes only and in the leading events of a batch cut
    // in several (the crowd's 2,000 changes): those claim the input covered
    // before the batch, and the next event claims the batch.
    let previous: bigint | undefined;
    for (const [i, e] of events.entries()) {
      const p = BigInt(e.data.inputPosition);
      const tickOnly = e.data.changes.every((c) => c.kind === 'EXPIRED');
      const next = events[i + 1];
      const leadingPart = e.data.changes.length === MAX_CHANGES_PER_EVENT && next !== undefined && BigInt(next.data.inputPosition) > p;
      if (previous !== undefined) {
        if (tickOnly || leadingPart) expect(p >= previous, `event ${i}: inputPosition goes back`).to.equal(true);
        else expect(p > previous, `event ${i}: inputPosition ${p} does not pass ${previous}`).to.equal(true);
      }
      previous = p;
    }
    // The restart happened mid-output: ItemsChanged from both runs.
    expect(events.some((e) => BigInt(e.data.inputPosition) <= BigInt(resumeAfter))).to.equal(true);
    expect(events.some((e) => BigInt(e.data.inputPosition) > BigInt(resumeAfter))).to.equal(true);

    // The kill changed no decision: the engine run again over the log decides exactly what the two runs recorded
    // (the restarted run decided the input since its snapshot again, compute windows open at the kill included).
    if (!service) throw new Error('no service');
    const replay = await replayEngine({ client: service.client, logger: silent });
    expect(replay.difference, replaySummary(replay)).to.equal(undefined);
    expect(replay.decisions).to.equal(events.reduce((n, e) => n + e.data.changes.length, 0));
  });

  it('a run killed after its last snapshot restarts with every read since (tags read but unchanged expire by their last read); the replay finds every decision identical', async () => {
    service ??= await start();
    const reader = 'crash-2';
    const STILL = 24;
    // A facility of its own: the first test's job holds the readers of the default one.
    await ok('POST', '/configuration/v1/facilities/create', { name: 'YARD' });
    await ok('POST', '/configuration/v1/readerDefinitions/create', { name: reader, facility: 'YARD', antennaZones: { '1': 'BAY', '2': 'GATE' } });
    await ok('POST', '/configuration/v1/readerConfigurations/create', { name: 'inv-expiry', operation: 'INVENTORY', configuration: { readerMode: 'MAX_THROUGHPUT', session: 2, searchMode: 'DUAL_TARGET' } });
    await ok('POST', '/configuration/v1/recipes/create', { name: 'rec-expiry', type: 'INVENTORY', readerConfigurationName: 'inv-expiry', reportingInterval: 1, computeWindow: 1, tagExpiryDuration: 'PT4S' });
    const job2 = (await ok('POST', '/control/v1/jobs/start', { name: 'crash-expiry', recipeName: 'rec-expiry', facility: 'YARD', startDelay: 'PT0S' })).id as string;
    const readerAuth = agentAuthorization(reader, await enrol(reader, job2));
    const still = Array.from({ length: STILL }, (_, k) => `30340000000000000000${(k + 1).toString(16).toUpperCase().padStart(4, '0')}`);
    const mover = '303400000000000000010000';
    /** Round r: the still tags on antenna 1, the mover on antenna 1 or 2 (one zone change per round), RSSI past the hysteresis margin. */
    const postStill = async (r: number, withStill: boolean): Promise<number> => {
      t = Math.max(t + 1, Date.now());
      const at = new Date(t).toISOString();
      const peakRssi = -100 + r * (INVENTORY_HYSTERESIS_DB + 1);
      const read = (epcOf: string, antennaId: number) => ({ epc: epcOf, tid: null, antennaId, peakRssi, readCount: 1, firstSeen: at, lastSeen: at, x: null, y: null });
      const observations = [...(withStill ? still.map((e) => read(e, 1)) : []), read(mover, (r % 2) + 1)];
      await ok('POST', `/agent/v1/readers/${reader}/reports`, { reportId: crypto.randomUUID(), jobId: job2, from: at, to: at, observations }, readerAuth);
      return t;
    };
    const outputRevision = async (): Promise<number> => (await output()).length - 1;
    const claimsAll = async (): Promise<void> => {
      if (!service) throw new Error('no service');
      const head = (await readStream(service.client, tagReportsStream(reader), tagReportEvents)).events.at(-1)?.position?.commit;
      for (let i = 0; ; i++) {
        const last = (await output()).at(-1)?.data.inputPosition;
        if (head !== undefined && last !== undefined && BigInt(last) >= head) return;
        if (i > 150) throw new Error('the engine did not claim the last report');
        await sleep(100);
      }
    };

    // Round 0: 25 first sightings, a snapshot after them (every 20 changes).
    await postStill(0, true);
    await claimsAll();
    const snapshotAt = await outputRevision();
    const snapshotted = (l: LogLine): boolean => l.msg === 'engine snapshot written' && Number(l['revision']) >= snapshotAt;
    await service.proc.waitForLog(snapshotted, 20_000);
    // Rounds 1-4, about a second apart: the still tags are read and change nothing; the mover's four changes are appended
    // (claiming those reads too), fewer than a snapshot waits for.
    let lastStillRead = 0;
    for (let r = 1; r <= 4; r++) {
      await sleep(800);
      lastStillRead = await postStill(r, true);
    }
    await claimsAll();
    await kill();

    service = await start();
    const decided = await service.proc.waitForLog((l) => l.msg === 'item engine: input since the snapshot decided again', CHILD_START_MS);
    expect(Number(decided['inputEvents']), 'reports since the snapshot decided again').to.be.at.least(1);
    // Only the mover is read from now on: the still tags expire 4 s after their last read (round 4), not after round 0.
    const expired = new Map<string, number>();
    for (let r = 5; expired.size < STILL; r++) {
      if (r > 40) throw new Error(`still tags not expired: ${expired.size} of ${STILL}`);
      await sleep(500);
      await postStill(r, false);
      for (const e of await output()) for (const c of e.data.changes) if (c.kind === 'EXPIRED' && still.includes(c.epc)) expired.set(c.epc, c.observationTime);
    }
    for (const [e, time] of expired) expect(time, `${e} expired by its last read`).to.be.at.least(lastStillRead + 4000);

    await claimsAll();
    const replay = await replayEngine({ client: service.client, logger: silent });
    expect(replay.difference, replaySummary(replay)).to.equal(undefined);
  });
});
