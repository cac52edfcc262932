// The reader definition as the interface returns it: every field present,
// null where unset, so clients that read a field never meet `undefined`.
import type { Placement, ReaderDefinition } from './codec';
import type { FeatureStates } from './features';
import type { ReaderType } from './reader-types';
import { connectionResponse, type ConnectionResponse } from './connection';

export interface ReaderDefinitionResponse {
  name: string;
  agentIdentifier: string;
  address: string | null;
  groups: string[];
  type: ReaderType | null;
  placement: Placement | null;
  facility: string;
  /** Feature name -> status, for the features this reader has a status for. */
  features: FeatureStates;
  labels: string[] | null;
  readerZone: string | null;
  antennaZones: Record<string, string> | null;
  /** How tagtrail reaches the reader; null: the agent API. Never carries the IoT password. */
  connection: ConnectionResponse | null;
}

/**
 * `features` live in the feature-change state of the reader (their own
 * events), not in the definition document; the caller passes them in.
 * Copies are returned so that a caller mutating the response cannot reach
 * the stored state.
 */
export function toResponse(def: ReaderDefinition, features: FeatureStates = {}): ReaderDefinitionResponse {
  return {
    name: def.name,
    agentIdentifier: def.agentIdentifier,
    address: def.address,
    groups: [...def.groups],
    type: def.type,
    placement: def.placement === null ? null : { ...def.placement },
    facility: def.facility,
    features: { ...features },
    labels: def.labels === null ? null : [...def.labels],
    readerZone: def.readerZone,
    antennaZones: def.antennaZones === null ? null : { ...def.antennaZones },
    connection: connectionResponse(def.connection),
  };
}
