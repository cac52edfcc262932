// The factory defaults as stored documents: each catalog body goes through
// the validation a client's create goes through. Pure; a body the rules
// refuse is a programming error (a unit test builds them all).
import { isLeft, type Either } from 'fp-ts/Either';
import type { ApiError } from '../core/http/errors';
import { validateReaderConfiguration, type ReaderConfiguration } from '../readerconfigurations';
import { validateRecipe, type Recipe } from '../recipes';
import { AntennaConfigurationBody, validateAntennaConfigurationReplace, type AntennaConfiguration } from '../thresholds';
import { DEFAULT_ANTENNA_CONFIGURATIONS, DEFAULT_READER_CONFIGURATIONS, DEFAULT_RECIPES } from './catalog';

export interface FactoryDefaults {
  readonly readerConfigurations: readonly ReaderConfiguration[];
  readonly recipes: readonly Recipe[];
  readonly antennaConfigurations: readonly AntennaConfiguration[];
}

function valid<T>(what: string, result: Either<ApiError, T>): T {
  if (isLeft(result)) throw new Error(`factory default ${what} is refused: ${result.left.message} ${JSON.stringify(result.left.errors)}`);
  return result.right;
}

export function buildFactoryDefaults(): FactoryDefaults {
  const readerConfigurations = DEFAULT_READER_CONFIGURATIONS.map((b) => valid(`reader configuration ${b.name}`, validateReaderConfiguration(b)));
  const ctx = { readerConfigurations: new Map(readerConfigurations.map((rc) => [rc.name, rc])), readerDefinitionNames: new Set<string>() };
  const recipes = DEFAULT_RECIPES.map((b) => valid(`recipe ${b.name}`, validateRecipe(b, ctx)));
  const antennaConfigurations = DEFAULT_ANTENNA_CONFIGURATIONS.map((b) => {
    const decoded = AntennaConfigurationBody.decode(b);
    if (isLeft(decoded)) throw new Error(`factory default antenna configuration ${b.name} does not decode`);
    return valid(`antenna configuration ${b.name}`, validateAntennaConfigurationReplace(b.id, decoded.right));
  });
  return { readerConfigurations, recipes, antennaConfigurations };
}
