// A programming error that escapes to the top is logged as JSON (not Node's
// multi-line stack on stderr) and still closes resources in order, so the
// embedded event store is not left half-written.
import type { Logger } from '../core/logger';
import type { Shutdown } from '../core/shutdown';
import { isCommitFailureEcho } from '../eventstore/storage/commit';

export function installCrashHandlers(logger: Logger, shutdown: Shutdown): void {
  process.on('uncaughtException', (err) => {
    logger.error('uncaught exception', { err });
    void shutdown.runAndExit('uncaught exception', 1);
  });
  process.on('unhandledRejection', (reason) => {
    // A commit of the event log that failed (a full disk) was answered to the
    // writes it held; lmdb-js also rejects a promise of its own that nothing
    // can await. Shutting down for it turned a full disk into an outage.
    if (isCommitFailureEcho(reason)) {
      logger.debug('event log commit failure, already answered to its writes', { err: reason instanceof Error ? reason.message : String(reason) });
      return;
    }
    logger.error('unhandled rejection', { err: reason instanceof Error ? reason : String(reason) });
    void shutdown.runAndExit('unhandled rejection', 1);
  });
}
