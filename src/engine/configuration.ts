// The configuration the engine runs jobs with, folded from the configuration
// events of the log at their positions: recipes, reader definitions, zone
// maps, each facility's current zone map, thresholds and antenna
// configurations. The engine never reads a read model for it, so the same
// log gives the same contexts on every run and on a replay, and losing Redis
// changes nothing (docs/item-processing.md, "What the engine reads").
//
// Each configuration event becomes one entry change (ConfigEntry): a kind, a
// name and the document, or null when it was deleted. The engine carries the
// entries it folded in its own output (ItemsChanged.configuration) and the
// whole fold in its snapshots, so a restart gets the fold back from the
// engine's stream without scanning the log.
import * as t from 'io-ts';
import { isLeft } from 'fp-ts/Either';
import { formatDecodeErrors } from '../core/decode-errors';
import { resourceEventCodecs, eventNames, streamOf, type ResourceKind } from '../core/resource/kind';
import type { JobState } from '../jobs';
import { readerDefinitionKind, type ReaderDefinition } from '../readerdefinitions';
import { recipeKind } from '../recipes';
import { antennaConfigurationKind, thresholdKind, type AntennaConfiguration, type Threshold } from '../thresholds';
import { CURRENT_ZONE_MAP_STREAM_PREFIX, currentZoneMapEvents, zoneLocator, zoneMapKind } from '../zonemaps';
import { engineReaders, engineRecipeOf } from './context';
import { thresholdJobContext, type ThresholdJobContext } from './threshold/context';
import type { JobContext } from './types';

// The stored documents as their kinds define them; the reader definition without its connection (reader credentials never enter the engine's output).
const KINDS = {
  recipe: recipeKind,
  readerDefinition: readerDefinitionKind,
  zoneMap: zoneMapKind,
  threshold: thresholdKind,
  antennaConfiguration: antennaConfigurationKind,
} as const;
type ResourceKindName = keyof typeof KINDS;
type Doc<K extends ResourceKindName> = (typeof KINDS)[K] extends ResourceKind<infer R> ? R : never;

export const ConfigEntryKind = t.keyof({ recipe: null, readerDefinition: null, zoneMap: null, threshold: null, antennaConfiguration: null, currentZoneMap: null });
export type ConfigEntryKind = t.TypeOf<typeof ConfigEntryKind>;

/** One configuration document as of a log position: `value` null when it was deleted (or the facility's selection cleared). */
export const ConfigEntryCodec = t.type({ kind: ConfigEntryKind, name: t.string, value: t.unknown });
export type ConfigEntry = t.TypeOf<typeof ConfigEntryCodec>;

/** The streams the engine folds configuration from (its input filter adds them). */
export const CONFIG_STREAM_PREFIXES: readonly string[] = [
  ...Object.values(KINDS).map((k) => streamOf(k as ResourceKind<unknown>, '')),
  CURRENT_ZONE_MAP_STREAM_PREFIX,
];

/** The configuration events' codecs, for the engine's input. */
export const configEvents = {
  ...Object.values(KINDS).reduce((all, k) => ({ ...all, ...resourceEventCodecs(k as ResourceKind<unknown>) }), {}),
  ...currentZoneMapEvents,
};

const KIND_OF_TYPE = new Map<string, { kind: ResourceKindName; deleted: boolean }>(
  (Object.keys(KINDS) as ResourceKindName[]).flatMap((kind) => {
    const n = eventNames(KINDS[kind] as ResourceKind<unknown>);
    return [
      [n.created, { kind, deleted: false }],
      [n.replaced, { kind, deleted: false }],
      [n.deleted, { kind, deleted: true }],
    ] as const;
  }),
);

/** The entry change a configuration event makes, or undefined when `type` is none of them. */
export function configEntryOf(type: string, data: unknown): ConfigEntry | undefined {
  const d = data as { name?: string; resource?: unknown; facility?: string; zoneMapName?: string };
  if (type === 'CurrentZoneMapSelected') return { kind: 'currentZoneMap', name: d.facility ?? '', value: d.zoneMapName ?? null };
  if (type === 'CurrentZoneMapCleared') return { kind: 'currentZoneMap', name: d.facility ?? '', value: null };
  const k = KIND_OF_TYPE.get(type);
  if (k === undefined) return undefined;
  if (k.deleted) return { kind: k.kind, name: d.name ?? '', value: null };
  if (k.kind === 'readerDefinition') {
    const { connection: _secret, ...reader } = d.resource as ReaderDefinition;
    return { kind: k.kind, name: d.name ?? '', value: reader };
  }
  return { kind: k.kind, name: d.name ?? '', value: d.resource };
}

