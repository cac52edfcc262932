// The item engine's slice: no routes, background work in the `engine` role
// (src/engine/worker.ts, one worker per partition this process owns:
// src/engine/partitioned.ts; docs/item-processing.md, "Engine wiring").
import { hasRole } from '../config';
import type { Slice } from '../slice';
import { startPartitionedEngine } from './partitioned';

export const engineSlice: Slice = {
  name: 'engine',
  register() {
    // The engine serves nothing over HTTP: its output is the partitions' output streams.
  },
  start(deps, roles) {
    if (!hasRole({ roles }, 'engine')) return undefined;
    const p = deps.config.enginePartitions;
    const clock = deps.clock;
    return startPartitionedEngine(
      {
        client: deps.client,
        logger: deps.logger.child('item-engine'),
        snapshots: deps.engineSnapshots,
        ...(clock ? { clock: () => clock.now().getTime() } : {}),
      },
      {
        count: p.count,
        owned: p.owned,
        // One partition needs no lease: a second engine process is fenced by the expected revision, as it always was.
        ...(p.count > 1 ? { lease: { redis: deps.redis, keyOf: (i: number) => deps.keys.engineLease(i), ttlMs: p.leaseMs, membersKey: deps.keys.engineMembers } } : {}),
      },
    );
  },
};
