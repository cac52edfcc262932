// What another slice refuses of reader configurations because it refers to
// them (recipes: a configuration a recipe uses cannot be deleted, nor
// replaced by one the recipe would be refused with). Declared here and
// implemented by that slice, which the composition root passes in
// (src/app/slices.ts), so this slice depends on none of the slices that use
// reader configurations.
import type { ApiError } from '../core/http/errors';
import type { ResourceDeps } from '../core/resource/routes';
import type { ReaderConfiguration } from './model';

/** The refusals of one request, answered from what `ReaderConfigurationUse` loaded for it. */
export interface ReaderConfigurationRefusals {
  /** A 409 naming what storing `rc` would break, or undefined. */
  write(rc: ReaderConfiguration): ApiError | undefined;
  /** A 409 naming what still uses configuration `name`, or undefined. */
  remove(name: string): ApiError | undefined;
}

/** Loads what a user of reader configurations needs to judge a write or a deletion (once per request). */
export type ReaderConfigurationUse = (deps: ResourceDeps) => Promise<ReaderConfigurationRefusals>;
