// What every entry point does first: read the configuration (or exit 1 with
// a JSON log line naming each bad variable), check that DATA_DIR has room
// (or exit 1 saying how much it has and needs), then arm graceful shutdown.
import { ConfigurationError, loadConfigOrThrow, type Config } from '../config';
import { spaceShortfall, type SpaceShortfall } from '../core/disk-space';
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
  refuseWithoutSpace(config, logger);
  // One key for every api process behind a load balancer: a page marker issued by one is accepted by the others.
  if (config.pageMarkerKey !== undefined) configurePageMarkerKey(config.pageMarkerKey);
  const shutdown = new Shutdown({ logger: logger.child('shutdown'), timeoutMs: config.shutdownTimeoutMs });
  shutdown.installSignalHandlers();
  installCrashHandlers(logger, shutdown);
  return { config, shutdown };
}

/**
 * Every process writes to DATA_DIR (its retained log; the event store, engine
 * snapshots and the reader key for the roles that keep them). On a full disk
 * LMDB cannot even map its lock file and the process would die of a bus error
 * with no word, so a start without DATA_DIR_MIN_FREE_MB free is refused here,
 * before anything is opened. Space running out later is handled where it is
 * written (docs/operations.md, "Disk space").
 */
function refuseWithoutSpace(config: Config, logger: Logger): void {
  let shortfall: SpaceShortfall | undefined;
  try {
    shortfall = spaceShortfall(config.dataDir, config.dataDirMinFreeBytes);
  } catch (err) {
    // Not knowing is no reason to refuse: the writes themselves will tell.
    logger.warn('free space in the data directory could not be read', { dataDir: config.dataDir, err });
    return;
  }
  if (shortfall === undefined) return;
  logger.error(
    'Not enough free space in the data directory to start: free space on its filesystem, set DATA_DIR to a directory with room, or lower DATA_DIR_MIN_FREE_MB',
    { ...shortfall },
  );
  process.exit(1);
}
