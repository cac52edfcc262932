// What a tagtrail user may do on the broker, as RabbitMQ's HTTP
// authentication backend asks it (docs/queues.md#broker-authentication).
// Pure: the caller looks the user up and checks the password first.
//
// Clients only consume the queues tagtrail declares for them. Reading a queue
// (basic.consume, basic.get) needs `read` on it. Existing clients also
// re-declare their queue non-passively with the same durable flag and
// arguments (docs/interface.md, "AMQP queues"), and RabbitMQ checks `configure` on
// every non-passive queue.declare, even of an existing, equivalent queue; so
// `configure` is granted on tagtrail's client queues too, and nothing else.
// `write` (publishing), every exchange and topic access stay denied: the
// relay publishes with the service's own broker user, which the internal
// backend authorises.
import { hasAnyRole, type Principal, type Role } from '../auth';

/** Roles that may log in to the broker and consume (Admin passes every role check). */
export const BROKER_ROLES: readonly Role[] = ['DataReader'];

/** The only virtual host clients use (`serverUrl` ends in `/%2F`). */
export const BROKER_VHOST = '/';

export type BrokerPermission = 'configure' | 'write' | 'read';
export type BrokerResourceKind = 'queue' | 'exchange' | 'topic';

export type Decision = { readonly allow: true } | { readonly allow: false; readonly reason: string };

const ALLOW: Decision = { allow: true };
const deny = (reason: string): Decision => ({ allow: false, reason });

/** Whether `user` (undefined: unknown) may use the broker at all. */
function roleDecision(user: Principal | undefined): Decision {
  if (user === undefined) return deny('unknown user');
  if (!hasAnyRole(user, BROKER_ROLES)) return deny('user lacks the DataReader or Admin role');
  return ALLOW;
}

/**
 * Login (user_path), after the password check: `passwordOk` false denies
 * whatever the user; a user without a broker role is refused here already,
 * so it never holds a connection.
 */
export function decideLogin(user: Principal | undefined, passwordOk: boolean): Decision {
  if (user === undefined || !passwordOk) return deny('invalid credentials');
  return roleDecision(user);
}

/** Opening a virtual host (vhost_path). */
export function decideVhost(user: Principal | undefined, vhost: string): Decision {
  const role = roleDecision(user);
  if (!role.allow) return role;
  return vhost === BROKER_VHOST ? ALLOW : deny(`virtual host ${JSON.stringify(vhost)} is not tagtrail's`);
}

export interface ResourceRequest {
  readonly vhost: string;
  readonly resource: BrokerResourceKind;
  readonly name: string;
  readonly permission: BrokerPermission;
}

/**
 * A permission on a queue or exchange (resource_path). `isClientQueue`: the
 * resource is a queue tagtrail configured for clients (see client-queues.ts).
 */
export function decideResource(user: Principal | undefined, req: ResourceRequest, isClientQueue: boolean): Decision {
  const vhost = decideVhost(user, req.vhost);
  if (!vhost.allow) return vhost;
  if (req.resource !== 'queue') return deny(`${req.resource} access is not granted to clients`);
  if (!isClientQueue) return deny(`queue ${JSON.stringify(req.name)} is not a tagtrail client queue`);
  if (req.permission === 'write') return deny('clients may not publish');
  return ALLOW; // read: consume; configure: the equivalent redeclare existing clients make
}

/**
 * Topic authorisation (topic_path): only asked for topic exchanges, which
 * clients neither publish to nor bind; always denied.
 */
export function decideTopic(user: Principal | undefined, vhost: string): Decision {
  const v = decideVhost(user, vhost);
  return v.allow ? deny('topic access is not granted to clients') : v;
}
