// A job running on readers that talk through the real agent API of a test
// app: reader configuration, reader definitions, recipe, job start, agent
// secret, check-in until the assignment arrives, acknowledgement. What the
// e2e tests of the live engine wiring share.
import { expect } from 'chai';
import { agentAuthorization } from '../../src/agents/guard';
import type { TestApp } from '../support/app';
import { expectStatus, RC, RECIPES } from '../readerconfigurations/e2e-support';
import { inventoryBody, locationBody } from '../readerconfigurations/fixtures';
import { waitForValue } from '../support/wait';

export const JOBS = '/control/v1/jobs';
/** Deterministic pseudo-random bits of EPC `k` in round `r` of a scripted run (which antenna reads it, whether it is read). */
export const mix = (k: number, r: number): number => {
  let x = (k * 2654435761 + r * 40503 + 12345) >>> 0;
  x ^= x >>> 15;
  x = Math.imul(x, 2246822519) >>> 0;
  x ^= x >>> 13;
  return x >>> 0;
};

export const epc = (n: number): string => `E2801160600002${n.toString(16).toUpperCase().padStart(10, '0')}`;

export interface Observation {
  readonly epc: string;
  readonly antennaId?: number;
  readonly peakRssi?: number;
  readonly x?: number | null;
  readonly y?: number | null;
}

export interface LiveJob {
  readonly jobId: string;
  /** Posts one report of `reader` read at `at` (default now); each observation on antenna 1 unless told. `via`: the app now serving (after a restart). */
  report(reader: string, observations: readonly Observation[], at?: Date, via?: TestApp): Promise<void>;
}

export interface LiveJobSpec {
  readonly type: 'INVENTORY' | 'LOCATION';
  /** Reader definitions to create (name and any further fields). */
  readonly readers: ReadonlyArray<{ name: string } & Record<string, unknown>>;
  /** Further recipe fields (durations, reportTo... flags). */
  readonly recipe?: Record<string, unknown>;
  /** Further job fields (e.g. facility). */
  readonly job?: Record<string, unknown>;
  /** Distinguishes the created resources when one app runs several jobs. */
  readonly suffix?: string;
}

/** Polls `get` until `ok` holds, for at most `ms`; the last value is in the error. */
export const eventually = <T>(what: string, get: () => Promise<T>, ok: (v: T) => boolean, ms = 15_000): Promise<T> =>
  waitForValue(what, get, ok, { timeoutMs: ms, intervalMs: 100 });

export async function startLiveJob(app: TestApp, spec: LiveJobSpec): Promise<LiveJob> {
  const s = spec.suffix ?? '';
  const rc = `rc${s}`;
  expectStatus(await app.request('POST', `${RC}/create`, { body: spec.type === 'LOCATION' ? locationBody({}, rc) : inventoryBody({}, rc) }), 200);
  for (const r of spec.readers) {
    expectStatus(await app.request('POST', '/configuration/v1/readerDefinitions/create', { body: { ...r, ...(spec.type === 'LOCATION' ? { type: 'XARRAY' } : {}) } }), 200);
  }
  const recipe = { name: `rec${s}`, type: spec.type, readerConfigurationName: rc, reportingInterval: 1, computeWindow: 1, ...spec.recipe };
  expectStatus(await app.request('POST', `${RECIPES}/create`, { body: recipe }), 200);
  const job = await app.request('POST', `${JOBS}/start`, { body: { name: `job${s}`, recipeName: recipe.name, startDelay: 'PT0S', ...spec.job } });
  expectStatus(job, 200);
  const jobId = job.body.id as string;
  const auths = new Map<string, string>();
  for (const r of spec.readers) {
    const agent = `/agent/v1/readers/${r.name}`;
    const issued = await app.request('PUT', `${agent}/secret`);
    expectStatus(issued, 200);
    const auth = agentAuthorization(r.name, issued.body.secret as string);
    auths.set(r.name, auth);
    const checkin = { agentId: `agent-${r.name}`, versions: { App: '1.0.0', Firmware: '7.6.1' }, state: 'IDLE' };
    await eventually(`assignment of ${r.name}`, async () => {
      const res = await app.request('POST', `${agent}/checkin`, { auth, body: checkin });
      expectStatus(res, 200);
      return res.body as { assignment?: { jobId?: string } };
    }, (b) => b.assignment?.jobId === jobId);
    const ack = await app.request('POST', `${agent}/assignments/${jobId}/ack`, { auth });
    expect(ack.status, JSON.stringify(ack.body)).to.be.oneOf([200, 204]);
  }
  return {
    jobId,
    async report(reader, observations, at = app.clock.now(), via = app) {
      const iso = at.toISOString();
      const body = {
        reportId: crypto.randomUUID(),
        jobId,
        from: iso,
        to: iso,
        observations: observations.map((o) => ({
          epc: o.epc, tid: null, antennaId: o.antennaId ?? 1, peakRssi: o.peakRssi ?? -60, readCount: 1, firstSeen: iso, lastSeen: iso, x: o.x ?? null, y: o.y ?? null,
        })),
      };
      const res = await via.request('POST', `/agent/v1/readers/${reader}/reports`, { auth: auths.get(reader) ?? '', body });
      expect(res.status, JSON.stringify(res.body)).to.be.oneOf([200, 202, 204]);
    },
  };
}
