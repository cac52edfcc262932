// AMQP queues (interface: Events): PUT /data/v1/items/queues,
// PUT /health/v1/events/queues and PUT /data/v1/items/queues/threshold record
// a QueueConfigured event, declare the queue and answer {serverUrl, queue};
// the relay (role `relay`, ./relay.ts) fills the queues. Additions:
// GET /queues/v1/show lists the configured queues with the broker's counts,
// DELETE /queues/v1/destroy/{queue} retires one. docs/queues.md.
import type { Context } from 'koa';
import type * as t from 'io-ts';
import { hasRole } from '../config';
import type { AppDeps, BackgroundWork, Slice } from '../slice';
import type { RouteTable } from '../core/http/routes';
import { decodeInput, refuseUnknownFields } from '../core/http/decode';
import { isLeft } from 'fp-ts/Either';
import { runCommand } from '../core/command';
import { currentPrincipal } from '../auth';
import { HEALTH_EVENT_TYPES } from '../health';
import type { QueueConfiguredData } from './events';
import { onQueue } from './decide';
import { queueListKind, visibleQueues } from './listing';
import { commandMetadata } from '../core/resource/routes';
import { notFound } from '../core/http/errors';
import { nameSchema } from '../core/codecs';
import {
  clientQueueId, compact, DELIVERY_MODES, hostOfUrl, QueueFilterBody, queueName, serverUrl,
  type QueueKind,
} from './model';
import { healthFilterError, parseDeliveryMode } from './validate';
import { QueueDeclarer } from './declarer';
import { startRelay } from './relay';

const ITEM_QUEUE_ROLES = ['DataReader'];
const HEALTH_QUEUE_ROLES = ['DataReader'];
const TAG = 'Queues';

const str = { type: 'string' };
// Filter fields name things: held to the limits of a name (QueueFilterBody).
const name = nameSchema();
const ITEM_FILTER_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  properties: {
    fromFacility: name, toFacility: name, fromZone: name, toZone: name,
    epc: { ...nameSchema('hexadecimal EPC prefix'), pattern: '^[0-9A-Fa-f]+$' },
    jobId: name,
    distance: { type: 'number', minimum: 0, description: 'meters an item must have moved; 0 filters nothing' },
    zoneTransitionsOnly: { type: 'boolean', default: true },
  },
};
const HEALTH_FILTER_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  properties: { readerName: name, type: { type: 'string', enum: [...HEALTH_EVENT_TYPES] }, code: name },
};
const THRESHOLD_FILTER_SCHEMA = { type: 'object', additionalProperties: false, properties: { threshold: name, jobId: name } };
const DELIVERY_MODE_PARAM = {
  name: 'deliveryMode',
  description: 'PERSISTENT (default): messages survive a broker restart; NON_PERSISTENT: faster, lost on a broker restart',
  schema: { type: 'string', enum: [...DELIVERY_MODES], default: 'PERSISTENT' },
};
const QUEUE_SCHEMA = {
  type: 'object',
  required: ['serverUrl', 'queue'],
  additionalProperties: false,
  properties: {
    serverUrl: { type: 'string', description: 'amqp:// URL of the broker to consume from' },
    queue: { type: 'string', description: 'name of the declared queue' },
  },
};
const QUEUE_LIST_SCHEMA = {
  type: 'array',
  items: {
    type: 'object',
    required: ['queue', 'kind', 'filter', 'deliveryMode', 'durable', 'configuredAt', 'user', 'serverUrl', 'broker', 'messageCount', 'consumerCount'],
    additionalProperties: false,
    properties: {
      queue: { type: 'string' },
      kind: { type: 'string', enum: ['items', 'health', 'threshold'] },
      filter: { type: 'object', description: 'the filter as configured (fields given only)' },
      deliveryMode: { type: 'string', enum: [...DELIVERY_MODES] },
      durable: { type: 'boolean', description: 'always true: queues are declared durable' },
      configuredAt: { type: 'string', format: 'date-time' },
      user: { type: 'string', description: 'who configured it' },
      serverUrl: str,
      broker: { type: 'string', enum: ['DECLARED', 'ABSENT', 'UNREACHABLE'], description: 'whether RabbitMQ has the queue now (ABSENT: expired unused; declared again by the next matching message)' },
      messageCount: { type: 'integer', nullable: true, description: 'messages ready in the queue (null unless DECLARED)' },
      consumerCount: { type: 'integer', nullable: true, description: 'consumers attached (null unless DECLARED)' },
    },
  },
};
const RESPONSES = { 200: { description: '{serverUrl, queue}', schema: QUEUE_SCHEMA }, 400: 'a bad filter field or deliveryMode (named in errors[]); nothing recorded' };

