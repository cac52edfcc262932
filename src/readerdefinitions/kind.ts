// The reader definition resource kind: stream `readerDefinition-<name>`,
// events ReaderDefinitionCreated/Replaced/Deleted, read model hash
// `config:readerDefinition` (name -> stored document). Other slices read
// that hash (thresholds, recipes, jobs): readerDefinitionsOf is their door.
import { defineResourceKind } from '../core/resource/kind';
import type { ConfigReadModel } from '../core/resource/readmodel';
import { ReaderDefinition } from './codec';

export const readerDefinitionKind = defineResourceKind<ReaderDefinition>('readerDefinition', 'ReaderDefinition', ReaderDefinition);

export const READER_DEFINITIONS_BASE = '/configuration/v1/readerDefinitions';

/** Every stored reader definition, by name (without feature states). */
export async function readerDefinitionsOf(readModel: ConfigReadModel): Promise<ReaderDefinition[]> {
  return readModel.list(readerDefinitionKind);
}

/** One stored reader definition, or undefined. */
export async function readerDefinitionOf(readModel: ConfigReadModel, name: string): Promise<ReaderDefinition | undefined> {
  return readModel.get(readerDefinitionKind, name);
}

/** Roles (Admin is always allowed), per the interface (docs/interface.md). */
export const READER_DEFINITION_WRITE_ROLES = ['ConfigManager'];
export const READER_DEFINITION_READ_ROLES = ['ConfigManager', 'JobRunner'];
export const READER_GROUPS_ROLES = ['ConfigManager'];
export const FEATURE_CHANGE_ROLES = ['ConfigManager'];
