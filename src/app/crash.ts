// A programming error that escapes to the top is logged as JSON (not Node's
// multi-line stack on stderr) and still closes resources in order, so the
// embedded event store is not left half-written.
import type { Logger } from '../core/logger';
import type { Shutdown } from '../core/shutdown';

export function installCrashHandlers(logger: Logger, shutdown: Shutdown): void {
  process.on('uncaughtException', (err) => {
    logger.error('uncaught exception', { err });
    void shutdown.runAndExit('uncaught exception', 1);
  });
  process.on('unhandledRejection', (reason) => {
    logger.error('unhandled rejection', { err: reason instanceof Error ? reason : String(reason) });
    void shutdown.runAndExit('unhandled rejection', 1);
  });
}
