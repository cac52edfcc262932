// What the operator of the embedded store sees of a full disk: one line when
// writes start failing for want of space, one when a write succeeds again,
// rather than a line per refused append (each is answered
// RESOURCE_EXHAUSTED, and the service's API answers 503 for it).
import type { Logger } from '../../core/logger';
import type { EventLog, WriteResult } from '../storage/log';
import { StorageFull } from '../storage/errors';

/** The writes of the log the gRPC handlers make. */
export type LogWrites = Pick<EventLog, 'append' | 'delete' | 'tombstone'>;

export function watchSpace(log: EventLog, dataDir: string, logger: Logger): LogWrites {
  let full = false;
  const watched =
    <A extends unknown[]>(write: (...args: A) => Promise<WriteResult>) =>
    async (...args: A): Promise<WriteResult> => {
      try {
        const result = await write(...args);
        if (full) logger.info('the event store writes again: its disk has space', { dataDir });
        full = false;
        return result;
      } catch (err) {
        if (err instanceof StorageFull && !full) {
          logger.error('the event store disk is full: appends are refused until space is freed, reads go on', { dataDir, err: err.message });
          full = true;
        }
        throw err;
      }
    };
  return {
    append: watched(log.append.bind(log)),
    delete: watched(log.delete.bind(log)),
    tombstone: watched(log.tombstone.bind(log)),
  };
}
