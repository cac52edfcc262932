// Projects the `upgrade-` streams into the upgrade list and the set of
// active upgrades (keys in src/upgrades/listing.ts).
import type { ConfigProjectionPart } from './part';
import { activeUpgradeKind, upgradeListKind, type ActiveUpgrade, type UpgradeListEntry, UPGRADE_STREAM_PREFIX, upgradeEvents, type UpgradeEvent } from '../../src/upgrades';

export const upgradesPart: ConfigProjectionPart = {
  streamPrefix: UPGRADE_STREAM_PREFIX,
  codecs: upgradeEvents,
  apply(tx, recorded, keys) {
    const id = recorded.streamId.slice(UPGRADE_STREAM_PREFIX.length);
    const event = recorded as unknown as UpgradeEvent;
    switch (event.type) {
      case 'UpgradeStarted': {
        const entry: UpgradeListEntry = { id, upgradeRequest: event.data.request, created: event.data.time };
        const active: ActiveUpgrade = { id, readerNames: event.data.readers.map((r) => r.name) };
        tx.hSet(keys.config(upgradeListKind.kind), id, JSON.stringify(upgradeListKind.codec.encode(entry)));
        tx.hSet(keys.config(activeUpgradeKind.kind), id, JSON.stringify(activeUpgradeKind.codec.encode(active)));
        break;
      }
      case 'UpgradeFinished':
        tx.hDel(keys.config(activeUpgradeKind.kind), id);
        break;
      default:
        break;
    }
  },
};
