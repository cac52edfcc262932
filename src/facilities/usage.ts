// What refers to facilities, read from the config read model. Each slice
// whose resources name a facility contributes a source (Slice.facilityUsage),
// so this slice does not import them all.
import type { ResourceDeps } from '../core/resource/routes';
import type { FacilityUsage } from './deletion';
import { facilityKind } from './kind';

export type UsageSource = (deps: ResourceDeps) => Promise<Partial<Omit<FacilityUsage, 'name'>>>;
export async function facilityUsage(
  deps: ResourceDeps,
  sources: readonly UsageSource[],
): Promise<Omit<FacilityUsage, 'name'> & { facilityNames: string[] }> {
  const usage: Required<Omit<FacilityUsage, 'name'>> = { readerDefinitions: [], zoneMaps: [], activeJobs: [], thresholds: [] };
  for (const source of sources) {
    const part = await source(deps);
    usage.readerDefinitions = [...usage.readerDefinitions, ...(part.readerDefinitions ?? [])];
    usage.zoneMaps = [...usage.zoneMaps, ...(part.zoneMaps ?? [])];
    usage.activeJobs = [...usage.activeJobs, ...(part.activeJobs ?? [])];
    usage.thresholds = [...usage.thresholds, ...(part.thresholds ?? [])];
  }
  const facilityNames = (await deps.readModel.list(facilityKind)).map((f) => f.name);
  return { ...usage, facilityNames };
}
