// Shared by the reader connector tests: polling with a deadline, and the
// service in-process with settings of a describe.
import { EventStoreDBClient } from '@eventstore/db-client';
import { expect } from 'chai';
import { simulatedTid } from '../../src/simulator/tag-extras';
import { tagReportEvents, tagReportsStream, type Observation } from '../../src/agents/events';
import { readStream } from '../../src/core/eventstore';
import { startTestApp, type TestApp } from '../support/app';
import { waitFor } from '../support/wait';

/** Polls `probe` until it answers something other than undefined (errors count as not yet). */
export const until = <T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> =>
  waitFor(what, probe, { timeoutMs, intervalMs: 200, retryErrors: true });

/** A request of `app` that must answer 200 or 204; its body. */
export type Must = (method: string, path: string, body?: unknown) => Promise<any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export const mustOf = (app: TestApp): Must => async (method, path, body) => {
  const res = await app.request(method, path, body === undefined ? {} : { body });
  expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).to.be.oneOf([200, 204]);
  return res.body;
};

/** Mocha hooks of a describe: the whole service in-process with `env` (settings); returns a getter of the app. */
export function appWithEnv(env: Record<string, string>): () => TestApp {
  let app: TestApp | undefined;
  before(async () => {
    app = await startTestApp(env);
  });
  after(async () => {
    await app?.stop();
  });
  return () => app as TestApp;
}

/** Mocha hooks of a describe: what the tests put in the list (simulated readers) is closed after them. */
export function closedAfter<T extends { close(): Promise<void> }>(): T[] {
  const list: T[] = [];
  after(async () => {
    for (const s of list) await s.close();
  });
  return list;
}

/**
 * Every TagsReported stored for `reader` (its `tagReports-` stream): its event id (the reportId)
 * and observations, read straight from the event store with the event codec: what the engine and
 * read models are given.
 */
export async function storedReports(app: TestApp, reader: string): Promise<Array<{ id: string; observations: Observation[] }>> {
  const store = EventStoreDBClient.connectionString(app.eventStoreConnectionString);
  try {
    const { events } = await readStream(store, tagReportsStream(reader), tagReportEvents);
    return events.map((e) => ({ id: e.id, observations: e.data.observations }));
  } finally {
    await store.dispose();
  }
}

/** The observations of every TagsReported stored for `reader`. */
export async function storedObservations(app: TestApp, reader: string): Promise<Observation[]> {
  return (await storedReports(app, reader)).flatMap((e) => e.observations);
}

/**
 * Defines `reader` with `connection`, runs a job of a NORMAL configuration asking TID and phase
 * (reportConfig belongs to NORMAL configurations, which LLRP recipes run: their reports place no
 * items), and checks that every observation stored for the reader has the simulated tag's TID and
 * a phase angle (none with `phase: false`: a reader that cannot report it); stops the job.
 */
export async function expectTidAndPhase(app: TestApp, reader: string, connection: Record<string, unknown>, opts: { readonly phase: boolean } = { phase: true }): Promise<void> {
  const put = async (path: string, body: unknown): Promise<void> => {
    const res = await app.request('PUT', path, { body });
    expect(res.status, `${path}: ${JSON.stringify(res.body)}`).to.equal(200);
  };
  const name = `${reader}-tid`;
  await put('/configuration/v1/readerDefinitions/createOrReplace', { name: reader, address: '127.0.0.1', type: 'SPEEDWAY', facility: 'DEFAULT', connection });
  await put('/configuration/v1/readerConfigurations/createOrReplace', { name, operation: 'NORMAL', configuration: { readerMode: 'MAX_THROUGHPUT', session: 2, reportConfig: { tidIncluded: true, phaseAngleIncluded: true } } });
  await put('/configuration/v1/recipes/createOrReplace', { name, type: 'LLRP', readerConfigurationName: name });
  const job = await app.request('POST', '/control/v1/jobs/start', { body: { recipeName: name, facility: 'DEFAULT', startDelay: 'PT0S' } });
  expect(job.status, JSON.stringify(job.body)).to.equal(200);
  const observations = await until('observations stored', async () => {
    const o = await storedObservations(app, reader);
    return o.length > 0 ? o : undefined;
  });
  for (const o of observations) {
    expect(o.tid, o.epc).to.equal(simulatedTid(o.epc));
    if (opts.phase) expect(o.phaseAngle, o.epc).to.be.a('number').within(0, 360);
    else expect(o.phaseAngle, o.epc).to.equal(undefined);
  }
  await app.request('POST', `/control/v1/jobs/stop/${String(job.body.id)}?graceful=false`);
}
