// Reader configurations: CRUD on named reader configuration documents under
// /configuration/v1/readerConfigurations. Recipes refer to them, so a
// configuration used by a recipe cannot be deleted, nor replaced by one the
// recipe would be refused with (src/recipes/reader-configuration-use.ts):
// both 409, naming the recipes.
import type { ApiError } from '../core/http/errors';
import { addNamedResourceRoutes } from '../core/resource/routes';
import type { Slice } from '../slice';
import { deletionRefusal, recipeKind, validateReaderConfigurationWrite, type Recipe } from '../recipes';
import {
  readerConfigurationKind,
  READER_CONFIGURATION_READ_ROLES,
  READER_CONFIGURATION_WRITE_ROLES,
  READER_CONFIGURATIONS_BASE,
} from './kind';
import type { ReaderConfiguration } from './model';
import { namedBody, type NamedBody } from './named-body';
import { ReaderConfigurationBody } from './codec';
import { toResponse } from './response';
import { readerConfigurationBodySchema, readerConfigurationResponseSchema } from './schema';

/** What validating a write needs: the recipes, which must keep holding. */
export interface ReaderConfigurationWriteContext {
  readonly recipes: readonly Recipe[];
}

export const readerConfigurationsSlice: Slice = {
  name: 'readerConfigurations',
  register(table, deps) {
    addNamedResourceRoutes<ReaderConfiguration, NamedBody, ReaderConfigurationWriteContext>(table, deps, {
      kind: readerConfigurationKind,
      base: READER_CONFIGURATIONS_BASE,
      param: 'readerConfigurationName',
      tag: 'Reader configurations',
      writeRoles: READER_CONFIGURATION_WRITE_ROLES,
      readRoles: READER_CONFIGURATION_READ_ROLES,
      body: namedBody('ReaderConfiguration', ReaderConfigurationBody),
      bodySchema: readerConfigurationBodySchema,
        responseSchema: readerConfigurationResponseSchema,
      nameOf: (b) => b.name,
      context: async (d) => ({ recipes: await d.readModel.list(recipeKind) }),
      validate: (input, ctx) => validateReaderConfigurationWrite(input.body, ctx.recipes),
      toResponse,
      beforeDelete: async (name, _rc, d): Promise<ApiError | undefined> => deletionRefusal(name, await d.readModel.list(recipeKind)),
    });
  },
};
