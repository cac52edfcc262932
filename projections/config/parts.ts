// Every part of the config projection: the named resource kinds of the
// configuration slices (whole documents per name), and the parts that fold a
// slice's own events (users and tokens, agent secrets and commands, queues,
// upgrades, software images, current zone maps, reader features). One list,
// so the composition root (src/app/read-models.ts) and the configuration
// archive's classification test see the same stream categories.
import { facilityKind } from '../../src/facilities';
import { zoneMapKind } from '../../src/zonemaps';
import { recipeKind } from '../../src/recipes';
import { readerConfigurationKind } from '../../src/readerconfigurations';
import { readerDefinitionKind } from '../../src/readerdefinitions';
import { antennaConfigurationKind, thresholdKind } from '../../src/thresholds';
import { snmpSettingsKind } from '../../src/settings';
import { epcisLocationKind, epcisRepositoryKind } from '../../src/epcis';
import { resourcePart, type ConfigProjectionPart } from './part';
import { tokensPart, usersPart } from './auth';
import { agentSecretsPart } from './agent-secrets';
import { readerCommandsPart } from './agent-commands';
import { queuesPart } from './queues';
import { upgradesPart } from './upgrades';
import { softwareImagePart } from './software-image';
import { currentZoneMapPart } from './current-zone-map';
import { readerFeaturesPart } from './reader-features';

export const CONFIG_PARTS: readonly ConfigProjectionPart[] = [
  usersPart,
  tokensPart,
  resourcePart(facilityKind),
  resourcePart(zoneMapKind),
  currentZoneMapPart,
  resourcePart(readerConfigurationKind),
  resourcePart(recipeKind),
  resourcePart(readerDefinitionKind),
  readerFeaturesPart,
  resourcePart(antennaConfigurationKind),
  resourcePart(thresholdKind),
  resourcePart(snmpSettingsKind),
  softwareImagePart,
  upgradesPart,
  agentSecretsPart,
  readerCommandsPart,
  queuesPart,
  resourcePart(epcisLocationKind),
  resourcePart(epcisRepositoryKind),
];
