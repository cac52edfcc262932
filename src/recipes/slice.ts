// Recipes: CRUD on named recipe documents under /configuration/v1/recipes.
// Validation needs every reader configuration (operation rule, reader mode
// and tag expiry rules) and the reader definition names (per-reader
// overrides), both loaded from the config read model before deciding.
import type { ApiError } from '../core/http/errors';
import { addNamedResourceRoutes, type ResourceDeps } from '../core/resource/routes';
import type { Slice } from '../slice';
import type { ConfigReadModel } from '../core/resource/readmodel';
import { readerConfigurationKind, namedBody, type NamedBody } from '../readerconfigurations';
import { readerDefinitionsOf } from '../readerdefinitions';
import { RecipeBody } from './codec';
import { recipeKind, RECIPE_READ_ROLES, RECIPE_WRITE_ROLES, RECIPES_BASE } from './kind';
import type { Recipe } from './model';
import type { RecipeContext } from './references';
import { toResponse } from './response';
import { recipeBodySchema, recipeResponseSchema } from './schema';
import { validateRecipe } from './validate';

/** Everything validateRecipe needs, from the config read model. */
export async function recipeContext(readModel: ConfigReadModel): Promise<RecipeContext> {
  const [readerConfigurations, readerDefinitions] = await Promise.all([
    readModel.map(readerConfigurationKind),
    readerDefinitionsOf(readModel),
  ]);
  return { readerConfigurations, readerDefinitionNames: new Set(readerDefinitions.map((r) => r.name)) };
}

/**
 * A recipe used by an active job must not be deleted: the jobs code provides
 * a guard answering a 409 that names the active job(s) using the recipe,
 * and src/app/slices.ts builds this slice with it. Guards are passed in so
 * that this slice does not depend on the jobs slice.
 */
export type RecipeDeletionGuard = (recipeName: string, recipe: Recipe, deps: ResourceDeps) => Promise<ApiError | undefined>;

export interface RecipesSliceOptions {
  /** Run in order before a delete; the first refusal wins. */
  readonly deletionGuards: readonly RecipeDeletionGuard[];
}

export function makeRecipesSlice(options: RecipesSliceOptions): Slice {
  return {
    name: 'recipes',
    register(table, deps) {
      addNamedResourceRoutes<Recipe, NamedBody, RecipeContext>(table, deps, {
        kind: recipeKind,
        base: RECIPES_BASE,
        param: 'recipeName',
        tag: 'Recipes',
        operationNouns: { one: 'Recipe', many: 'Recipes' },
        writeRoles: RECIPE_WRITE_ROLES,
        readRoles: RECIPE_READ_ROLES,
        body: namedBody('Recipe', RecipeBody),
        bodySchema: recipeBodySchema,
        responseSchema: recipeResponseSchema,
        nameOf: (b) => b.name,
        context: async (d) => recipeContext(d.readModel),
        validate: (input, ctx) => validateRecipe(input.body, ctx),
        toResponse,
        beforeDelete: async (name, recipe, d) => {
          for (const guard of options.deletionGuards) {
            const refusal = await guard(name, recipe, d);
            if (refusal !== undefined) return refusal;
          }
          return undefined;
        },
      });
    },
  };
}
