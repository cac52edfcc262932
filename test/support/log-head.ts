// The last position of $all that a request could have moved: "nothing was
// appended" means it did not. The item engine's clock ticks (appended by time
// alone while a job runs and the log is quiet) are not a request's doing and
// are passed over.
import { BACKWARDS, END, EventStoreDBClient } from '@eventstore/db-client';
import { ENGINE_CLOCK_STREAM } from '../../src/engine/clock';

export async function logHead(connectionString: string): Promise<bigint> {
  const client = EventStoreDBClient.connectionString(connectionString);
  try {
    let head: bigint | undefined;
    // Read to the end of the (bounded) read: leaving a for-await early leaves the call open.
    for await (const e of client.readAll({ direction: BACKWARDS, fromPosition: END, maxCount: 100 })) {
      if (head === undefined && e.event !== undefined && e.event.streamId !== ENGINE_CLOCK_STREAM) head = e.event.position.commit;
    }
    return head ?? 0n;
  } finally {
    await client.dispose();
  }
}
