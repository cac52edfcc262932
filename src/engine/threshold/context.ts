// What a THRESHOLD job needs to classify reads: its thresholds (those of the
// recipe, or every threshold of the job's facility when the recipe names
// none) and, per reader and antenna, which threshold and side the antenna
// watches, from the antenna configuration of that reader in that threshold.
import { thresholdsOfRecipe, type ThresholdRecipe } from '../../recipes';
import type { AntennaConfiguration, Threshold } from '../../thresholds';
import type { Side } from './decide';
import { transitionParamsOf, type TransitionParams } from './params';

export interface AntennaRole {
  /** Index into ThresholdJobContext.thresholds. */
  readonly threshold: number;
  readonly side: Side;
}

export interface ThresholdJobContext {
  readonly jobId: string;
  readonly facility: string;
  readonly reportToDatabaseEnabled: boolean;
  readonly reportToMessageQueueEnabled: boolean;
  readonly params: TransitionParams;
  readonly thresholds: ReadonlyArray<{ readonly id: number; readonly name: string }>;
  /** Reader name -> antenna id -> what the antenna watches. Antennas in `ignored` or in no list are absent. */
  readonly antennas: ReadonlyMap<string, ReadonlyMap<number, readonly AntennaRole[]>>;
  /** The recipe's iterationDataLogEnabled: every decision, also "no transition", is recorded. */
  readonly iterationData: boolean;
}

export function thresholdJobContext(opts: {
  readonly jobId: string;
  readonly facility: string;
  readonly recipe: ThresholdRecipe;
  readonly thresholds: readonly Threshold[];
  readonly antennaConfigurations: readonly AntennaConfiguration[];
  readonly reportToDatabaseEnabled: boolean;
  readonly reportToMessageQueueEnabled: boolean;
}): ThresholdJobContext {
  const configs = new Map(opts.antennaConfigurations.map((c) => [c.id, c]));
  const used = thresholdsOfRecipe(opts.recipe, opts.facility, opts.thresholds);
  const antennas = new Map<string, Map<number, AntennaRole[]>>();
  used.forEach((threshold, index) => {
    for (const [reader, { antennaConfigurationId }] of Object.entries(threshold.readers)) {
      const config = configs.get(antennaConfigurationId);
      if (config === undefined) continue;
      let byAntenna = antennas.get(reader);
      if (byAntenna === undefined) antennas.set(reader, (byAntenna = new Map()));
      const add = (antennaId: number, side: Side): void => {
        const roles = byAntenna.get(antennaId) ?? [];
        roles.push({ threshold: index, side });
        byAntenna.set(antennaId, roles);
      };
      for (const a of config.in) add(a.antennaId, 1);
      for (const a of config.out) add(a.antennaId, -1);
    }
  });
  return {
    jobId: opts.jobId,
    facility: opts.facility,
    reportToDatabaseEnabled: opts.reportToDatabaseEnabled,
    reportToMessageQueueEnabled: opts.reportToMessageQueueEnabled,
    params: transitionParamsOf(opts.recipe.transitionParameters),
    thresholds: used.map((t) => ({ id: t.id, name: t.name })),
    antennas,
    iterationData: opts.recipe.iterationDataLogEnabled,
  };
}

/**
 * The roles of a reported antenna id: the exact id, else, for a polarized id
 * (1001-1052 horizontal, 2001-2052 vertical), its port, as antenna zones are
 * looked up.
 */
export function rolesOf(byAntenna: ReadonlyMap<number, readonly AntennaRole[]>, antennaId: number): readonly AntennaRole[] | undefined {
  return byAntenna.get(antennaId) ?? (antennaId > 1000 ? byAntenna.get(antennaId % 1000) : undefined);
}
