// A reader configuration that recipes refer to (as their default or as a
// per-reader override) must keep satisfying them: it cannot be deleted, and
// a replace may not turn it into one a referencing recipe would be refused
// with. Pure; the reader configurations slice loads the recipes from the
// read model. Here rather than there: it knows the recipes' rules, and the
// recipes slice already depends on reader configurations.
//
// A replace is checked against the rules that relate a recipe to its reader
// configurations (docs/interface.md, Errors):
// - operation: must stay the recipe type's operation (LLRP: NORMAL) or
//   become DO_NOTHING;
// - reader mode: a LOCATION/INVENTORY recipe's reportingInterval must stay
//   at least the new reader mode's minimum;
// - tag expiry: a recipe with tagExpiryDuration needs LOCATION, or
//   INVENTORY with searchMode DUAL_TARGET.
// Refusals are 409 (the configuration is in use), naming each recipe.
import { isLeft, left, type Either } from 'fp-ts/Either';
import { conflict, type ApiError, type FieldError } from '../core/http/errors';
import { OPERATION_OF } from './fields';
import { referencedReaderConfigurations } from './lookup';
import type { Recipe } from './model';
import { allowsTagExpiry, MIN_REPORTING_INTERVAL } from './references';
import { validateReaderConfiguration, type ReaderConfiguration, type ReaderConfigurationUse } from '../readerconfigurations';
import { recipeKind } from './kind';

/** The recipes that refer to configuration `name`, in the order given. */
export function recipesUsing(name: string, recipes: readonly Recipe[]): Recipe[] {
  return recipes.filter((r) => referencedReaderConfigurations(r).has(name));
}

const quoted = (names: readonly string[]): string => names.map((n) => `'${n}'`).join(', ');

/** What would break in `r` if `rc` (one of its configurations) were stored as given. */
export function recipeConflicts(rc: ReaderConfiguration, r: Recipe): FieldError[] {
  if (rc.operation === 'DO_NOTHING') return [];
  const wanted = OPERATION_OF[r.type];
  if (rc.operation !== wanted) {
    return [
      {
        path: 'body.operation',
        reason: `recipe '${r.name}' (type ${r.type}) uses this configuration and needs operation ${wanted} or DO_NOTHING, got ${rc.operation}`,
      },
    ];
  }
  if (r.type !== 'LOCATION' && r.type !== 'INVENTORY') return [];
  const errors: FieldError[] = [];
  const minimum = MIN_REPORTING_INTERVAL[rc.configuration.readerMode];
  if (r.reportingInterval < minimum) {
    errors.push({
      path: 'body.configuration.readerMode',
      reason:
        `recipe '${r.name}' uses this configuration with reportingInterval ${r.reportingInterval}; ` +
        `reader mode ${rc.configuration.readerMode} needs at least ${minimum}`,
    });
  }
  if (r.tagExpiryDuration !== undefined && !allowsTagExpiry(rc)) {
    errors.push({
      path: 'body.configuration.searchMode',
      reason:
        `recipe '${r.name}' uses this configuration with tagExpiryDuration, which needs operation LOCATION, ` +
        `or INVENTORY with searchMode DUAL_TARGET (got operation ${rc.operation}, searchMode ${rc.configuration.searchMode ?? 'none'})`,
    });
  }
  return errors;
}

/** Each recipe using `rc` that storing `rc` would break, with what breaks. */
export function replaceConflicts(rc: ReaderConfiguration, recipes: readonly Recipe[]): Array<{ recipe: string; errors: FieldError[] }> {
  return recipesUsing(rc.name, recipes)
    .map((r) => ({ recipe: r.name, errors: recipeConflicts(rc, r) }))
    .filter((c) => c.errors.length > 0);
}

/** A 409 naming each recipe that storing `rc` would break, or undefined. */
export function writeRefusal(rc: ReaderConfiguration, recipes: readonly Recipe[]): ApiError | undefined {
  const conflicts = replaceConflicts(rc, recipes);
  if (conflicts.length === 0) return undefined;
  const errors = conflicts.flatMap((c) => c.errors);
  const names = quoted(conflicts.map((c) => c.recipe));
  return conflict(`Reader configuration '${rc.name}' is used by recipe ${names}, which this change would make invalid: ${errors[0]?.reason ?? ''}`, errors);
}

/**
 * A create or replace: the stored configuration, a 400 naming each bad
 * field, or a 409 naming each recipe the change would break.
 */
export function validateReaderConfigurationWrite(input: unknown, recipes: readonly Recipe[]): Either<ApiError, ReaderConfiguration> {
  const rc = validateReaderConfiguration(input);
  if (isLeft(rc)) return rc;
  const refused = writeRefusal(rc.right, recipes);
  return refused === undefined ? rc : left(refused);
}

/** The recipes' refusals of reader configuration writes and deletions, for the reader configurations slice. */
export const recipesUseOfReaderConfigurations: ReaderConfigurationUse = async (deps) => {
  const recipes = await deps.readModel.list(recipeKind);
  return {
    write: (rc) => writeRefusal(rc, recipes),
    remove: (name) => deletionRefusal(name, recipes),
  };
};

/** A 409 naming every recipe that refers to the configuration, or undefined. */
export function deletionRefusal(name: string, recipes: readonly Recipe[]): ApiError | undefined {
  const users = recipesUsing(name, recipes).map((r) => r.name);
  if (users.length === 0) return undefined;
  return conflict(
    `Reader configuration '${name}' is used by recipe ${quoted(users)}; change or delete ${users.length === 1 ? 'it' : 'them'} first`,
    users.map((r) => ({ path: 'params.readerConfigurationName', reason: `is used by recipe '${r}'` })),
  );
}
