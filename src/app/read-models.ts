// Every Redis read model of projections/, by the name `npm run rebuild`
// takes. The config read model holds the parts of every slice (auth and
// agents included), so it is built from the slice list.
import type { RebuildableReadModel } from '../../projections/read-model';
import { configReadModel } from '../../projections/config/projection';
import { healthReadModel } from '../../projections/health/projection';
import { itemsReadModel } from '../../projections/items/rebuild';
import { transitionsReadModel } from '../../projections/transitions/projection';
import { jobsReadModel } from '../../projections/jobs/projection';
import { SLICES } from './slices';
import { configParts } from './wiring';

export const READ_MODELS: readonly RebuildableReadModel[] = [configReadModel(configParts(SLICES)), healthReadModel, jobsReadModel, itemsReadModel, transitionsReadModel];
