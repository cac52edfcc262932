// What the config read model keeps of upgrades (projected by
// projections/config/upgrades.ts from the `upgrade-` streams):
//   config:upgrade        id -> {id, upgradeRequest, created}   (GET show)
//   config:upgradeActive  id -> {id, readerNames}  until UpgradeFinished
//                         (a reader in an active upgrade cannot join another)
// The status of one upgrade is folded from its stream at read time
// (GET show/{id}): a few events per reader, and always current.
import * as t from 'io-ts';
import type { ResourceKind } from '../core/resource/kind';
import { UpgradeRequest } from './codec';

export const UpgradeListEntry = t.type({ id: t.string, upgradeRequest: UpgradeRequest, created: t.string }, 'UpgradeListEntry');
export type UpgradeListEntry = t.TypeOf<typeof UpgradeListEntry>;
export const upgradeListKind: ResourceKind<UpgradeListEntry> = { kind: 'upgrade', label: 'Upgrade', codec: UpgradeListEntry };

export const ActiveUpgrade = t.type({ id: t.string, readerNames: t.array(t.string) }, 'ActiveUpgrade');
export type ActiveUpgrade = t.TypeOf<typeof ActiveUpgrade>;
export const activeUpgradeKind: ResourceKind<ActiveUpgrade> = { kind: 'upgradeActive', label: 'UpgradeActive', codec: ActiveUpgrade };

/** `GET show`: `{id, upgradeRequest}`, oldest first. */
export const toListEntries = (entries: readonly UpgradeListEntry[]): Array<{ id: string; upgradeRequest: UpgradeRequest }> =>
  [...entries].sort((a, b) => a.created.localeCompare(b.created) || a.id.localeCompare(b.id)).map((e) => ({ id: e.id, upgradeRequest: e.upgradeRequest }));
