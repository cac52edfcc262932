// An INVENTORY job running on one reader through the real API, for engine
// tests: reader configuration, reader definition with antenna zones, recipe,
// job started and acknowledged by the reader's agent; reports posted through
// the agent API.
import { expect } from 'chai';
import { agentAuthorization } from '../../src/agents/guard';
import type { TestApp } from '../support/app';
import { expectStatus, RC, RECIPES } from '../readerconfigurations/e2e-support';
import { inventoryBody } from '../readerconfigurations/fixtures';
import { sleep } from '../support/wait';

export const READER = 'dock-1';
const JOBS = '/control/v1/jobs';

export const epc = (n: number): string => `E2801160600002${n.toString(16).toUpperCase().padStart(10, '0')}`;

export interface RunningJob {
  readonly jobId: string;
  /** The reader agent's Authorization header. */
  readonly auth: string;
}

/** Starts an INVENTORY job (antenna 1 = DOCK, 2 = SHELF; reportingInterval and computeWindow 1 s) with `recipe` fields added. */
export async function startInventoryJob(app: TestApp, recipe: Record<string, unknown> = {}): Promise<RunningJob> {
  expectStatus(await app.request('POST', `${RC}/create`, { body: inventoryBody({}, 'inv') }), 200);
  expectStatus(await app.request('POST', '/configuration/v1/readerDefinitions/create', { body: { name: READER, antennaZones: { '1': 'DOCK', '2': 'SHELF' } } }), 200);
  expectStatus(await app.request('POST', `${RECIPES}/create`, { body: { name: 'rec', type: 'INVENTORY', readerConfigurationName: 'inv', reportingInterval: 1, computeWindow: 1, ...recipe } }), 200);
  const job = await app.request('POST', `${JOBS}/start`, { body: { name: 'engine', recipeName: 'rec', startDelay: 'PT0S' } });
  expectStatus(job, 200);
  return acceptJob(app, READER, job.body.id as string);
}

/** `reader`'s agent gets a secret, checks in until it is assigned `jobId` and acknowledges it. */
export async function acceptJob(app: TestApp, reader: string, jobId: string): Promise<RunningJob> {
  const agent = `/agent/v1/readers/${reader}`;
  const issued = await app.request('PUT', `${agent}/secret`);
  expectStatus(issued, 200);
  const auth = agentAuthorization(reader, issued.body.secret as string);
  const checkin = { agentId: 'test-agent', versions: { App: '1.0.0', Firmware: '7.6.1' }, state: 'IDLE' };
  for (let i = 0; ; i++) {
    const res = await app.request('POST', `${agent}/checkin`, { auth, body: checkin });
    expectStatus(res, 200);
    if (res.body.assignment?.jobId === jobId) break;
    if (i > 100) throw new Error(`no assignment: ${JSON.stringify(res.body)}`);
    await sleep(100);
  }
  const ack = await app.request('POST', `${agent}/assignments/${jobId}/ack`, { auth });
  expect(ack.status, JSON.stringify(ack.body)).to.be.oneOf([200, 204]);
  return { jobId, auth };
}

/** One report of `epcs` on `antennaId`, read at `t` (epoch ms), by `reader` (default READER). */
export async function postReport(app: TestApp, job: RunningJob, t: number, antennaId: number, epcs: string[], peakRssi = -60, reader = READER): Promise<void> {
  const at = new Date(t).toISOString();
  const observations = epcs.map((e) => ({ epc: e, tid: null, antennaId, peakRssi, readCount: 2, firstSeen: at, lastSeen: at, x: null, y: null }));
  const res = await app.request('POST', `/agent/v1/readers/${reader}/reports`, { auth: job.auth, body: { reportId: crypto.randomUUID(), jobId: job.jobId, from: at, to: at, observations } });
  expect(res.status, JSON.stringify(res.body)).to.be.oneOf([200, 202, 204]);
}
