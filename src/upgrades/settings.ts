// How long a reader may take to report its UPGRADE command before it counts
// as FAILED (the published interface's UPGRADE_STATUS "upgrade error or
// time-out"): UPGRADE_READER_TIMEOUT_SECONDS, parsed in src/config.ts.
export interface UpgradeSettings {
  readonly readerTimeoutMs: number;
}

export const DEFAULT_UPGRADE_SETTINGS: UpgradeSettings = { readerTimeoutMs: 1_800_000 };
