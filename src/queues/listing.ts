// What the config read model keeps of the configured queues (projected by
// projections/config/queues.ts from the `queue-` streams):
//   config:clientQueue  queue name -> its QueueConfigured data, until it is retired
// `GET /queues/v1/show` lists them with what the broker says of each now.
import type { ResourceKind } from '../core/resource/kind';
import { QueueConfiguredData } from './events';

export const queueListKind: ResourceKind<QueueConfiguredData> = { kind: 'clientQueue', label: 'ClientQueue', codec: QueueConfiguredData };

/** The queues `user` may see and delete: an Admin every one, anyone else those they configured. Pure. */
export function visibleQueues(all: readonly QueueConfiguredData[], user: { name: string; roles: readonly string[] }): QueueConfiguredData[] {
  const admin = user.roles.includes('Admin');
  return all.filter((q) => admin || q.user === user.name).sort((a, b) => a.configuredAt.localeCompare(b.configuredAt) || a.queue.localeCompare(b.queue));
}
