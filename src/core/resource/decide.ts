// The pure decisions shared by every named resource. Validation of the
// document itself happens before (it needs the rest of the configuration);
// these rules are about existence only.
import { left, right, type Either } from 'fp-ts/Either';
import { conflict, notFound, type ApiError } from '../http/errors';
import { eventNames, type ResourceEvent, type ResourceKind } from './kind';

export interface ResourceState<R> {
  readonly resource: R | undefined;
}

export const initialResourceState: ResourceState<never> = { resource: undefined };

export type ResourceCommand<R> =
  | { readonly type: 'create'; readonly name: string; readonly resource: R }
  | { readonly type: 'createOrReplace'; readonly name: string; readonly resource: R }
  | { readonly type: 'delete'; readonly name: string };

export function evolveResource<R>(k: ResourceKind<R>) {
  const n = eventNames(k as ResourceKind<unknown>);
  return (state: ResourceState<R>, event: ResourceEvent<R>): ResourceState<R> => {
    if (event.type === n.deleted) return { resource: undefined };
    if ((event.type === n.created || event.type === n.replaced) && 'resource' in event.data) {
      return { resource: event.data.resource };
    }
    return state;
  };
}

export function decideResource<R>(k: ResourceKind<R>) {
  const n = eventNames(k as ResourceKind<unknown>);
  return (cmd: ResourceCommand<R>, state: ResourceState<R>): Either<ApiError, ReadonlyArray<ResourceEvent<R>>> => {
    switch (cmd.type) {
      case 'create':
        if (state.resource !== undefined) return left(conflict(`${k.label} ${cmd.name} already exists`));
        return right([{ type: n.created, data: { name: cmd.name, resource: cmd.resource } }]);
      case 'createOrReplace':
        return right([
          {
            type: state.resource === undefined ? n.created : n.replaced,
            data: { name: cmd.name, resource: cmd.resource },
          },
        ]);
      case 'delete':
        if (state.resource === undefined) return left(notFound(`${k.label} ${cmd.name} not found`));
        return right([{ type: n.deleted, data: { name: cmd.name } }]);
      default: {
        const never: never = cmd;
        throw new Error(`unknown command ${JSON.stringify(never)}`);
      }
    }
  };
}
