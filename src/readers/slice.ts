// The readers role: tagtrail's own connections to readers that speak LLRP
// (docs/readers.md). No routes: reader definitions say which readers to
// connect (their `connection`), jobs say what they run.
import type { Slice } from '../core/slice';
import { jobsForAgents } from '../jobs/agents';
import { loadMqttSettings, loadReadersSettings } from './settings';
import { startReadersWork } from './work';

export const readersSlice: Slice = {
  name: 'readers',
  register() {
    // Nothing to route: the role connects out.
  },
  start(deps, roles) {
    if (!roles.includes('readers')) return undefined;
    return startReadersWork(deps, jobsForAgents, loadReadersSettings(process.env), loadMqttSettings(process.env, deps.keys.base));
  },
};
