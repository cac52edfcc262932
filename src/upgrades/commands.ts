// Where upgrade commands run: `upgrade-<id>`, decided by decideUpgrade; and
// the fold of an upgrade's stream for show/{id}.
import type { EventStoreDBClient } from '@eventstore/db-client';
import type { CommandStream, Decider } from '../core/command';
import { aggregateStream } from '../core/eventstore';
import type { ApiError } from '../core/http/errors';
import { decideUpgrade, type UpgradeCommand } from './decide';
import { evolveUpgrade, initialUpgradeState, upgradeEvents, upgradeStream, type UpgradeEvent, type UpgradeState } from './events';

export const upgradeDecider: Decider<UpgradeCommand, UpgradeState, UpgradeEvent, ApiError> = {
  initialState: initialUpgradeState,
  evolve: evolveUpgrade,
  decide: decideUpgrade,
};

/** For runCommand: the upgrade's stream (the runner and the stop route may race on it). */
export const onUpgrade = (id: string): CommandStream<typeof upgradeEvents, UpgradeCommand, UpgradeState, ApiError> => ({
  stream: upgradeStream(id),
  codecs: upgradeEvents,
  decider: upgradeDecider,
  retries: 5,
  conflict: `upgrade ${id} changed concurrently; retry`,
});

/** The upgrade's state from its stream (request null: no such upgrade). */
export async function upgradeState(client: EventStoreDBClient, id: string): Promise<UpgradeState> {
  const { state } = await aggregateStream({ client, stream: upgradeStream(id), codecs: upgradeEvents, ...upgradeDecider });
  return state;
}
