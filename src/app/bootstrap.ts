// What every entry point does first: read the configuration (or exit 1 with
// a JSON log line naming each bad variable), then arm graceful shutdown.
import { loadConfig, type Config } from '../config';
import { formatEnvError } from '../core/env';
import type { Logger } from '../core/logger';
import { Shutdown } from '../core/shutdown';
import { installCrashHandlers } from './crash';
import * as E from 'fp-ts/Either';

export interface Bootstrapped {
  readonly config: Config;
  readonly shutdown: Shutdown;
}

export function bootstrap(logger: Logger): Bootstrapped {
  const result = loadConfig(process.env);
  if (E.isLeft(result)) {
    logger.error(`Invalid configuration: ${result.left.map(formatEnvError).join('; ')}`, { errors: result.left });
    process.exit(1);
  }
  const config = result.right;
  const shutdown = new Shutdown({ logger: logger.child('shutdown'), timeoutMs: config.shutdownTimeoutMs });
  shutdown.installSignalHandlers();
  installCrashHandlers(logger, shutdown);
  return { config, shutdown };
}
