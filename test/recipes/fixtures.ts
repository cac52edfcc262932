// A configuration to validate recipes against: reader configurations of
// every operation, search mode and reader mode a rule depends on, and a few
// reader definitions.
import type { ReaderConfiguration } from '../../src/readerconfigurations/model';
import { validateReaderConfiguration } from '../../src/readerconfigurations/validate';
import type { RecipeContext } from '../../src/recipes/references';
import { expectValid } from '../readerconfigurations/helpers';

function inventory(name: string, searchMode: string, readerMode = 'MAX_THROUGHPUT'): ReaderConfiguration {
  return expectValid(
    validateReaderConfiguration({ name, operation: 'INVENTORY', configuration: { readerMode, session: 2, searchMode } }),
  );
}

function location(name: string, readerMode = 'MAX_MILLER'): ReaderConfiguration {
  return expectValid(validateReaderConfiguration({ name, operation: 'LOCATION', configuration: { readerMode, session: 2 } }));
}

function other(name: string, operation: string): ReaderConfiguration {
  const configuration = { readerMode: 'MAX_THROUGHPUT', session: 1 };
  return expectValid(validateReaderConfiguration({ name, operation, configuration }));
}

export const READER_MODES = [
  'MAX_THROUGHPUT',
  'HYBRID',
  'DENSE_READER_M4',
  'DENSE_READER_M8',
  'MAX_MILLER',
  'DENSE_READER_M4_TWO',
  'AUTOSET_DENSE_READER',
  'MODE_1002',
  'MODE_1003',
  'MODE_1004',
] as const;

export const SEARCH_MODES = [
  'READER_SELECTED',
  'SINGLE_TARGET',
  'DUAL_TARGET',
  'TAG_FOCUS',
  'SINGLE_TARGET_BTOA',
  'DUAL_TARGET_WITH_BTOASELECT',
] as const;

const configurations: ReaderConfiguration[] = [
  inventory('inv', 'DUAL_TARGET'),
  ...SEARCH_MODES.map((mode) => inventory(`inv-${mode}`, mode)),
  ...READER_MODES.map((mode) => inventory(`inv-mode-${mode}`, 'DUAL_TARGET', mode)),
  location('loc'),
  ...READER_MODES.map((mode) => location(`loc-mode-${mode}`, mode)),
  other('thr', 'THRESHOLD'),
  other('normal', 'NORMAL'),
  expectValid(validateReaderConfiguration({ name: 'off', operation: 'DO_NOTHING' })),
];

export const ctx: RecipeContext = {
  readerConfigurations: new Map(configurations.map((rc) => [rc.name, rc])),
  readerDefinitionNames: new Set(['r1', 'r2', 'xarray-1']),
};

export const inventoryRecipe = (fields: Record<string, unknown> = {}): Record<string, unknown> => ({
  name: 'inv-recipe',
  type: 'INVENTORY',
  readerConfigurationName: 'inv',
  ...fields,
});

export const locationRecipe = (fields: Record<string, unknown> = {}): Record<string, unknown> => ({
  name: 'loc-recipe',
  type: 'LOCATION',
  readerConfigurationName: 'loc',
  ...fields,
});

export const thresholdRecipe = (fields: Record<string, unknown> = {}): Record<string, unknown> => ({
  name: 'thr-recipe',
  type: 'THRESHOLD',
  readerConfigurationName: 'thr',
  ...fields,
});

export const llrpRecipe = (fields: Record<string, unknown> = {}): Record<string, unknown> => ({
  name: 'llrp-recipe',
  type: 'LLRP',
  readerConfigurationName: 'normal',
  ...fields,
});
