// AMQP queues (interface: Events): PUT /data/v1/items/queues,
// PUT /health/v1/events/queues and PUT /data/v1/items/queues/threshold record
// a QueueConfigured event, declare the queue and answer {serverUrl, queue};
// the relay (role `relay`, ./relay.ts) fills the queues. docs/queues.md.
import { NO_STREAM } from '@eventstore/db-client';
import type { Context } from 'koa';
import type * as t from 'io-ts';
import { hasRole } from '../config';
import type { AppDeps, BackgroundWork, Slice } from '../core/slice';
import { decodeInput, refuseUnknownFields } from '../core/http/decode';
import { appendEvents } from '../core/eventstore';
import { encodeEvent } from '../core/events';
import { currentPrincipal } from '../auth';
import { HEALTH_EVENT_TYPES } from '../health';
import { queueEvents, type QueueConfiguredData } from './events';
import {
  compact, DELIVERY_MODES, HealthQueueFilter, hostOfUrl, ItemQueueFilter, queueName, queueStream, serverUrl, ThresholdQueueFilter,
  type QueueKind,
} from './model';
import { healthFilterError, parseDeliveryMode } from './validate';
import { QueueDeclarer } from './declarer';
import { startRelay } from './relay';

const ITEM_QUEUE_ROLES = ['DataReader'];
const HEALTH_QUEUE_ROLES = ['DataReader'];
const TAG = 'Queues';

const str = { type: 'string' };
const ITEM_FILTER_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  properties: {
    fromFacility: str, toFacility: str, fromZone: str, toZone: str,
    epc: { type: 'string', pattern: '^[0-9A-Fa-f]+$', description: 'hexadecimal EPC prefix' },
    jobId: str,
    distance: { type: 'number', minimum: 0, description: 'meters an item must have moved' },
    zoneTransitionsOnly: { type: 'boolean', default: true },
  },
};
const HEALTH_FILTER_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  properties: { readerName: str, type: { type: 'string', enum: [...HEALTH_EVENT_TYPES] }, code: str },
};
const THRESHOLD_FILTER_SCHEMA = { type: 'object', additionalProperties: false, properties: { threshold: str, jobId: str } };
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
      const declarer = new QueueDeclarer(deps.broker.url, deps.logger.child('queues'));
      declarers.set(deps, declarer);
      work.push(declarer);
    }
    if (hasRole({ roles }, 'relay')) {
      work.push(
        startRelay({ client: deps.client, redis: deps.redis, keys: deps.keys, logger: deps.logger.child('relay'), brokerUrl: deps.broker.url, retirement: deps.broker.queueRetirement }),
      );
    }
    return work.length === 0 ? undefined : { stop: async () => void (await Promise.all(work.map((w) => w.stop()))) };
  },
  register(table, deps) {
    // Registration only reads deps inside handlers (the route inventory passes none).
    const configure = async (ctx: Context, kind: QueueKind, filter: QueueConfiguredData['filter']): Promise<void> => {
      const deliveryMode = parseDeliveryMode(ctx.query['deliveryMode']);
      if (deliveryMode instanceof Error) throw deliveryMode;
      const id = crypto.randomUUID();
      const queue = queueName(kind, id);
      const data = { kind, queue, deliveryMode, filter: compact(filter), configuredAt: new Date().toISOString(), user: currentPrincipal(ctx).name } as QueueConfiguredData;
      await appendEvents(deps.client, queueStream(id), [encodeEvent(queueEvents, { type: 'QueueConfigured', data })], NO_STREAM);
      try {
        // So that a client checking the queue passively right away finds it.
        const declarer = declarers.get(deps);
        if (!declarer) throw new Error('no queue declarer: the queues slice was not started in this api process');
        await declarer.declare(queue);
      } catch (err) {
        // Recorded already: the relay declares it when it reaches the event (docs/queues.md).
        deps.logger.warn('queue recorded but not declared yet', { queue, err: err instanceof Error ? err.message : String(err) });
      }
      const host = deps.broker.publicHost ?? hostOfUrl(deps.broker.url);
      ctx.body = { serverUrl: serverUrl(host, deps.broker.publicPort), queue };
    };
    table.add(
      {
        method: 'put', path: '/data/v1/items/queues', roles: ITEM_QUEUE_ROLES, tag: TAG,
        summary: 'Configure a new item event queue: ItemEvent messages of the changes passing every given filter field',
        query: [DELIVERY_MODE_PARAM], body: ITEM_FILTER_SCHEMA, responses: RESPONSES,
      },
      async (ctx) => configure(ctx, 'items', decodeFilter(ItemQueueFilter, ctx.request.body)),
    );
    table.add(
      {
        method: 'put', path: '/data/v1/items/queues/threshold', roles: ITEM_QUEUE_ROLES, tag: TAG,
        summary: 'Configure a new threshold transition queue: the transitions of THRESHOLD jobs passing the given threshold (id or name) and jobId',
        query: [DELIVERY_MODE_PARAM], body: THRESHOLD_FILTER_SCHEMA, responses: RESPONSES,
      },
      async (ctx) => configure(ctx, 'threshold', decodeFilter(ThresholdQueueFilter, ctx.request.body)),
    );
    table.add(
      {
        method: 'put', path: '/health/v1/events/queues', roles: HEALTH_QUEUE_ROLES, tag: TAG,
        summary: 'Configure a new reader health event queue: health events of the given reader, type and code',
        query: [DELIVERY_MODE_PARAM], body: HEALTH_FILTER_SCHEMA, responses: RESPONSES,
      },
      async (ctx) => {
        const filter = decodeFilter(HealthQueueFilter, ctx.request.body);
        const error = healthFilterError(filter);
        if (error) throw error;
        await configure(ctx, 'health', filter);
      },
    );
  },
};
