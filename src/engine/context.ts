// Builds the engine's view of a job from the stored documents: recipe
// durations in milliseconds, readers with normalized floors, the flags.
import { isLeft } from 'fp-ts/Either';
import { parseIsoDuration } from '../core/duration';
import { normalizeFloor, type ReaderDefinition } from '../readerdefinitions';
import { type InventoryRecipe, type LocationRecipe, reportingIntervalMs } from '../recipes';
import type { EngineReader, EngineRecipe } from './types';

function millis(iso: string): number {
  const parsed = parseIsoDuration(iso);
  // Stored recipes hold canonical durations; anything else is a bug upstream.
  if (isLeft(parsed)) throw new Error(`stored recipe duration does not parse: ${parsed.left}`);
  return parsed.right;
}

export function engineRecipeOf(recipe: LocationRecipe | InventoryRecipe): EngineRecipe {
  const common = {
    tagHeartbeatMs: millis(recipe.tagHeartbeatDuration),
    tagExpiryMs: recipe.tagExpiryDuration === undefined ? undefined : millis(recipe.tagExpiryDuration),
    computeWindowMs: recipe.computeWindow * 1000,
    reportingIntervalMs: reportingIntervalMs(recipe.reportingInterval),
  };
  switch (recipe.type) {
    case 'LOCATION':
      return { ...common, type: 'LOCATION', minimumMovementInMeters: recipe.minimumMovementInMeters };
    case 'INVENTORY':
      return { ...common, type: 'INVENTORY', minimumMovementInMeters: 0 };
    default: {
      const never: never = recipe;
      throw new Error(`not an item recipe: ${JSON.stringify(never)}`);
    }
  }
}

export function engineReaderOf(def: ReaderDefinition): EngineReader {
  return {
    placement: def.placement,
    readerZone: def.readerZone,
    antennaZones: def.antennaZones,
    floor: normalizeFloor(def.placement?.floor),
  };
}

export function engineReaders(defs: readonly ReaderDefinition[]): ReadonlyMap<string, EngineReader> {
  return new Map(defs.map((d) => [d.name, engineReaderOf(d)]));
}
