// Types of the pure item engine (docs/item-processing.md, "Item engine").
// Times are epoch milliseconds: the engine never reads a clock, the caller
// passes `now`, so a replay of the same inputs gives the same outputs.
import type { Placement } from '../readerdefinitions';
import type { ZoneLocator } from '../zonemaps';
import type { IndexedView } from './expiry';


export type JobType = 'INVENTORY' | 'LOCATION';

/** What the engine needs of a recipe, durations already in milliseconds. */
export interface EngineRecipe {
  readonly type: JobType;
  readonly tagHeartbeatMs: number;
  /** Undefined: absence by expiry is disabled. */
  readonly tagExpiryMs: number | undefined;
  readonly computeWindowMs: number;
  /** Already resolved: reportingInterval 0 is 500 ms. */
  readonly reportingIntervalMs: number;
  /** LOCATION only; 0 means any change is reported. */
  readonly minimumMovementInMeters: number;
}

/** The three reportTo... flags of a job; every change carries its job's flags. */
export interface ReportFlags {
  readonly reportToDatabaseEnabled: boolean;
  readonly reportToHistoryEnabled: boolean;
  readonly reportToMessageQueueEnabled: boolean;
}

/** A reader as the engine sees it; floor is normalized (readerdefinitions normalizeFloor). */
export interface EngineReader {
  readonly placement: Placement | null;
  readonly readerZone: string | null;
  /** Antenna id (decimal string) -> zone name. */
  readonly antennaZones: Readonly<Record<string, string>> | null;
  readonly floor: string | null;
}

/** Everything the engine needs to know about the job a report belongs to. */
export interface JobContext {
  readonly jobId: string;
  readonly facility: string;
  readonly recipe: EngineRecipe;
  readonly flags: ReportFlags;
  readonly useOtherJobData: boolean;
  readonly readers: ReadonlyMap<string, EngineReader>;
  /** The facility's current zone map, or undefined when it has none. */
  readonly locator: ZoneLocator | undefined;
}

/** Where an item is: the to-side of a change. */
export interface Position {
  readonly zone: string;
  readonly floor: string | null;
  readonly facility: string | null;
  readonly x: number | null;
  readonly y: number | null;
}

export interface ItemState extends Position {
  readonly epc: string;
  readonly tid: string | null;
  /** Job that last saw the item (or expired it). */
  readonly jobId: string;
  /** Last time the item's state was reported (change or heartbeat). */
  readonly lastModifiedTime: number;
  /** Last time a read of the item reached the engine (observation time). */
  readonly lastSeen: number;
}

export type ChangeKind = 'FIRST_SEEN' | 'ZONE_CHANGE' | 'MOVED' | 'HEARTBEAT' | 'EXPIRED';

/** One output of the engine: an item update, and a history record when writesHistory(kind). */
export interface ItemChange extends ReportFlags {
  readonly kind: ChangeKind;
  readonly epc: string;
  readonly tid: string | null;
  readonly jobId: string;
  readonly fromZone: string;
  readonly toZone: string;
  readonly fromFloor: string | null;
  readonly toFloor: string | null;
  readonly fromFacility: string | null;
  readonly toFacility: string | null;
  readonly fromX: number | null;
  readonly fromY: number | null;
  readonly toX: number | null;
  readonly toY: number | null;
  readonly observationTime: number;
}

/** Zone transitions are history records; moves within a zone and heartbeats only update the item. */
export function writesHistory(kind: ChangeKind): boolean {
  switch (kind) {
    case 'FIRST_SEEN':
    case 'ZONE_CHANGE':
    case 'EXPIRED':
      return true;
    case 'MOVED':
    case 'HEARTBEAT':
      return false;
    default: {
      const never: never = kind;
      throw new Error(`unknown change kind ${String(never)}`);
    }
  }
}

/** A read kept for the INVENTORY compute window (strongest RSSI wins). */
export interface InventoryCandidate {
  readonly time: number;
  readonly reader: string;
  readonly antennaId: number;
  readonly peakRssi: number;
  readonly tid: string | null;
}

/** A location estimate kept for the LOCATION compute window. */
export interface LocationSample {
  readonly time: number;
  readonly x: number;
  readonly y: number;
  readonly floor: string | null;
  readonly tid: string | null;
}

/** Per-job memory besides the items: its context and its pending reads. */
export interface JobRuntime {
  ctx: JobContext;
  /** EPC -> reads within the compute window (INVENTORY jobs). */
  readonly candidates: Map<string, InventoryCandidate[]>;
  /** EPC -> samples within the compute window (LOCATION jobs). */
  readonly samples: Map<string, LocationSample[]>;
  /** Next LOCATION computation time (a multiple of the reporting interval); undefined until the first sample. */
  nextComputeAt: number | undefined;
}

/** Items known to a view: EPC -> state, with its expiry index (expiry.ts). */
export type ItemView = IndexedView<ItemState>;

export interface EngineState {
  /** The view of every job with useOtherJobData=true. */
  readonly shared: ItemView;
  /** jobId -> the private view of a job with useOtherJobData=false. */
  readonly isolated: Map<string, ItemView>;
  /** jobId -> runtime, for every job the engine has seen and not ended. */
  readonly jobs: Map<string, JobRuntime>;
}

export interface EngineResult {
  readonly state: EngineState;
  readonly changes: ItemChange[];
}
