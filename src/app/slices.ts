// Every vertical slice of the process, in registration order.
import type { Slice } from '../core/slice';
import { facilitiesSlice } from '../facilities/slice';
import { readerDefinitionsSlice } from '../readerdefinitions/slice';
import { tokensSlice } from '../tokens/slice';
import { usersSlice } from '../users/slice';
import { zoneMapsSlice } from '../zonemaps/slice';
import { readerConfigurationsSlice } from '../readerconfigurations/slice';
import { makeRecipesSlice } from '../recipes/slice';
import { settingsSlice } from '../settings/slice';
import { softwareSlice } from '../software/slice';
import { upgradesSlice } from '../upgrades/slice';
import { readerCommandsSlice } from '../readercommands/slice';
import { thresholdsSlice } from '../thresholds/slice';
import { jobsSlice, recipeInUseByJobs } from '../jobs/slice';
import { healthSlice } from '../health/slice';
import { itemsSlice } from '../items/slice';
import { makeAgentsSlice } from '../agents/slice';
import { jobsForAgents } from '../jobs/agents';
import { engineSlice } from '../engine/slice';
import { snmpSlice } from '../snmp/slice';
import { supportSlice } from '../support/slice';
import { queuesSlice } from '../queues/slice';
import { factoryDefaultsSlice } from '../defaults/slice';
import { readersSlice } from '../readers/slice';
import { liveSlice } from '../live/slice';
import { aboutSlice } from '../about/slice';

export const SLICES: readonly Slice[] = [usersSlice, tokensSlice, facilitiesSlice, factoryDefaultsSlice, zoneMapsSlice, readerDefinitionsSlice, thresholdsSlice, settingsSlice, softwareSlice, upgradesSlice, readerConfigurationsSlice, makeRecipesSlice({ deletionGuards: [recipeInUseByJobs] }), jobsSlice, healthSlice, itemsSlice, makeAgentsSlice(jobsForAgents), readerCommandsSlice, engineSlice, snmpSlice, supportSlice, queuesSlice, liveSlice, aboutSlice, readersSlice];
