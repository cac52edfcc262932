// The form parameters RabbitMQ's HTTP authentication backend sends (POST
// body or GET query, application/x-www-form-urlencoded). Other parameters
// (tags, ip, client_id, variable_map.*, ... depending on the RabbitMQ
// version) are ignored: t.type keeps only the declared fields.
import * as t from 'io-ts';

export const UserRequest = t.type({ username: t.string, password: t.string });
export type UserRequest = t.TypeOf<typeof UserRequest>;

export const VhostRequest = t.intersection([
  t.type({ username: t.string, vhost: t.string }),
  // The client's address, for the log.
  t.partial({ ip: t.string }),
]);
export type VhostRequest = t.TypeOf<typeof VhostRequest>;

export const ResourceKind = t.keyof({ queue: null, exchange: null, topic: null }, 'queue | exchange | topic');
export const Permission = t.keyof({ configure: null, write: null, read: null }, 'configure | write | read');

export const ResourceRequest = t.type({
  username: t.string,
  vhost: t.string,
  resource: ResourceKind,
  name: t.string,
  permission: Permission,
});
export type ResourceRequest = t.TypeOf<typeof ResourceRequest>;

export const TopicRequest = t.type({ username: t.string, vhost: t.string, name: t.string, permission: Permission });
export type TopicRequest = t.TypeOf<typeof TopicRequest>;
