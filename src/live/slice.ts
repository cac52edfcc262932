// GET /live/v1/stream: server-sent events of item changes, door passages, job
// state changes and reader health, for clients that show things as they happen (the web
// console). Authenticated like every route; each topic follows the roles of
// the REST query that shows the same data, so the stream never tells a user
// more than the queries would. Format: docs/api.md, "Live updates".
import type { Context } from 'koa';
import type { AppDeps, Slice } from '../slice';
import { badRequest, forbidden } from '../core/http/errors';
import { currentPrincipal, hasAnyRole, type Role } from '../auth';
import { LiveHub } from './hub';
import { TOPICS, type Topic } from './messages';

export const LIVE_STREAM_PATH = '/live/v1/stream';

/** Who may receive each topic: the roles of the items, jobs, reader health and transitions queries. */
export const TOPIC_ROLES: Readonly<Record<Topic, readonly Role[]>> = {
  items: ['DataReader'],
  jobs: ['JobRunner'],
  health: ['ConfigManager', 'DataReader', 'JobRunner'],
  transitions: ['DataReader'],
};

// One hub per process (per event store client), made on the first stream.
const hubs = new WeakMap<object, LiveHub>();
const hubOf = (deps: AppDeps): LiveHub => {
  let hub = hubs.get(deps.client);
  if (!hub) {
    hub = new LiveHub(deps.client, deps.logger.child('live'));
    hubs.set(deps.client, hub);
  }
  return hub;
};

/** Ends every open stream (before the HTTP server closes, which would otherwise wait for them). */
export async function closeLiveStreams(deps: AppDeps): Promise<void> {
  await hubs.get(deps.client)?.close();
}

function requestedTopics(ctx: Context, allowed: readonly Topic[]): Set<Topic> {
  const raw = ctx.query['topics'];
  if (raw === undefined) return new Set(allowed);
  const names = (Array.isArray(raw) ? raw.join(',') : raw).split(',').map((s) => s.trim()).filter((s) => s !== '');
  if (names.length === 0) throw badRequest('Invalid request query', [{ path: 'query.topics', reason: `must name at least one of ${TOPICS.join(', ')}` }]);
  const topics = new Set<Topic>();
  for (const name of names) {
    if (!(TOPICS as readonly string[]).includes(name)) {
      throw badRequest('Invalid request query', [{ path: 'query.topics', reason: `unknown topic "${name}"; topics are ${TOPICS.join(', ')}` }]);
    }
    const topic = name as Topic;
    if (!allowed.includes(topic)) throw forbidden(`topic ${topic} needs one of the roles ${TOPIC_ROLES[topic].join(', ')}`);
    topics.add(topic);
  }
  return topics;
}

function requestedFacility(ctx: Context): string | undefined {
  const raw = ctx.query['facility'];
  if (raw === undefined) return undefined;
  if (typeof raw !== 'string' || raw.trim() === '') throw badRequest('Invalid request query', [{ path: 'query.facility', reason: 'must be one non-blank facility name' }]);
  return raw;
}

export const liveSlice: Slice = {
  name: 'live',
  register(table, deps) {
    table.add(
      {
        method: 'get',
        operationId: 'streamLiveUpdates',
        path: LIVE_STREAM_PATH,
        roles: ['DataReader', 'JobRunner', 'ConfigManager'],
        tag: 'Live updates',
        produces: 'text/event-stream',
        summary: 'Server-sent events (text/event-stream): item changes, threshold transitions, job state changes, reader health, from now on',
        query: [
          { name: 'topics', description: `comma-separated subset of ${TOPICS.join(', ')}; default: every topic the caller's roles allow (items, transitions: DataReader; jobs: JobRunner; health: ConfigManager, DataReader, JobRunner; Admin: all)` },
          { name: 'facility', description: 'only item changes into or out of this facility and passages through its thresholds' },
        ],
        responses: {
          200: 'text/event-stream: events hello, items, transitions, job, health, gap (see docs/api.md, "Live updates")',
          400: 'unknown topic or blank facility (named in errors[])',
          403: 'a requested topic the caller\'s roles do not allow',
        },
      },
      async (ctx) => {
        const principal = currentPrincipal(ctx);
        const allowed = TOPICS.filter((t) => hasAnyRole(principal, TOPIC_ROLES[t]));
        const topics = requestedTopics(ctx, allowed);
        const facility = requestedFacility(ctx);
        ctx.req.socket.setNoDelay(true);
        ctx.req.socket.setKeepAlive(true);
        ctx.set('Cache-Control', 'no-store');
        ctx.set('X-Accel-Buffering', 'no');
        ctx.type = 'text/event-stream';
        ctx.body = hubOf(deps).open({ topics, facility });
      },
    );
  },
};
