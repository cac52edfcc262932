// Runs an upgrade command against `upgrade-<id>` (read, fold, decide, append
// with the read revision) and maps a lost race to a 409; and folds an
// upgrade's stream for show/{id}.
import type { EventStoreDBClient } from '@eventstore/db-client';
import * as E from 'fp-ts/Either';
import { handleCommand, type CommandOutcome } from '../core/command';
import { aggregateStream, ConcurrencyError } from '../core/eventstore';
import type { EventMetadata } from '../core/events';
import { conflict, type ApiError } from '../core/http/errors';
import { decideUpgrade, type UpgradeCommand } from './decide';
import { evolveUpgrade, initialUpgradeState, upgradeEvents, upgradeStream, type UpgradeEvent, type UpgradeState } from './events';

export async function runUpgradeCommand(
  client: EventStoreDBClient,
  id: string,
  command: UpgradeCommand,
  now: Date,
  metadata: EventMetadata = {},
): Promise<E.Either<ApiError, CommandOutcome<UpgradeState, UpgradeEvent>>> {
  try {
    return await handleCommand({
      client, stream: upgradeStream(id), codecs: upgradeEvents, initial: initialUpgradeState, evolve: evolveUpgrade, decide: decideUpgrade,
      command, now, metadata, retries: 5,
    });
  } catch (err) {
    if (err instanceof ConcurrencyError) return E.left(conflict(`upgrade ${id} changed concurrently; retry`));
    throw err;
  }
}

/** The upgrade's state from its stream (request null: no such upgrade). */
export async function upgradeState(client: EventStoreDBClient, id: string): Promise<UpgradeState> {
  const { state } = await aggregateStream({ client, stream: upgradeStream(id), codecs: upgradeEvents, initial: initialUpgradeState, evolve: evolveUpgrade });
  return state;
}
