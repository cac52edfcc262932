// Thresholds and antenna configurations as returned. `embed=antennaConfiguration`
// (docs/interface.md) adds each reader's configuration beside its id, so a client
// gets a whole threshold in one call.
import type { AntennaConfiguration } from './antenna-configuration';
import type { Threshold } from './threshold';

export interface ThresholdReaderResponse {
  antennaConfigurationId: number;
  /** Only with embed; null if the configuration no longer exists. */
  antennaConfiguration?: AntennaConfiguration | null;
}

export interface ThresholdResponse {
  id: number;
  name: string;
  facility: string;
  readerArrangement: Threshold['readerArrangement'];
  readers: Record<string, ThresholdReaderResponse>;
}

const copyConfiguration = (c: AntennaConfiguration): AntennaConfiguration => ({
  ...c,
  in: c.in.map((r) => ({ ...r })),
  out: c.out.map((r) => ({ ...r })),
  ignored: c.ignored.map((r) => ({ ...r })),
});

export function antennaConfigurationToResponse(c: AntennaConfiguration): AntennaConfiguration {
  return copyConfiguration(c);
}

/** @param embed the antenna configurations to embed; omit for the plain form. */
export function thresholdToResponse(th: Threshold, embed?: readonly AntennaConfiguration[]): ThresholdResponse {
  const byId = embed && new Map(embed.map((c) => [c.id, c]));
  const readers: Record<string, ThresholdReaderResponse> = {};
  for (const [name, r] of Object.entries(th.readers)) {
    if (byId === undefined) {
      readers[name] = { antennaConfigurationId: r.antennaConfigurationId };
    } else {
      const config = byId.get(r.antennaConfigurationId);
      readers[name] = {
        antennaConfigurationId: r.antennaConfigurationId,
        antennaConfiguration: config === undefined ? null : copyConfiguration(config),
      };
    }
  }
  return { id: th.id, name: th.name, facility: th.facility, readerArrangement: th.readerArrangement, readers };
}

/** Lists come back in id order, the order they were created in. */
export const byId = <T extends { id: number }>(items: readonly T[]): T[] => [...items].sort((a, b) => a.id - b.id);