/** The body as a filter of `codec`, refusing fields the filter does not know (a typo would widen the queue silently). */
function decodeFilter<A extends object>(codec: t.InterfaceType<t.Props, A>, raw: unknown): A {
  const body: unknown = raw ?? {};
  refuseUnknownFields(body, Object.keys(codec.props), 'filter');
  return decodeInput(codec, body, 'body');
}

// The api role's declarer of each running app (several apps share this module in tests), stopped with it.
const declarers = new WeakMap<AppDeps, QueueDeclarer>();

export const queuesSlice: Slice = {
  name: 'queues',
  start(deps: AppDeps, roles): BackgroundWork | undefined {
    const work: BackgroundWork[] = [];
    if (hasRole({ roles }, 'api')) {
      const declarer = new QueueDeclarer(deps.broker.url, deps.logger.child('queues'), deps.broker.queueType);
      declarers.set(deps, declarer);
      work.push(declarer);
    }
    if (hasRole({ roles }, 'relay')) {
      work.push(
        startRelay({ client: deps.client, redis: deps.redis, keys: deps.keys, logger: deps.logger.child('relay'), brokerUrl: deps.broker.url, retirement: deps.broker.queueRetirement, publisher: { queueType: deps.broker.queueType } }),
      );
    }
    return work.length === 0 ? undefined : { stop: async () => void (await Promise.all(work.map((w) => w.stop()))) };
  },
  register(table, deps) {
    // Registration only reads deps inside handlers (the route inventory passes none).
    registerQueueListRoutes(table, deps);
    registerQueueConfigureRoutes(table, deps);
  },
};

/** The configured queues: listed with the broker's counts, or retired one at a time. */
function registerQueueListRoutes(table: RouteTable, deps: AppDeps): void {
  table.add(
    {
      method: 'get', operationId: 'showQueues', path: '/queues/v1/show', roles: ITEM_QUEUE_ROLES, tag: TAG,
      summary: 'The configured queues (an Admin\'s: all; anyone else\'s: those they configured), oldest first, with their filter and what RabbitMQ says of each now (message and consumer counts)',
      responses: { 200: { description: 'array of queues', schema: QUEUE_LIST_SCHEMA } },
    },
    async (ctx) => showQueues(deps, ctx),
  );
  table.add(
    {
      method: 'delete', operationId: 'destroyQueue', path: '/queues/v1/destroy/:queue', roles: ITEM_QUEUE_ROLES, tag: TAG,
      summary: 'Delete a configured queue (an Admin any, anyone else one they configured): it receives nothing more and is deleted from RabbitMQ, its consumers cancelled',
      responses: { 204: 'deleted', 404: 'no such configured queue (or configured by another user)' },
    },
    async (ctx) => destroyQueue(deps, ctx),
  );
}

/** Configuring a new queue of each kind: items, threshold transitions, health events. */
function registerQueueConfigureRoutes(table: RouteTable, deps: AppDeps): void {
  table.add(
    {
      method: 'put', operationId: 'configureItemQueue', path: '/data/v1/items/queues', roles: ITEM_QUEUE_ROLES, tag: TAG,
      summary: 'Configure a new item event queue: ItemEvent messages of the changes passing every given filter field',
      query: [DELIVERY_MODE_PARAM], body: ITEM_FILTER_SCHEMA, responses: RESPONSES,
    },
    async (ctx) => configure(deps, ctx, 'items', decodeFilter(QueueFilterBody.items, ctx.request.body)),
  );
  table.add(
    {
      method: 'put', operationId: 'configureThresholdQueue', path: '/data/v1/items/queues/threshold', roles: ITEM_QUEUE_ROLES, tag: TAG,
      summary: 'Configure a new threshold transition queue: the transitions of THRESHOLD jobs passing the given threshold (id or name) and jobId',
      query: [DELIVERY_MODE_PARAM], body: THRESHOLD_FILTER_SCHEMA, responses: RESPONSES,
    },
    async (ctx) => configure(deps, ctx, 'threshold', decodeFilter(QueueFilterBody.threshold, ctx.request.body)),
  );
  table.add(
    {
      method: 'put', operationId: 'configureHealthQueue', path: '/health/v1/events/queues', roles: HEALTH_QUEUE_ROLES, tag: TAG,
      summary: 'Configure a new reader health event queue: health events of the given reader, type and code',
      query: [DELIVERY_MODE_PARAM], body: HEALTH_FILTER_SCHEMA, responses: RESPONSES,
    },
    async (ctx) => {
      const filter = decodeFilter(QueueFilterBody.health, ctx.request.body);
      const error = healthFilterError(filter);
      if (error) throw error;
      await configure(deps, ctx, 'health', filter);
    },
  );
}

