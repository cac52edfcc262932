// The last position of $all: "nothing was appended" means it did not move.
import { BACKWARDS, END, EventStoreDBClient } from '@eventstore/db-client';

export async function logHead(connectionString: string): Promise<bigint> {
  const client = EventStoreDBClient.connectionString(connectionString);
  try {
    let head = 0n;
    // Read to the end of the (one-event) read: leaving a for-await early leaves the call open.
    for await (const e of client.readAll({ direction: BACKWARDS, fromPosition: END, maxCount: 1 })) {
      head = e.event?.position?.commit ?? head;
    }
    return head;
  } finally {
    await client.dispose();
  }
}
