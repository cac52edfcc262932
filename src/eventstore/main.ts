// `npm run eventstore`: the embedded event store alone, so several tagtrail
// processes (ROLES=api, ROLES=engine, ...) can share one. They find it at
// EVENTSTORE_HOST:EVENTSTORE_PORT when EVENTSTORE_CONNECTION_STRING is unset.
import path from 'node:path';
import { createLogger } from '../core/logger';
import { bootstrap } from '../app/bootstrap';
import { explainNoSpace } from '../core/disk-space';
import { startEmbeddedEventStore } from './server';
import { explainAddressInUse } from '../core/port-in-use';

const logger = createLogger('tagtrail-eventstore');
const { config, shutdown } = bootstrap(logger);

if (config.eventStore.connectionString !== undefined) {
  logger.warn('EVENTSTORE_CONNECTION_STRING is ignored here: this process only runs the embedded event store');
}

explainAddressInUse(
  startEmbeddedEventStore({
    dataDir: path.resolve(config.dataDir, 'eventstore'),
    host: config.eventStore.host,
    port: config.eventStore.port,
    maxAppendSize: config.eventStore.maxAppendSize,
    logger,
  }),
  'the embedded event store',
  'EVENTSTORE_PORT',
  config.eventStore.host,
  config.eventStore.port,
).then(
  (store) => {
    shutdown.add('embedded event store', () => store.close());
    logger.info('started', { connectionString: store.connectionString, port: store.port });
  },
  (err: unknown) => {
    // A disk that filled up after the free-space check fails an open or a mkdir: say so in plain words.
    logger.error('start-up failed', { err: explainNoSpace(err, config.dataDir) });
    void shutdown.runAndExit('start-up failed', 1);
  },
);
