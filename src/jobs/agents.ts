// The job side of the agent protocol (contract: src/agents/assignment.ts): what a reader
// is told at check-in and how its acknowledgement is recorded.
import * as E from 'fp-ts/Either';
import type { AppDeps } from '../slice';
import { readerConfigurationFor, toResponse as recipeResponse } from '../recipes';
import { readerConfigurationKind, toResponse as configurationResponse } from '../readerconfigurations';
import { readerDefinitionOf, toResponse as definitionResponse } from '../readerdefinitions';
import type { Assignment, JobsForAgents, ReportTarget } from '../agents';
import { runCommand } from '../core/command';
import { onJob } from './commands';
import { jobsReadModel, jobsWaiter, recipeOf } from './context';
import { heldReaders } from './model';

export const jobsForAgents: JobsForAgents = {
  async reportTargetFor(deps: AppDeps, readerName: string): Promise<ReportTarget | undefined> {
    const held = (await jobsReadModel(deps).active()).filter((s) => (s.status === 'STARTING' || s.status === 'RUNNING' || s.status === 'STOPPING') && heldReaders(s).includes(readerName));
    // A job starting on the reader comes before the one it is leaving.
    const job = held.find((s) => s.status !== 'STOPPING') ?? held[0];
    if (job === undefined || job.job === null) return undefined;
    return { jobId: job.id, facility: job.job.facility, acknowledged: job.acknowledged.includes(readerName) };
  },

  async assignmentFor(deps: AppDeps, readerName: string): Promise<Assignment | undefined> {
    const jobs = await jobsReadModel(deps).active();
    const job = jobs
      .filter((s) => s.status === 'STARTING' || s.status === 'RUNNING')
      .find((s) => heldReaders(s).includes(readerName));
    if (job === undefined || job.job === null || (job.status !== 'STARTING' && job.status !== 'RUNNING')) return undefined;
    const recipe = await recipeOf(deps, job.job.recipeName);
    const configName = recipe === undefined ? undefined : readerConfigurationFor(recipe, readerName);
    const [configuration, definition] = await Promise.all([
      configName === undefined ? undefined : deps.readModel.get(readerConfigurationKind, configName),
      readerDefinitionOf(deps.readModel, readerName),
    ]);
    if (recipe === undefined || configuration === undefined || definition === undefined) {
      // Configuration deleted or changed under a running job: nothing sensible to run.
      deps.logger.warn('assignment incomplete', { jobId: job.id, readerName, recipe: job.job.recipeName, configName });
      return undefined;
    }
    return {
      jobId: job.id,
      facility: job.job.facility,
      status: job.status,
      acknowledged: job.acknowledged.includes(readerName),
      recipe: { ...recipeResponse(recipe) },
      readerConfiguration: { ...configurationResponse(configuration) },
      readerDefinition: { ...definitionResponse(definition) },
    };
  },

  async acknowledgeAssignment(deps: AppDeps, jobId: string, readerName: string, now: Date): Promise<void> {
    const result = await runCommand(deps.client, onJob(jobId), { type: 'Acknowledge', readerName }, { now, metadata: { user: `reader:${readerName}` }, waiter: jobsWaiter(deps) });
    if (E.isLeft(result)) throw result.left;
  },
};
