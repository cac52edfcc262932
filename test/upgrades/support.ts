// Helpers of the upgrade tests: register an image, wait for an upgrade to
// finish, and replay its events to see how many readers were upgrading at once.
import { expect } from 'chai';
import { EventStoreDBClient } from '@eventstore/db-client';
import { readStream } from '../../src/core/eventstore';
import { upgradeEvents, upgradeStream, type UpgradeEvent } from '../../src/upgrades/events';
import type { TestApp } from '../support/app';
import { waitForValue } from '../support/wait';

export const CHECKSUM = 'c0ffee'.repeat(10) + 'c0ff';

export async function registerImage(app: TestApp, version: string, imageType = 'FIRMWARE_READER'): Promise<void> {
  const res = await app.request('POST', '/configuration/v1/softwareVersions/create', {
    body: { versionInfo: { versionIdentifier: { version, imageType }, imageName: `img-${version}.upgx`, checksum: CHECKSUM }, description: `test image ${version}` },
  });
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function waitForStatus(app: TestApp, id: string, done: (s: any) => boolean, timeoutMs = 60_000): Promise<any> {
  const read = async (): Promise<unknown> => {
    const res = await app.request('GET', `/control/v1/upgrades/show/${id}`);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body;
  };
  return waitForValue(`upgrade ${id}`, read, done, { timeoutMs, intervalMs: 100 });
}

export const finished = (s: { status: string }): boolean => s.status === 'COMPLETED' || s.status === 'FAILED';

export async function upgradeEventsOf(app: TestApp, id: string): Promise<UpgradeEvent[]> {
  const client = EventStoreDBClient.connectionString(app.eventStoreConnectionString);
  try {
    return (await readStream(client, upgradeStream(id), upgradeEvents)).events.map((e) => ({ type: e.type, data: e.data }) as UpgradeEvent);
  } finally {
    await client.dispose();
  }
}

/** The most readers IN_PROGRESS at once, replaying the upgrade's events in order. */
export function maxInProgress(events: readonly UpgradeEvent[]): number {
  const now = new Set<string>();
  let max = 0;
  for (const e of events) {
    if (e.type === 'UpgradeReaderStarted') now.add(e.data.readerName);
    if (e.type === 'UpgradeReaderFinished') now.delete(e.data.readerName);
    max = Math.max(max, now.size);
  }
  return max;
}
