// What every entry point does first: read the configuration (or exit 1 with
// a JSON log line naming each bad variable), then arm graceful shutdown.
import { ConfigurationError, loadConfigOrThrow, type Config } from '../config';
import { setLogLevel, type Logger } from '../core/logger';
import { configurePageMarkerKey } from '../core/paging';
import { Shutdown } from '../core/shutdown';
import { installCrashHandlers } from './crash';

export interface Bootstrapped {
  readonly config: Config;
  readonly shutdown: Shutdown;
}

export function bootstrap(logger: Logger): Bootstrapped {
  let config: Config;
  try {
    config = loadConfigOrThrow(process.env);
  } catch (err) {
    if (!(err instanceof ConfigurationError)) throw err;
    logger.error(err.message, { errors: err.errors });
    process.exit(1);
  }
  setLogLevel(config.logLevel);
  // One key for every api process behind a load balancer: a page marker issued by one is accepted by the others.
  if (config.pageMarkerKey !== undefined) configurePageMarkerKey(config.pageMarkerKey);
  const shutdown = new Shutdown({ logger: logger.child('shutdown'), timeoutMs: config.shutdownTimeoutMs });
  shutdown.installSignalHandlers();
  installCrashHandlers(logger, shutdown);
  return { config, shutdown };
}
