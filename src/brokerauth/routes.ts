// The endpoints of RabbitMQ's HTTP authentication backend
// (rabbitmq_auth_backend_http), served beside /healthz outside ROOT_PATH:
// they are called by the broker, not by REST clients, and authenticate
// nobody by header. The user endpoint checks the password given in its
// parameters; the others are asked only after such a login and answer from
// the user's current roles. Answers are the plain-text `allow` / `deny` the
// plugin expects (status 200); bad parameters are 400s, which the broker
// treats as a failed check. Passwords are never logged.
import Router from '@koa/router';
import type { Context } from 'koa';
import type * as t from 'io-ts';
import type { Logger } from '../core/logger';
import { decodeInput } from '../core/http/decode';
import { badRequest } from '../core/http/errors';
import { type PasswordVerifier, resolveBasic, retryAfterSeconds, type LoginThrottle, type PrincipalStore, type Principal } from '../auth';
import { ResourceRequest, TopicRequest, UserRequest, VhostRequest } from './codec';
import { decideLogin, decideResource, decideTopic, decideVhost, type Decision } from './decide';

/** Base path of the four endpoints (`/user`, `/vhost`, `/resource`, `/topic`). */
export const BROKER_AUTH_PATH = '/rabbitmq/auth';

// The plugin sends a handful of short fields; anything much larger is not it.
const MAX_FORM_BYTES = 16 * 1024;
const FORM = 'application/x-www-form-urlencoded';

export interface BrokerAuthDeps {
  readonly principals: PrincipalStore;
  /** The REST interface's verifier, so both share one cache of recent successes. */
  readonly verifier: PasswordVerifier;
  /** The REST interface's login throttle, so failures count across both; absent: none. */
  readonly throttle?: LoginThrottle;
  /** Whether a queue name is a queue tagtrail configured for clients (client-queues.ts). */
  readonly isClientQueue: (name: string) => boolean | Promise<boolean>;
  readonly logger: Logger;
}

/** The parameters of a GET (query string) or POST (form body) as a flat object; the last of repeated names wins. */
async function readParams(ctx: Context): Promise<Record<string, string>> {
  if (ctx.method === 'GET') return Object.fromEntries(new URLSearchParams(ctx.querystring));
  if (!ctx.is(FORM)) throw badRequest(`Expected a ${FORM} body`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_FORM_BYTES) throw badRequest(`Form body larger than ${MAX_FORM_BYTES} bytes`);
    chunks.push(chunk);
  }
  return Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
}

async function decodeParams<A>(ctx: Context, codec: t.Type<A, unknown, unknown>): Promise<A> {
  return decodeInput(codec, await readParams(ctx), ctx.method === 'GET' ? 'query' : 'body');
}

function answer(ctx: Context, decision: Decision): void {
  ctx.status = 200;
  ctx.type = 'text/plain';
  ctx.set('Cache-Control', 'no-store');
  // A bare `deny`, never `deny <reason>`: older plugin versions (such as 3.10's) may not parse the reason form.
  ctx.body = decision.allow ? 'allow' : 'deny';
}

export function brokerAuthRouter(deps: BrokerAuthDeps): Router {
  const { principals, verifier, isClientQueue, logger } = deps;
  const router = new Router({ prefix: BROKER_AUTH_PATH });

  const report = (check: string, decision: Decision, fields: Record<string, unknown>): void => {
    // Refusals at warn so that guessing shows up in the logs; the password is not among the fields.
    if (decision.allow) logger.debug('broker access allowed', { check, ...fields });
    else logger.warn('broker access denied', { check, reason: decision.reason, ...fields });
  };
  const findUser = async (username: string): Promise<Principal | undefined> => principals.findUser(username);

  const user = async (ctx: Context): Promise<void> => {
    const req = await decodeParams(ctx, UserRequest);
    // The caller is the broker, on behalf of every AMQP client, so its
    // address is not a client's: throttled by user name at the caller's
    // address only (counting the address on its own would hold every AMQP
    // client back). An `ip` parameter is not used: anyone can call this
    // endpoint and send any.
    const origin = { address: `broker-auth ${ctx.ip}`, sharedAddress: true };
    // resolveBasic runs argon2 against a decoy for unknown users, so timing does not reveal which names exist.
    const resolution = await resolveBasic(principals, verifier, req.username, req.password, deps.throttle ? { throttle: deps.throttle, origin } : undefined);
    if (!resolution.ok && resolution.retryAfterMs !== undefined) {
      logger.warn('broker login held back: too many failed logins', { username: req.username, retryAfterMs: resolution.retryAfterMs });
      // Any answer but 200 refuses the login; 429 says why.
      ctx.status = 429;
      ctx.set('Retry-After', String(retryAfterSeconds(resolution.retryAfterMs)));
      ctx.set('Cache-Control', 'no-store');
      ctx.type = 'text/plain';
      ctx.body = 'deny';
      return;
    }
    const decision = decideLogin(resolution.ok ? resolution.principal : undefined, resolution.ok);
    report('user', decision, { username: req.username });
    answer(ctx, decision);
  };
  const vhost = async (ctx: Context): Promise<void> => {
    const req = await decodeParams(ctx, VhostRequest);
    const decision = decideVhost(await findUser(req.username), req.vhost);
    report('vhost', decision, { username: req.username, vhost: req.vhost, ip: req.ip });
    answer(ctx, decision);
  };
  const resource = async (ctx: Context): Promise<void> => {
    const req = await decodeParams(ctx, ResourceRequest);
    const caller = await findUser(req.username);
    // The lookup may read the log: only for queue requests of users who could get them at all.
    const clientQueue = req.resource === 'queue' && decideVhost(caller, req.vhost).allow && (await isClientQueue(req.name));
    const decision = decideResource(caller, req, clientQueue);
    report('resource', decision, { username: req.username, vhost: req.vhost, resource: req.resource, name: req.name, permission: req.permission });
    answer(ctx, decision);
  };
  const topic = async (ctx: Context): Promise<void> => {
    const req = await decodeParams(ctx, TopicRequest);
    const decision = decideTopic(await findUser(req.username), req.vhost);
    report('topic', decision, { username: req.username, vhost: req.vhost, name: req.name, permission: req.permission });
    answer(ctx, decision);
  };

  for (const [path, handler] of [['/user', user], ['/vhost', vhost], ['/resource', resource], ['/topic', topic]] as const) {
    router.get(path, handler);
    router.post(path, handler);
  }
  return router;
}
