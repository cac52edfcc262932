// Time-outs of the job runner (JOB_ACK_TIMEOUT_SECONDS, JOB_STOP_TIMEOUT_SECONDS;
// parsed with every other setting in src/config.ts): how long readers have to
// acknowledge a STARTING job, and how long a graceful stop stays STOPPING so
// readers learn it at their next check-in.
export interface JobSettings {
  readonly ackTimeoutMs: number;
  readonly stopTimeoutMs: number;
}
