// The item engine's slice: no routes, background work in the `engine` role
// (src/engine/worker.ts; docs/item-processing.md, "Engine wiring").
import { hasRole } from '../config';
import type { Slice } from '../slice';
import { startEngineWorker } from './worker';

export const engineSlice: Slice = {
  name: 'engine',
  register() {
    // The engine serves nothing over HTTP: its output is ENGINE_STREAM.
  },
  start(deps, roles) {
    if (!hasRole({ roles }, 'engine')) return undefined;
    return startEngineWorker({ client: deps.client, readModel: deps.readModel, logger: deps.logger.child('item-engine'), snapshots: deps.engineSnapshots });
  },
};
