// What the thresholds slice reads from the config read model: its own two
// kinds, in id order, and the (name, facility) of every reader definition.
import type { ConfigReadModel } from '../core/resource/readmodel';
import type { AntennaConfiguration } from './antenna-configuration';
import { byId } from './response';
import type { Threshold, ThresholdContext } from './threshold';
import { antennaConfigurationKind, thresholdKind } from './kind';
import { facilityKind } from '../facilities';
import { readerDefinitionsOf } from '../readerdefinitions';

export const listAntennaConfigurations = async (rm: ConfigReadModel): Promise<AntennaConfiguration[]> =>
  byId(await rm.list(antennaConfigurationKind));

export const listThresholds = async (rm: ConfigReadModel): Promise<Threshold[]> => byId(await rm.list(thresholdKind));

/** Facilities, reader definitions and antenna configuration ids: what a threshold is checked against. */
export async function thresholdContext(rm: ConfigReadModel): Promise<ThresholdContext> {
  const [facilities, readers, configs] = await Promise.all([
    rm.list(facilityKind),
    readerDefinitionsOf(rm),
    rm.list(antennaConfigurationKind),
  ]);
  return {
    facilityNames: facilities.map((f) => f.name),
    readerDefinitions: readers.map((r) => ({ name: r.name, facility: r.facility })),
    antennaConfigurationIds: configs.map((c) => c.id),
  };
}
