// Every Redis read model of projections/, by the name `npm run rebuild` and
// readiness use. The config read model folds the parts listed in
// projections/config/parts.ts (auth and agents included). A read
// model declared here is started, watched and rebuilt after a Redis loss by
// projections/supervisor.ts, shown in /healthz and rebuildable by name; its
// readers guard their reads with ReadModelGate (src/core/redis/readiness.ts).
import type { RebuildableReadModel } from '../../projections/read-model';
import { configReadModel } from '../../projections/config/projection';
import { CONFIG_PARTS } from '../../projections/config/parts';
import { healthReadModel } from '../../projections/health/projection';
import { itemsReadModel } from '../../projections/items/rebuild';
import { transitionsReadModel } from '../../projections/transitions/projection';
import { jobsReadModel } from '../../projections/jobs/projection';
import { epcisReadModel } from '../../projections/epcis/projection';

export const READ_MODELS: readonly RebuildableReadModel[] = [configReadModel(CONFIG_PARTS), healthReadModel, jobsReadModel, itemsReadModel, transitionsReadModel, epcisReadModel];
