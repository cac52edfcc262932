// `npm start`: one tagtrail process running the roles of ROLES (all by
// default). Exit codes: 0 after a clean shutdown, 1 on bad configuration, a
// failed start-up, a crash, or a shutdown that failed or overran its bound.
import { createLogger } from './core/logger';
import { bootstrap } from './app/bootstrap';
import { explainNoSpace } from './core/disk-space';
import { startTagtrail, ShuttingDownError } from './app/start';

const logger = createLogger('tagtrail');
const { config, shutdown } = bootstrap(logger);

startTagtrail(config, logger, shutdown).then(
  (started) => logger.info('started', { ...started }),
  (err: unknown) => {
    if (err instanceof ShuttingDownError) return; // the signal handler finishes the job
    // A disk that filled up after the free-space check fails an open or a mkdir: say so in plain words.
    logger.error('start-up failed', { err: explainNoSpace(err, config.dataDir) });
    void shutdown.runAndExit('start-up failed', 1);
  },
);
