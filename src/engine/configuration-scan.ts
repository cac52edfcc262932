// The configuration as of an input position, folded straight from the log:
// only for an output written before the engine carried its configuration
// (events.ts, ItemsChanged.configuration), once; the run then carries the
// whole fold in its next append and never scans again. The client reads
// `$all` without a server-side filter, so this reads the log up to `upTo`
// once: an upgrade's one-time cost (docs/item-processing.md).
import type { EventStoreDBClient } from '@eventstore/db-client';
import { CONFIG_STREAM_PREFIXES, configEntryOf, EngineConfiguration } from './configuration';
import { logRange } from './log-range';

const isConfigStream = (stream: string): boolean => CONFIG_STREAM_PREFIXES.some((p) => stream.startsWith(p));

export async function scanConfiguration(client: EventStoreDBClient, upTo: bigint): Promise<EngineConfiguration> {
  const config = new EngineConfiguration();
  for await (const { events } of logRange(client, undefined, upTo, 5000)) {
    for (const { event: e } of events) {
      if (e === undefined || !e.isJson || !isConfigStream(e.streamId)) continue;
      const entry = configEntryOf(e.type, e.data);
      if (entry !== undefined) config.apply(entry);
    }
  }
  return config;
}
