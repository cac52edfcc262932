// Time-outs of the job runner, from the environment (read by the jobs role at
// start): JOB_ACK_TIMEOUT_SECONDS (default 60): how long readers have to
// acknowledge a STARTING job; JOB_STOP_TIMEOUT_SECONDS (default 10): how long
// a graceful stop stays STOPPING so readers learn it at their next check-in.
import * as E from 'fp-ts/Either';
import { envVar, formatEnvError, intInRange } from '../core/env';

export interface JobSettings {
  readonly ackTimeoutMs: number;
  readonly stopTimeoutMs: number;
}

export const DEFAULT_JOB_SETTINGS: JobSettings = { ackTimeoutMs: 60_000, stopTimeoutMs: 10_000 };

const seconds = intInRange(0, 2_147_483);

export function loadJobSettings(env: NodeJS.ProcessEnv): JobSettings {
  const ack = envVar(env, 'JOB_ACK_TIMEOUT_SECONDS', seconds, DEFAULT_JOB_SETTINGS.ackTimeoutMs / 1000);
  const stop = envVar(env, 'JOB_STOP_TIMEOUT_SECONDS', seconds, DEFAULT_JOB_SETTINGS.stopTimeoutMs / 1000);
  if (E.isLeft(ack)) throw new Error(`Invalid configuration: ${formatEnvError(ack.left)}`);
  if (E.isLeft(stop)) throw new Error(`Invalid configuration: ${formatEnvError(stop.left)}`);
  return { ackTimeoutMs: ack.right * 1000, stopTimeoutMs: stop.right * 1000 };
}