const publicServerUrl = (deps: AppDeps): string => serverUrl(deps.broker.publicHost ?? hostOfUrl(deps.broker.url), deps.broker.publicPort);

function broker(deps: AppDeps): QueueDeclarer {
  const declarer = declarers.get(deps);
  if (!declarer) throw new Error('no queue declarer: the queues slice was not started in this api process');
  return declarer;
}

async function configure(deps: AppDeps, ctx: Context, kind: QueueKind, filter: QueueConfiguredData['filter']): Promise<void> {
  const deliveryMode = parseDeliveryMode(ctx.query['deliveryMode']);
  if (deliveryMode instanceof Error) throw deliveryMode;
  const id = crypto.randomUUID();
  const queue = queueName(kind, id);
  const data = { kind, queue, deliveryMode, filter: compact(filter), configuredAt: new Date().toISOString(), user: currentPrincipal(ctx).name } as QueueConfiguredData;
  const outcome = await runCommand(deps.client, onQueue(id), { type: 'Configure', data }, { metadata: commandMetadata(ctx) });
  if (isLeft(outcome)) throw outcome.left;
  try {
    // So that a client checking the queue passively right away finds it.
    await broker(deps).declare(queue);
  } catch (err) {
    // Recorded already: the relay declares it when it reaches the event (docs/queues.md).
    deps.logger.warn('queue recorded but not declared yet', { queue, err: err instanceof Error ? err.message : String(err) });
  }
  await deps.waiter.waitFor(outcome.right.position); // so the queue list shows it right away
  ctx.body = { serverUrl: publicServerUrl(deps), queue };
}

async function showQueues(deps: AppDeps, ctx: Context): Promise<void> {
  const queues = visibleQueues(await deps.readModel.list(queueListKind), currentPrincipal(ctx));
  let counts: Map<string, { messageCount: number; consumerCount: number } | null> | undefined;
  try {
    counts = await broker(deps).inspect(queues.map((q) => q.queue));
  } catch (err) {
    deps.logger.warn('queue list: RabbitMQ not reachable, counts left out', { err: err instanceof Error ? err.message : String(err) });
  }
  const url = publicServerUrl(deps);
  ctx.body = queues.map((q) => {
    const c = counts?.get(q.queue);
    return {
      queue: q.queue, kind: q.kind, filter: q.filter, deliveryMode: q.deliveryMode, durable: true, configuredAt: q.configuredAt, user: q.user, serverUrl: url,
      broker: counts === undefined ? 'UNREACHABLE' : c ? 'DECLARED' : 'ABSENT',
      messageCount: c?.messageCount ?? null, consumerCount: c?.consumerCount ?? null,
    };
  });
}

async function destroyQueue(deps: AppDeps, ctx: Context): Promise<void> {
  const name = String(ctx.params['queue']);
  const principal = currentPrincipal(ctx);
  const id = clientQueueId(name);
  if (id === undefined) throw notFound(`queue ${name} not found`);
  const data = { queue: name, reason: 'DELETED' as const, user: principal.name, retiredAt: new Date().toISOString() };
  const outcome = await runCommand(deps.client, onQueue(id), { type: 'Retire', data, by: principal }, { metadata: commandMetadata(ctx) });
  if (isLeft(outcome)) throw outcome.left;
  try {
    await broker(deps).delete(name);
  } catch (err) {
    // Retired already: the relay sends it nothing more, and the broker expires it unused (x-expires).
    deps.logger.warn('queue retired but not deleted from RabbitMQ yet', { queue: name, err: err instanceof Error ? err.message : String(err) });
  }
  await deps.waiter.waitFor(outcome.right.position);
  ctx.status = 204;
}
