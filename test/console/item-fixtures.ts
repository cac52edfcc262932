// Item changes for the console's browser tests, appended to the engine's
// stream as the engine writes them (batches of 1000 per ItemsChanged), so the
// items projection and the live stream carry them for real.
import { EventStoreDBClient } from '@eventstore/db-client';
import type * as t from 'io-ts';
import { encodeEvent } from '../../src/core/events';
import { ENGINE_STREAM, itemEvents, type ItemChangeCodec } from '../../src/engine/events';
import type { TestApp } from '../support/app';
import { waitForValue } from '../support/wait';

export type Change = t.TypeOf<typeof ItemChangeCodec>;
const BATCH = 1_000;

/** The n-th EPC under `prefix`: 24 hex digits, so EPC order is n order. */
export const epc = (prefix: string, n: number): string => `${prefix}${n.toString(16).toUpperCase().padStart(24 - prefix.length, '0')}`;

export function changes(facility: string, prefix: string, from: number, count: number, kind: Change['kind'], at: number, place: (n: number) => { x: number; y: number }): Change[] {
  const out: Change[] = [];
  for (let n = from; n < from + count; n++) {
    const p = place(n);
    out.push({
      kind, epc: epc(prefix, n), tid: null, jobId: 'perf-job', fromZone: kind === 'FIRST_SEEN' ? 'ABSENT' : 'Floor', toZone: 'Floor',
      fromFloor: null, toFloor: '1', fromFacility: kind === 'FIRST_SEEN' ? null : facility, toFacility: facility,
      fromX: null, fromY: null, toX: p.x, toY: p.y, observationTime: at,
      reportToDatabaseEnabled: true, reportToHistoryEnabled: false, reportToMessageQueueEnabled: false,
    });
  }
  return out;
}

export async function appendChanges(client: EventStoreDBClient, batch: readonly Change[]): Promise<void> {
  for (let i = 0; i < batch.length; i += BATCH) {
    const part = batch.slice(i, i + BATCH);
    await client.appendToStream(ENGINE_STREAM, [encodeEvent(itemEvents, { type: 'ItemsChanged', data: { inputPosition: '0', at: Date.now(), changes: part } })]);
  }
}

/** Appends `batch` to the app's engine stream as changes reported to history too (so history and rates count them). */
export async function appendWithHistory(app: TestApp, batch: readonly Change[]): Promise<void> {
  const client = EventStoreDBClient.connectionString(app.eventStoreConnectionString);
  try {
    await appendChanges(client, batch.map((c) => ({ ...c, reportToHistoryEnabled: true })));
  } finally {
    await client.dispose();
  }
}

/** Waits until the items query of `facility` has `lastEpc` (the projection has caught up with what was appended). */
export async function projected(app: TestApp, facility: string, lastEpc: string, timeoutMs: number): Promise<void> {
  await waitForValue(`items of ${facility} projected up to ${lastEpc}`, async () => (await app.request('GET', `/data/v1/items/show?facility=${facility}&epcPrefix=${lastEpc}`)).body?.items?.length, (n) => n === 1, { timeoutMs, intervalMs: 250, retryErrors: true });
}
