// The readers role: tagtrail's own connections to readers that speak LLRP
// and the Impinj IoT interface (docs/readers.md). Reader definitions say which
// readers to connect (their `connection`), jobs say what they run; the one
// route receives IoT webhook deliveries.
import type { Slice } from '../slice';
import { jobsForAgents } from '../jobs';
import { mqttTopicPrefixOf } from './settings';
import { startReadersWork } from './work';
import { registerWebhookRoute } from './webhook';

export const readersSlice: Slice = {
  name: 'readers',
  register(table, deps) {
    // The one route: where IoT readers with delivery WEBHOOK post their events.
    registerWebhookRoute(table, deps, jobsForAgents);
  },
  start(deps, roles) {
    if (!roles.includes('readers')) return undefined;
    const { mqttUrl, mqttTopicPrefix } = deps.config.readers;
    return startReadersWork(deps, jobsForAgents, deps.config.readers, { url: mqttUrl, topicPrefix: mqttTopicPrefixOf(mqttTopicPrefix, deps.keys.base) });
  },
};
