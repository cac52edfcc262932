// UPGRADE_READER_TIMEOUT_SECONDS (default 1800): how long a reader may take
// to report its UPGRADE command before it counts as FAILED (the published interface's
// UPGRADE_STATUS "upgrade error or time-out"), read by the `jobs` role.
import * as E from 'fp-ts/Either';
import { envVar, formatEnvError, intInRange } from '../core/env';

export interface UpgradeSettings {
  readonly readerTimeoutMs: number;
}

export const DEFAULT_UPGRADE_SETTINGS: UpgradeSettings = { readerTimeoutMs: 1_800_000 };

export function loadUpgradeSettings(env: NodeJS.ProcessEnv): UpgradeSettings {
  const t = envVar(env, 'UPGRADE_READER_TIMEOUT_SECONDS', intInRange(1, 2_147_483), DEFAULT_UPGRADE_SETTINGS.readerTimeoutMs / 1000);
  if (E.isLeft(t)) throw new Error(`Invalid configuration: ${formatEnvError(t.left)}`);
  return { readerTimeoutMs: t.right * 1000 };
}
