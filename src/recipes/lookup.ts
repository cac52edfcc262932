// Questions other parts ask of a stored recipe: the job runner (which
// configuration does this reader get?) and the reader configuration slice
// (may this configuration be deleted?).
import type { Recipe } from './model';

/**
 * The reader configuration name for `readerName`: its per-reader override
 * if there is one, else the recipe's default; undefined when the recipe has
 * neither for this reader (it then takes no part in the job).
 */
export function readerConfigurationFor(recipe: Recipe, readerName: string): string | undefined {
  // Own properties only: a reader named "constructor" must not find Object's.
  return Object.hasOwn(recipe.readerConfigurations, readerName)
    ? recipe.readerConfigurations[readerName]
    : recipe.readerConfigurationName;
}

/** Every reader configuration name the recipe refers to, default and overrides. */
export function referencedReaderConfigurations(recipe: Recipe): ReadonlySet<string> {
  const names = new Set(Object.values(recipe.readerConfigurations));
  if (recipe.readerConfigurationName !== undefined) names.add(recipe.readerConfigurationName);
  return names;
}
