// What every entry point does first: read the configuration (or exit 1 with
// a JSON log line naming each bad variable), then arm graceful shutdown.
import { ConfigurationError, loadConfigOrThrow, type Config } from '../config';
import { setLogLevel, type Logger } from '../core/logger';
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
  const shutdown = new Shutdown({ logger: logger.child('shutdown'), timeoutMs: config.shutdownTimeoutMs });
  shutdown.installSignalHandlers();
  installCrashHandlers(logger, shutdown);
  return { config, shutdown };
}
