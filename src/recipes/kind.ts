// The recipe resource kind: stream `recipe-<name>`, events
// RecipeCreated/Replaced/Deleted, read model hash `config:recipe`
// (name -> stored document). Reader configurations read it (in use?), and
// the job runner will.
import { defineResourceKind } from '../core/resource/kind';
import type { ConfigReadModel } from '../core/resource/readmodel';
import { Recipe } from './model';

export const recipeKind = defineResourceKind<Recipe>('recipe', 'Recipe', Recipe);

export const RECIPES_BASE = '/configuration/v1/recipes';

/** Roles (Admin is always allowed), per the interface (docs/interface.md). */
export const RECIPE_WRITE_ROLES = ['ConfigManager'];
export const RECIPE_READ_ROLES = ['ConfigManager', 'JobRunner'];

/** One stored recipe, or undefined. */
export async function recipeOf(readModel: ConfigReadModel, name: string): Promise<Recipe | undefined> {
  return readModel.get(recipeKind, name);
}
