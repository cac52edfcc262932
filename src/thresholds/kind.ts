// The two resource kinds of this slice, identified by integer ids the
// service assigns (id-allocator.ts): stream `antennaConfiguration-<id>` /
// `threshold-<id>`, events AntennaConfigurationCreated/Replaced/Deleted and
// ThresholdCreated/Replaced/Deleted `{name: "<id>", resource}`, read model
// hashes `config:antennaConfiguration` / `config:threshold` keyed by the id
// in decimal.
import { defineResourceKind } from '../core/resource/kind';
import { AntennaConfiguration } from './antenna-configuration';
import { Threshold } from './threshold';

export const antennaConfigurationKind = defineResourceKind<AntennaConfiguration>(
  'antennaConfiguration',
  'AntennaConfiguration',
  AntennaConfiguration,
);
export const thresholdKind = defineResourceKind<Threshold>('threshold', 'Threshold', Threshold);

/** The resource name of an id: its decimal form. */
export const nameOfId = (id: number): string => String(id);