function decodeValue<K extends ResourceKindName>(kind: K, entry: ConfigEntry): Doc<K> {
  const decoded = KINDS[kind].codec.decode(entry.value);
  // Entries come from decoded configuration events or from the engine's own output: a failure is a bug.
  if (isLeft(decoded)) throw new Error(`engine configuration: ${kind} ${entry.name}: ${formatDecodeErrors(decoded.left).map((f) => `${f.path}: ${f.reason}`).join('; ')}`);
  return decoded.right as Doc<K>;
}

/** The folded configuration; `version` moves on every change, so contexts built from it know when they are stale. */
export class EngineConfiguration {
  private readonly docs: { [K in ResourceKindName]: Map<string, Doc<K>> } = {
    recipe: new Map(),
    readerDefinition: new Map(),
    zoneMap: new Map(),
    threshold: new Map(),
    antennaConfiguration: new Map(),
  };
  private readonly current = new Map<string, string>();
  private changes = 0;

  get version(): number {
    return this.changes;
  }

  apply(entry: ConfigEntry): void {
    this.changes++;
    if (entry.kind === 'currentZoneMap') {
      if (entry.value === null) this.current.delete(entry.name);
      else if (typeof entry.value === 'string') this.current.set(entry.name, entry.value);
      else throw new Error(`engine configuration: current zone map of ${entry.name} is not a name`);
      return;
    }
    const map = this.docs[entry.kind] as Map<string, unknown>;
    if (entry.value === null) map.delete(entry.name);
    else map.set(entry.name, decodeValue(entry.kind, entry));
  }

  /** Every entry, in a fixed order: what a snapshot keeps and what a fresh fold starts from. */
  entries(): ConfigEntry[] {
    const out: ConfigEntry[] = [];
    for (const kind of Object.keys(this.docs) as ResourceKindName[]) {
      for (const [name, value] of [...(this.docs[kind] as Map<string, unknown>)].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) out.push({ kind, name, value });
    }
    for (const [name, value] of [...this.current].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) out.push({ kind: 'currentZoneMap', name, value });
    return out;
  }

  static of(entries: readonly ConfigEntry[]): EngineConfiguration {
    const config = new EngineConfiguration();
    for (const e of entries) config.apply(e);
    return config;
  }

  /** The context of an item job (INVENTORY or LOCATION recipe), or undefined. */
  jobContext(job: JobState): JobContext | undefined {
    const req = job.job;
    if (req === null) return undefined;
    const recipe = this.docs.recipe.get(req.recipeName);
    if (recipe === undefined || (recipe.type !== 'INVENTORY' && recipe.type !== 'LOCATION')) return undefined;
    const zoneMap = this.currentZoneMapOf(req.facility);
    return {
      jobId: job.id,
      facility: req.facility,
      recipe: engineRecipeOf(recipe),
      flags: {
        reportToDatabaseEnabled: req.reportToDatabaseEnabled,
        reportToHistoryEnabled: req.reportToHistoryEnabled,
        reportToMessageQueueEnabled: req.reportToMessageQueueEnabled,
      },
      useOtherJobData: req.useOtherJobData,
      readers: engineReaders([...this.docs.readerDefinition.values()]),
      locator: zoneMap === undefined ? undefined : zoneLocator(zoneMap),
    };
  }

  /** The context of a THRESHOLD job, or undefined for any other job. */
  thresholdContext(job: JobState): ThresholdJobContext | undefined {
    const req = job.job;
    if (req === null) return undefined;
    const recipe = this.docs.recipe.get(req.recipeName);
    if (recipe?.type !== 'THRESHOLD') return undefined;
    const byId = <D extends { id: number }>(m: Map<string, D>): D[] => [...m.values()].sort((a, b) => a.id - b.id);
    return thresholdJobContext({
      jobId: job.id,
      facility: req.facility,
      recipe,
      thresholds: byId<Threshold>(this.docs.threshold),
      antennaConfigurations: byId<AntennaConfiguration>(this.docs.antennaConfiguration),
      reportToDatabaseEnabled: req.reportToDatabaseEnabled,
      reportToMessageQueueEnabled: req.reportToMessageQueueEnabled,
    });
  }

  /**
   * The facility's current zone map. A selection whose zone map is gone or
   * belongs to another facility (a race the write side otherwise refuses)
   * counts as none: tags are never located with another facility's map.
   */
  private currentZoneMapOf(facility: string): Doc<'zoneMap'> | undefined {
    const name = this.current.get(facility);
    const zoneMap = name === undefined ? undefined : this.docs.zoneMap.get(name);
    return zoneMap !== undefined && zoneMap.facility === facility ? zoneMap : undefined;
  }
}
