// The reader configuration resource kind: stream `readerConfiguration-<name>`,
// events ReaderConfigurationCreated/Replaced/Deleted, read model hash
// `config:readerConfiguration` (name -> stored document). Recipes and (later)
// jobs read that hash through readerConfigurationsOf.
import { defineResourceKind } from '../core/resource/kind';
import type { ConfigReadModel } from '../core/resource/readmodel';
import { ReaderConfiguration } from './model';

export const readerConfigurationKind = defineResourceKind<ReaderConfiguration>(
  'readerConfiguration',
  'ReaderConfiguration',
  ReaderConfiguration,
);

export const READER_CONFIGURATIONS_BASE = '/configuration/v1/readerConfigurations';

/** Roles (Admin is always allowed), per the interface (docs/interface.md). */
export const READER_CONFIGURATION_WRITE_ROLES = ['ConfigManager'];
export const READER_CONFIGURATION_READ_ROLES = ['ConfigManager', 'JobRunner'];

/** Every stored reader configuration, by name. */
export async function readerConfigurationsOf(readModel: ConfigReadModel): Promise<Map<string, ReaderConfiguration>> {
  return readModel.map(readerConfigurationKind);
}
