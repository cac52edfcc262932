// The storage engine alone (EventLog in-process, no gRPC, no client): what the
// embedded server can sustain when the client is not the limit.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EventLog } from '../../src/eventstore/storage/log';
import { eventResp } from '../../src/eventstore/grpc/readresp';
import { rate } from './stats';

export interface StorageFigures {
  appends: Array<{ batch: number; concurrency: number; eventsPerSec: number }>;
  scanEventsPerSec: number;
}

export async function storageBench(durationMs: number, payload: Buffer): Promise<StorageFigures> {
  const dir = mkdtempSync(join(tmpdir(), 'tagtrail-bench-storage-'));
  const log = new EventLog(dir, { maxAppendSize: 16 * 1024 * 1024 });
  const appends: StorageFigures['appends'] = [];
  try {
    for (const [batch, concurrency] of [[1, 1], [1, 8], [100, 1], [1000, 1], [1000, 4]] as const) {
      let n = 0;
      const t0 = performance.now();
      await Promise.all(
        Array.from({ length: concurrency }, async (_, w) => {
          while (performance.now() - t0 < durationMs) {
            const events = Array.from({ length: batch }, () => ({
              id: crypto.randomUUID(),
              type: 'BenchEvent',
              contentType: 'application/json',
              data: payload,
              metadata: new Uint8Array(),
            }));
            await log.append(`storage-${batch}-${concurrency}-${w}`, { kind: 'any' }, events);
            n += batch;
          }
        }),
      );
      appends.push({ batch, concurrency, eventsPerSec: rate(n, performance.now() - t0) });
    }
    // What a catch-up costs the server: read the log and wrap every record in its ReadResp.
    let scanned = 0;
    let next = 0n;
    const t0 = performance.now();
    for (;;) {
      const chunk = log.readAll(next, 'forwards', 256);
      if (chunk.length === 0) break;
      for (const r of chunk) {
        eventResp(r.proto, r.position);
        next = r.position + 1n;
        scanned++;
      }
    }
    return { appends, scanEventsPerSec: rate(scanned, performance.now() - t0) };
  } finally {
    await log.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
