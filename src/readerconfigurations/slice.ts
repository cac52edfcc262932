// Reader configurations: CRUD on named reader configuration documents under
// /configuration/v1/readerConfigurations. Recipes refer to them, so a
// configuration used by a recipe cannot be deleted, nor replaced by one the
// recipe would be refused with (src/recipes/reader-configuration-use.ts):
// both 409, naming the recipes. Those rules come in as a ReaderConfigurationUse
// (./use.ts).
import { isLeft, left } from 'fp-ts/Either';
import { addNamedResourceRoutes } from '../core/resource/routes';
import type { Slice } from '../slice';
import type { ReaderConfigurationRefusals, ReaderConfigurationUse } from './use';
import { validateReaderConfiguration } from './validate';
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

/** What validating a write needs: the refusals of the slices that use reader configurations. */
export interface ReaderConfigurationWriteContext {
  readonly refusals: ReaderConfigurationRefusals;
}

export const makeReaderConfigurationsSlice = (use: ReaderConfigurationUse): Slice => ({
  name: 'readerConfigurations',
  register(table, deps) {
    addNamedResourceRoutes<ReaderConfiguration, NamedBody, ReaderConfigurationWriteContext>(table, deps, {
      kind: readerConfigurationKind,
      base: READER_CONFIGURATIONS_BASE,
      param: 'readerConfigurationName',
      tag: 'Reader configurations',
      operationNouns: { one: 'ReaderConfiguration', many: 'ReaderConfigurations' },
      writeRoles: READER_CONFIGURATION_WRITE_ROLES,
      readRoles: READER_CONFIGURATION_READ_ROLES,
      body: namedBody('ReaderConfiguration', ReaderConfigurationBody),
      bodySchema: readerConfigurationBodySchema,
        responseSchema: readerConfigurationResponseSchema,
      nameOf: (b) => b.name,
      context: async (d) => ({ refusals: await use(d) }),
      validate: (input, ctx) => {
        const rc = validateReaderConfiguration(input.body);
        if (isLeft(rc)) return rc;
        const refused = ctx.refusals.write(rc.right);
        return refused === undefined ? rc : left(refused);
      },
      toResponse,
      beforeDelete: async (name, _rc, d) => (await use(d)).remove(name),
    });
  },
});
