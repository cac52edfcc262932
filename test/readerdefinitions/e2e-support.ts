// What the e2e specs of reader definitions share: the test app's event store
// and read model seen from outside, as the reader agent gateway
// sees them, so the agent-side functions can be called directly.
// Same Redis as startTestApp (which reads no REDIS_URL from the environment).
import { EventStoreDBClient } from '@eventstore/db-client';
import { createClient } from 'redis';
import { loadConfigOrThrow } from '../../src/config';
import { createLogger } from '../../src/core/logger';
import { RedisKeys } from '../../src/core/redis/keys';
import { checkpointWaiter } from '../../src/core/resource/consistency';
import type { ResourceDeps } from '../../src/core/resource/routes';
import { RedisCheckpointStore } from '../../src/core/subscriptions';
import { ConfigReadModel } from '../../src/core/resource/readmodel';
import { CONFIG_PROJECTION } from '../../projections/config/projection';
import { basic, type TestApp } from '../support/app';

export const READERS = '/configuration/v1/readerDefinitions';
export const FACILITIES = '/configuration/v1/facilities';

export interface AgentSide {
  readonly deps: ResourceDeps;
  close(): Promise<void>;
}

/** Event store client, config read model and a checkpoint waiter on the app's own stores. */
export async function agentSide(app: TestApp): Promise<AgentSide> {
  const redisUrl = loadConfigOrThrow({}).redisUrl;
  const redis = createClient({ url: redisUrl });
  await redis.connect();
  const keys = new RedisKeys(app.keyPrefix);
  const client = EventStoreDBClient.connectionString(app.eventStoreConnectionString);
  const logger = createLogger('agent-side');
  const deps: ResourceDeps = {
    client,
    readModel: new ConfigReadModel(redis, keys),
    waiter: checkpointWaiter(new RedisCheckpointStore(redis, keys.checkpointPrefix), CONFIG_PROJECTION, 5000, logger),
  };
  return {
    deps,
    async close() {
      await client.dispose();
      await redis.quit();
    },
  };
}

/** Creates a user with one role over HTTP (as admin); returns its Basic header. */
export async function userWithRole(app: TestApp, name: string, role: string): Promise<string> {
  const password = `${name}-passphrase`;
  const res = await app.request('POST', '/configuration/v1/users/create', { body: { name, password, roles: [role] } });
  if (res.status !== 200) throw new Error(`could not create user ${name}: ${res.status} ${JSON.stringify(res.body)}`);
  return basic(name, password);
}

/** The paths of a 400's field errors. */
export const errorPaths = (body: { errors?: Array<{ path: string }> }): string[] => (body.errors ?? []).map((e) => e.path);
