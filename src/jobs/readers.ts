// Which readers a job takes (pure): the readers of its facility, those with a
// group in `readerGroups` when given, and only those whose recipe
// configuration exists and is not DO_NOTHING. A THRESHOLD job takes only the
// readers of its thresholds (the recipe's, or all of the facility's).
import { readerConfigurationFor, thresholdsOfRecipe, type Recipe } from '../recipes';
import type { ReaderConfiguration } from '../readerconfigurations';
import type { ReaderDefinition } from '../readerdefinitions';
import { heldReaders, type JobState } from './model';
import type { ReaderConflict } from './decide';
import type { Threshold } from '../thresholds';

export function resolveReaders(
  recipe: Recipe,
  facility: string,
  readerGroups: readonly string[] | null,
  readers: readonly ReaderDefinition[],
  configurations: ReadonlyMap<string, ReaderConfiguration>,
  thresholds: readonly Threshold[] = [],
): string[] {
  const doorReaders = recipe.type === 'THRESHOLD' ? new Set(thresholdsOfRecipe(recipe, facility, thresholds).flatMap((t) => Object.keys(t.readers))) : undefined;
  // An empty list means "no restriction", as absent does: clients that serialise unset lists send [].
  const groups = readerGroups !== null && readerGroups.length > 0 ? readerGroups : undefined;
  return readers
    .filter((r) => r.facility === facility)
    .filter((r) => groups === undefined || r.groups.some((g) => groups.includes(g)))
    .filter((r) => doorReaders === undefined || doorReaders.has(r.name))
    .filter((r) => {
      const configName = readerConfigurationFor(recipe, r.name);
      const config = configName === undefined ? undefined : configurations.get(configName);
      return config !== undefined && config.operation !== 'DO_NOTHING';
    })
    .map((r) => r.name)
    .sort();
}

/** Readers of `readerNames` held by another active job. */
export function readerConflicts(readerNames: readonly string[], jobs: readonly JobState[], exceptJobId?: string): ReaderConflict[] {
  const out: ReaderConflict[] = [];
  for (const job of jobs) {
    if (job.id === exceptJobId) continue;
    const held = heldReaders(job);
    for (const readerName of readerNames) if (held.includes(readerName)) out.push({ readerName, jobId: job.id });
  }
  return out;
}
