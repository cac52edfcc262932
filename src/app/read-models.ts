// Every Redis read model of projections/, by the name `npm run rebuild` and
// readiness use. The config read model holds the parts of every slice (auth
// and agents included), so the list is built from the slice list. A read
// model declared here is started, watched and rebuilt after a Redis loss by
// projections/supervisor.ts, shown in /healthz and rebuildable by name; its
// readers guard their reads with ReadModelGate (src/core/redis/readiness.ts).
import type { RebuildableReadModel } from '../../projections/read-model';
import { configReadModel, type ConfigProjectionPart } from '../../projections/config/projection';
import { usersPart, tokensPart } from '../../projections/auth/parts';
import { healthReadModel } from '../../projections/health/projection';
import { itemsReadModel } from '../../projections/items/rebuild';
import { transitionsReadModel } from '../../projections/transitions/projection';
import { jobsReadModel } from '../../projections/jobs/projection';
import { epcisReadModel } from '../../projections/epcis/projection';
import type { Slice } from '../core/slice';
import { SLICES } from './slices';

/** Every part of the config projection: users and tokens, and those of the slices. */
export const configParts = (slices: readonly Slice[]): ConfigProjectionPart[] => [usersPart, tokensPart, ...slices.flatMap((s) => s.projectionParts ?? [])];

/** The read models of a process running `slices`. */
export const readModelsOf = (slices: readonly Slice[]): RebuildableReadModel[] => [configReadModel(configParts(slices)), healthReadModel, jobsReadModel, itemsReadModel, transitionsReadModel, epcisReadModel];

export const READ_MODELS: readonly RebuildableReadModel[] = readModelsOf(SLICES);
