// Creating a resource under a newly allocated id.
import { right } from 'fp-ts/Either';
import type { EventMetadata } from '../core/events';
import { ApiError } from '../core/http/errors';
import type { ResourceKind } from '../core/resource/kind';
import { retry } from '../core/retry';
import { runResourceCommand, type ResourceDeps } from '../core/resource/routes';
import { allocateId } from './id-allocator';
import { nameOfId } from './kind';

/** How many fresh ids to try when the allocated one's stream already exists. */
const ATTEMPTS = 3;

/**
 * Allocates an id, then creates the resource's stream with it (`create`:
 * refused if the stream exists). The stream can only exist already when a
 * client named that id itself in the instant between our allocation and our
 * create (threshold createOrReplace); the id is then left burnt and the next
 * one tried. `doc` is the validated document; its id is replaced.
 */
export async function createWithNewId<R extends { id: number }>(
  deps: ResourceDeps,
  kind: ResourceKind<R>,
  doc: R,
  metadata: EventMetadata,
): Promise<R> {
  const create = async (): Promise<R> => {
    const id = await allocateId(deps.client, kind.kind, metadata);
    const name = nameOfId(id);
    const state = await runResourceCommand(deps, kind, name, () => right({ type: 'create', name, resource: { ...doc, id } }), metadata);
    if (state.resource === undefined) throw new Error(`${kind.label} ${name} missing after create`);
    return state.resource;
  };
  // At once: the next id is free of the race that burnt this one.
  return retry(create, { backoff: { initialMs: 0, maxMs: 0 }, maxAttempts: ATTEMPTS, retryable: (err) => err instanceof ApiError && err.status === 409 });
}
