// Factory defaults (catalog.ts): written at every start into the streams
// that have never existed, as events like any other configuration, so a
// fresh install can run a job from them without writing a configuration.
// A default a user deleted or changed is left as the user left it
// (createResourceOnce); a factory reset brings them all back.
import type { Position } from '@eventstore/db-client';
import { createResourceOnce } from '../core/resource/once';
import type { AppDeps, Slice } from '../slice';
import { readerConfigurationKind } from '../readerconfigurations';
import { recipeKind } from '../recipes';
import { reserveId, antennaConfigurationKind, nameOfId } from '../thresholds';
import { buildFactoryDefaults } from './build';

const DEFAULTS = buildFactoryDefaults();

/** Streams a first start writes besides the admin user and DEFAULT: stream -> its one event type. */
export const FACTORY_DEFAULT_STREAMS: Readonly<Record<string, string>> = Object.fromEntries([
  ...DEFAULTS.readerConfigurations.map((rc) => [`${readerConfigurationKind.kind}-${rc.name}`, `${readerConfigurationKind.label}Created`]),
  ...DEFAULTS.recipes.map((r) => [`${recipeKind.kind}-${r.name}`, `${recipeKind.label}Created`]),
  ...DEFAULTS.antennaConfigurations.map((c) => [`${antennaConfigurationKind.kind}-${nameOfId(c.id)}`, `${antennaConfigurationKind.label}Created`]),
]);

async function installFactoryDefaults(deps: AppDeps): Promise<void> {
  const positions: Array<Position | undefined> = [];
  // Reader configurations before the recipes that name them.
  for (const rc of DEFAULTS.readerConfigurations) positions.push(await createResourceOnce(deps.client, readerConfigurationKind, rc.name, rc));
  for (const r of DEFAULTS.recipes) positions.push(await createResourceOnce(deps.client, recipeKind, r.name, r));
  // Their ids are fixed: later allocations must skip them.
  const highest = Math.max(...DEFAULTS.antennaConfigurations.map((c) => c.id));
  await reserveId(deps.client, antennaConfigurationKind.kind, highest, { user: 'system' });
  for (const c of DEFAULTS.antennaConfigurations) positions.push(await createResourceOnce(deps.client, antennaConfigurationKind, nameOfId(c.id), c));
  const written = positions.filter((p): p is Position => p !== undefined);
  if (written.length > 0) {
    // Shown by the first request after start-up.
    await deps.waiter.waitFor(written[written.length - 1]!);
    deps.logger.info('factory defaults written', { documents: written.length });
  }
}

export const factoryDefaultsSlice: Slice = {
  name: 'factoryDefaults',
  register() {},
  bootstrap: installFactoryDefaults,
};
