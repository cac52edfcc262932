// The contract between the job runner (src/jobs) and the agent gateway
// (src/agents): what a reader is told at check-in, and how it acknowledges.
// Here, with its user, so the agent gateway depends on no job code; the
// implementation is src/jobs/agents.ts. See docs/agent-protocol.md.
import type { AppDeps } from '../slice';

export type AssignmentStatus = 'STARTING' | 'RUNNING';

export interface Assignment {
  readonly jobId: string;
  readonly facility: string;
  readonly status: AssignmentStatus;
  /** The reader has acknowledged this assignment (reports are accepted only then). */
  readonly acknowledged: boolean;
  /** The recipe document as the recipes slice returns it (toResponse). */
  readonly recipe: Record<string, unknown>;
  /** The reader configuration this reader runs (override or default), as returned by its slice. */
  readonly readerConfiguration: Record<string, unknown>;
  /** The reader definition as returned by its slice. */
  readonly readerDefinition: Record<string, unknown>;
}

/** The job a reader's reports may be for: the one it holds, STARTING, RUNNING or stopping gracefully. */
export interface ReportTarget {
  readonly jobId: string;
  readonly facility: string;
  readonly acknowledged: boolean;
}

export interface JobsForAgents {
  /** The reader's assignment: its job that is STARTING or RUNNING, if any. */
  assignmentFor(deps: AppDeps, readerName: string): Promise<Assignment | undefined>;
  /**
   * The job the reader's reports are taken for: its assignment, or the job
   * it held that is STOPPING (a graceful stop: the reader learns it at its
   * next check-in and sends the reads of its last interval meanwhile).
   */
  reportTargetFor(deps: AppDeps, readerName: string): Promise<ReportTarget | undefined>;
  /** Records that the reader took its assignment (idempotent); 404/409 ApiError when not assigned. */
  acknowledgeAssignment(deps: AppDeps, jobId: string, readerName: string, now: Date): Promise<void>;
}
