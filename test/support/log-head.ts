// The last position of $all that a request could have moved: "nothing was
// appended" means it did not. What the service appends by itself in the
// background is passed over: the item engine's clock ticks (appended by time
// alone while a job runs and the log is quiet) and the positions the relay
// and the EPCIS capture keep in the log (`checkpoint-*`, written as they go).
import { BACKWARDS, END, EventStoreDBClient } from '@eventstore/db-client';
import { ENGINE_CLOCK_STREAM } from '../../src/engine/clock';
import { LOG_CHECKPOINT_STREAM_PREFIX } from '../../src/core/subscriptions/log-checkpoint';

const background = (stream: string): boolean => stream === ENGINE_CLOCK_STREAM || stream.startsWith(LOG_CHECKPOINT_STREAM_PREFIX);

export async function logHead(connectionString: string): Promise<bigint> {
  const client = EventStoreDBClient.connectionString(connectionString);
  try {
    let head: bigint | undefined;
    // Read to the end of the (bounded) read: leaving a for-await early leaves the call open.
    for await (const e of client.readAll({ direction: BACKWARDS, fromPosition: END, maxCount: 100 })) {
      if (head === undefined && e.event !== undefined && !background(e.event.streamId)) head = e.event.position.commit;
    }
    return head ?? 0n;
  } finally {
    await client.dispose();
  }
}
