// The items projection's fold of one batch (docs/item-processing.md, "Write
// cost"), pure: the changes of the batch's ItemsChanged events and the items
// they touch as Redis holds them in, the Redis commands of the batch out.
//
// Coalesced: an item changed several times in a batch is written once, in its
// last state (a batch is in log order, so the last change of an EPC is its
// newest). Only the writes that change something are sent: an item already
// stored is a member of `all` and of its index sets (the same MULTI wrote
// them), so it joins only the sets it was not in. Commands are built as raw
// arguments, one variadic ZADD / ZREM / HSET per key: a batch of thousands of
// changes touches a few dozen keys.
import type { RecordedDomainEvent } from '../../src/core/events';
import type { ItemChange, ItemsEvent } from '../../src/engine';
import { changeOrder, commitOrder, encodeStoredItem, historyId, historyRecordOf, itemAfter, type ItemKeys, keptInHistory, type StoredItem } from '../../src/items';

/** The newest change of an item in a batch, with its place in the log. */
export interface LatestChange {
  change: ItemChange;
  /** The event's commit position as changeOrder writes it (formatted once per event, not per change). */
  commit: string;
  index: number;
}

/** What a batch writes: the items (by EPC) and the Redis commands, as arguments. */
export interface FoldedBatch {
  written: Map<string, StoredItem>;
  commands: string[][];
}

/** Score of the sets read by lex range (docs: src/items/keys.ts). */
const LEX = '0';

/**
 * The newest item change of each EPC in `events` (those the items read model
 * keeps), and the history writes of every change the history keeps.
 */
export function latestChanges(events: ReadonlyArray<RecordedDomainEvent<ItemsEvent>>, k: ItemKeys): { latest: Map<string, LatestChange>; history: string[][] } {
  const latest = new Map<string, LatestChange>();
  const ids: string[] = ['ZADD', k.history];
  const records: string[] = ['HSET', k.historyRecord];
  for (const e of events) {
    if (e.position === undefined) throw new Error(`ItemsChanged ${e.id} has no $all position`);
    const commit = commitOrder(e.position.commit);
    e.data.changes.forEach((change, index) => {
      if (change.reportToDatabaseEnabled) latest.set(change.epc.toUpperCase(), { change, commit, index });
      if (change.reportToHistoryEnabled && keptInHistory(change.kind)) {
        const id = historyId(change.observationTime, e.id, index);
        ids.push(LEX, id);
        records.push(id, JSON.stringify(historyRecordOf(change)));
      }
    });
  }
  return { latest, history: ids.length > 2 ? [ids, records] : [] };
}

/**
 * The writes that bring the items of `latest` from `before` (as Redis holds
 * them once the queued MULTIs committed) to their newest change. A change
 * at or before the one an item shows is ignored (a replay).
 */
export function foldItems(latest: ReadonlyMap<string, LatestChange>, before: ReadonlyMap<string, StoredItem>, k: ItemKeys): FoldedBatch {
  const sets = new SetCommands(k);
  const written = new Map<string, StoredItem>();
  const hash: string[] = ['HSET', k.item];
  for (const [epc, { change, commit, index }] of latest) {
    const at = changeOrder(commit, index);
    const old = before.get(epc);
    if (old !== undefined && old.at >= at) continue;
    const stored: StoredItem = { item: itemAfter(change), ms: change.observationTime, at };
    sets.move(epc, old, stored);
    hash.push(epc, encodeStoredItem(stored));
    written.set(epc, stored);
  }
  const commands = sets.commands();
  if (hash.length > 2) commands.push(hash);
  return { written, commands };
}

/** The sorted-set writes of a batch, grouped by key (removals first: an EPC leaves a set or joins it, never both). */
class SetCommands {
  private readonly adds = new Map<string, string[]>();
  private readonly removes = new Map<string, string[]>();
  private readonly facility = new KeyCache((name) => this.k.facility(name));
  private readonly zone = new KeyCache((name) => this.k.zone(name));
  private readonly job = new KeyCache((id) => this.k.job(id));

  constructor(private readonly k: ItemKeys) {}

  /** An item goes from `old` (absent: a new item) to `stored`. */
  move(epc: string, old: StoredItem | undefined, stored: StoredItem): void {
    const from = old?.item;
    const to = stored.item;
    if (from === undefined) this.add(this.k.all, LEX, epc);
    if (from === undefined || from.facility !== to.facility) {
      if (from?.facility != null) this.remove(this.facility.of(from.facility), epc);
      if (to.facility !== null) this.add(this.facility.of(to.facility), LEX, epc);
    }
    if (from === undefined || from.zone !== to.zone) {
      if (from !== undefined) this.remove(this.zone.of(from.zone), epc);
      this.add(this.zone.of(to.zone), LEX, epc);
    }
    if (from === undefined || from.jobId !== to.jobId) {
      if (from !== undefined) this.remove(this.job.of(from.jobId), epc);
      this.add(this.job.of(to.jobId), LEX, epc);
    }
    if (old?.ms !== stored.ms) this.add(this.k.time, String(stored.ms), epc);
  }

  commands(): string[][] {
    return [...this.removes.values(), ...this.adds.values()];
  }

  private add(key: string, score: string, epc: string): void {
    const command = this.adds.get(key);
    if (command) command.push(score, epc);
    else this.adds.set(key, ['ZADD', key, score, epc]);
  }

  private remove(key: string, epc: string): void {
    const command = this.removes.get(key);
    if (command) command.push(epc);
    else this.removes.set(key, ['ZREM', key, epc]);
  }
}

/** Index keys by name, built once a batch instead of once a change. */
class KeyCache {
  private readonly keys = new Map<string, string>();
  constructor(private readonly build: (name: string) => string) {}
  of(name: string): string {
    let key = this.keys.get(name);
    if (key === undefined) this.keys.set(name, (key = this.build(name)));
    return key;
  }
}
