// Door passages for the console's browser tests, appended to the engine's
// stream inside ItemsChanged as the engine writes them, so the transitions
// read model and the live stream carry them for real.
import type { EventStoreDBClient } from '@eventstore/db-client';
import { encodeEvent } from '../../src/core/events';
import { ENGINE_STREAM, itemEvents } from '../../src/engine/events';
import type { ThresholdTransition } from '../../src/engine/threshold/transition';

export interface Passage {
  readonly epc: string;
  readonly destination: 'IN' | 'OUT';
  /** epoch ms */
  readonly at: number;
}

export async function appendPassages(client: EventStoreDBClient, door: { id: number; name: string; facility: string }, jobId: string, passages: readonly Passage[]): Promise<void> {
  const transitions: ThresholdTransition[] = passages.map((p) => ({
    transitionId: `${jobId}-${p.epc}-${p.at}`, jobId, thresholdId: door.id, thresholdName: door.name, facility: door.facility,
    epc: p.epc, tid: null, destination: p.destination, confidence: 0.9, observationTime: p.at,
    reportToDatabaseEnabled: true, reportToMessageQueueEnabled: false,
  }));
  await client.appendToStream(ENGINE_STREAM, [encodeEvent(itemEvents, { type: 'ItemsChanged', data: { inputPosition: '0', at: Date.now(), changes: [], transitions } })]);
}
