// `npm run rebuild -- <readModel>`: rebuilds a read model from the event log
// beside the live one and switches over (docs/operations.md, "Rebuilding a
// read model"). Needs the event store (EVENTSTORE_CONNECTION_STRING, else the
// running service's embedded store at EVENTSTORE_HOST:EVENTSTORE_PORT) and
// Redis (REDIS_URL, REDIS_KEY_PREFIX) of the deployment.
import { EventStoreDBClient } from '@eventstore/db-client';
import { eventStoreConnectionString, loadConfigOrThrow } from '../src/config';
import { createLogger, setLogLevel } from '../src/core/logger';
import { closeRedis, connectRedis } from '../src/core/redis/connect';
import { RedisKeys } from '../src/core/redis/keys';
import { redactUrl } from '../src/core/url';
import { rebuildReadModel, type RebuildableReadModel, type RebuildResult } from '../projections/rebuild';
import { READ_MODELS } from '../src/app/read-models';
import { lastFactoryReset } from '../src/support/events';
import { runMain } from './run-main';

/** The read model `argv` names, or the usage text (listing the valid names) to print. */
export function chooseReadModel(argv: readonly string[], models: readonly RebuildableReadModel[] = READ_MODELS): RebuildableReadModel | string {
  const name = argv[0];
  const model = models.find((m) => m.name === name);
  if (model && argv.length === 1) return model;
  const why = argv.length !== 1 ? 'give exactly one read model' : `unknown read model ${JSON.stringify(name)}`;
  return `${why}\nusage: npm run rebuild -- <readModel>   (one of: ${models.map((m) => m.name).join(', ')})\n`;
}

/** The line the rebuild ends with: what it applied, how long it took and its rate. */
export function rebuildSummary(r: RebuildResult): string {
  const changes = r.changes === undefined ? '' : ` (${r.changes} item changes, ${r.changesPerSecond ?? 0} changes/s)`;
  return `rebuilt ${r.readModel}: ${r.events} events caught up in ${r.catchUpSeconds} s, ${r.eventsPerSecond} events/s${changes}; switched over after ${r.seconds} s, ${r.keysSwitched} keys`;
}

async function main(argv: readonly string[]): Promise<number> {
  const logger = createLogger('rebuild');
  const model = chooseReadModel(argv);
  if (typeof model === 'string') {
    process.stderr.write(model);
    return 2;
  }
  const config = loadConfigOrThrow(process.env);
  setLogLevel(config.logLevel);
  const connectionString = eventStoreConnectionString(config);
  const client = EventStoreDBClient.connectionString(connectionString);
  const redis = await connectRedis(config.redisUrl, logger, 10_000);
  try {
    // Fail fast (rather than hang) when the event store is not running.
    await Promise.race([
      (async () => {
        for await (const e of client.readAll({ maxCount: 1 })) void e; // read to the end: an early break leaves the call open
      })(),
      new Promise((_, reject) => setTimeout(() => reject(new Error(`event store at ${redactUrl(connectionString)} not reachable (is the service running?)`)), 10_000).unref()),
    ]);
    // The streams a factory reset deleted keep their events in $all: start after it.
    const result = await rebuildReadModel({ model, client, redis, keys: new RedisKeys(config.redisKeyPrefix), logger, from: await lastFactoryReset(client) });
    process.stdout.write(`${rebuildSummary(result)}\n`);
    return 0;
  } catch (err) {
    logger.error('rebuild failed', { err });
    return 1;
  } finally {
    await closeRedis(redis);
    await client.dispose();
  }
}

if (require.main === module) runMain(main);
