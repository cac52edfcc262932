// The rules that need the rest of the configuration: the reader
// configurations a recipe names (default and per-reader overrides) and the
// reader definitions its overrides are for.
//
// Decisions where the published interface is silent:
// - A per-reader override must name an existing reader definition: a typo
//   would otherwise leave that reader on the default without a word.
// - An empty readerConfigurations map does not count as "set": with no
//   default either, the recipe would configure no reader.
// - DO_NOTHING configurations are skipped by the reader mode and tag expiry
//   rules: a disabled reader neither reports nor expires tags.
// - MODE_1004 is listed with both minimum intervals; the stricter (3 s)
//   wins. MODE_1003 is listed with neither; it is a fast mode, so 0.
// - tagExpiryDuration with INVENTORY needs searchMode DUAL_TARGET exactly;
//   every other search mode (READER_SELECTED, TAG_FOCUS, the BTOA
//   variants, ...) is refused like SINGLE_TARGET: the published interface allows only
//   DUAL_TARGET, and with single-target modes a tag that stays quiet
//   cannot be told from a tag that left.
import type { FieldError } from '../core/http/errors';
import type { ActiveReaderConfiguration, ReaderConfiguration, ReaderMode } from '../readerconfigurations';
import { OPERATION_OF, type GivenRecipe } from './fields';
import type { RecipeType, ReportingInterval } from './model';

export interface RecipeContext {
  /** Every stored reader configuration, by name. */
  readonly readerConfigurations: ReadonlyMap<string, ReaderConfiguration>;
  /** Every reader definition name, over all facilities. */
  readonly readerDefinitionNames: ReadonlySet<string>;
}

/** An active reader configuration the recipe uses, and which field names it. */
export interface UsedConfiguration {
  readonly path: string;
  readonly configuration: ActiveReaderConfiguration;
}

export const MIN_REPORTING_INTERVAL: Readonly<Record<ReaderMode, number>> = {
  MAX_THROUGHPUT: 0,
  HYBRID: 0,
  MAX_MILLER: 0,
  MODE_1003: 0,
  DENSE_READER_M4: 3,
  DENSE_READER_M8: 3,
  DENSE_READER_M4_TWO: 3,
  AUTOSET_DENSE_READER: 3,
  MODE_1002: 3,
  MODE_1004: 3,
};

const DEFAULT_PATH = 'body.readerConfigurationName';

/** Existence of what is named, and the operation rule (Errors 8). */
export function referenceErrors(
  type: RecipeType,
  b: GivenRecipe,
  ctx: RecipeContext,
): { errors: FieldError[]; used: UsedConfiguration[] } {
  const errors: FieldError[] = [];
  const used: UsedConfiguration[] = [];
  const overrides = Object.entries(b.readerConfigurations ?? {});
  if (b.readerConfigurationName === undefined && overrides.length === 0) {
    errors.push({ path: DEFAULT_PATH, reason: 'is required unless readerConfigurations maps at least one reader' });
  }
  const refs: Array<{ path: string; name: string }> = [];
  if (b.readerConfigurationName !== undefined) refs.push({ path: DEFAULT_PATH, name: b.readerConfigurationName });
  for (const [reader, name] of overrides) {
    const path = `body.readerConfigurations.${reader}`;
    if (!ctx.readerDefinitionNames.has(reader)) errors.push({ path, reason: `no reader definition named '${reader}'` });
    refs.push({ path, name });
  }
  const wanted = OPERATION_OF[type];
  for (const { path, name } of refs) {
    const rc = ctx.readerConfigurations.get(name);
    if (rc === undefined) {
      errors.push({ path, reason: `no reader configuration named '${name}'` });
    } else if (rc.operation === 'DO_NOTHING') {
      continue;
    } else if (rc.operation !== wanted) {
      errors.push({
        path,
        reason: `reader configuration '${name}' has operation ${rc.operation}; a ${type} recipe needs ${wanted} or DO_NOTHING`,
      });
    } else {
      used.push({ path, configuration: rc });
    }
  }
  return { errors, used };
}

/** One entry per configuration, however many readers use it. */
function distinct(used: readonly UsedConfiguration[]): ActiveReaderConfiguration[] {
  return [...new Map(used.map((u) => [u.configuration.name, u.configuration])).values()];
}

/** Errors 2: the reporting interval must be one the reader mode supports. */
export function readerModeErrors(used: readonly UsedConfiguration[], interval: ReportingInterval): FieldError[] {
  return distinct(used)
    .filter((rc) => interval < MIN_REPORTING_INTERVAL[rc.configuration.readerMode])
    .map((rc) => ({
      path: 'body.reportingInterval',
      reason:
        `must be at least ${MIN_REPORTING_INTERVAL[rc.configuration.readerMode]} for reader mode ` +
        `${rc.configuration.readerMode} of reader configuration '${rc.name}', got ${interval}`,
    }));
}

export function allowsTagExpiry(rc: ActiveReaderConfiguration): boolean {
  return rc.operation === 'LOCATION' || (rc.operation === 'INVENTORY' && rc.configuration.searchMode === 'DUAL_TARGET');
}

/** Errors 4, first half: tag expiry needs readers that keep seeing a present tag. */
export function tagExpiryErrors(used: readonly UsedConfiguration[]): FieldError[] {
  return distinct(used)
    .filter((rc) => !allowsTagExpiry(rc))
    .map((rc) => ({
      path: 'body.tagExpiryDuration',
      reason:
        `is not allowed with reader configuration '${rc.name}' (operation ${rc.operation}, searchMode ` +
        `${rc.configuration.searchMode ?? 'none'}): it needs operation LOCATION, or INVENTORY with searchMode DUAL_TARGET`,
    }));
}
