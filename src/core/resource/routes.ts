// The five routes every named configuration resource has (create,
// createOrReplace, destroy, show one, show all), on top of the pure
// decisions in decide.ts and the config read model.
import * as t from 'io-ts';
import { isLeft, left, right, type Either } from 'fp-ts/Either';
import type { EventStoreDBClient } from '@eventstore/db-client';
import type { Context } from 'koa';
import { runCommand } from '../command';
import { refuseAll } from '../http/decode';
import { conflict, notFound, type ApiError } from '../http/errors';
import { salvage, type RuleInput, type Salvaged } from '../salvage';
import type { RouteTable } from '../http/routes';
import type { EventMetadata } from '../events';
import type { ConfigReadModel } from './readmodel';
import type { ProjectionWaiter } from './consistency';
import { decideResource, evolveResource, initialResourceState, type ResourceCommand, type ResourceState } from './decide';
import { resourceEventCodecs, streamOf, type ResourceEvent, type ResourceKind } from './kind';

export interface ResourceDeps {
  readonly client: EventStoreDBClient;
  readonly readModel: ConfigReadModel;
  readonly waiter: ProjectionWaiter;
}

export interface NamedResourceApi<R, I, Ctx> {
  readonly kind: ResourceKind<R>;
  /** e.g. `/configuration/v1/facilities` */
  readonly base: string;
  /** path parameter name of destroy/show, e.g. `facilityName` */
  readonly param: string;
  readonly tag: string;
  /** The resource in operation ids (`createFacility`, `showFacilities`): one and many, PascalCase. */
  readonly operationNouns: { readonly one: string; readonly many: string };
  readonly writeRoles: readonly string[];
  readonly readRoles: readonly string[];
  readonly body: t.Type<I, unknown, unknown>;
  /**
   * Fields whose rules read another field: their rule errors are left out
   * of the answer to a body in which that other field did not decode
   * (validate would have judged them against its default).
   */
  readonly dependsOn?: readonly RuleInput[];
  /** JSON Schema of the body, for the OpenAPI document. */
  readonly bodySchema: Record<string, unknown>;
  /** JSON Schema of the resource as toResponse returns it, for the OpenAPI document. */
  readonly responseSchema?: Record<string, unknown>;
  nameOf(input: I): string;
  /**
   * The input with the secrets it carries sealed (SecretBox), applied before
   * anything is decided: the events and the read model never hold them in
   * clear, and validate stays pure (sealing draws a random IV).
   */
  sealSecrets?(input: I): I;
  /** What validation needs from the rest of the configuration, loaded before deciding. */
  context(deps: ResourceDeps): Promise<Ctx>;
  /** Pure: the stored document, or a 400/404/409 naming the problem. */
  validate(input: I, ctx: Ctx, existing: R | undefined): Either<ApiError, R>;
  toResponse(r: R): unknown;
  /** Refuses a delete (e.g. still in use), given the current configuration. */
  beforeDelete?(name: string, resource: R, deps: ResourceDeps): Promise<ApiError | undefined>;
}

/** Who wrote it, for the audit trail. */
export function commandMetadata(ctx: Context): EventMetadata {
  const principal = (ctx.state as { principal?: { name: string } }).principal;
  const requestId = (ctx.state as { requestId?: string }).requestId;
  return { ...(principal ? { user: principal.name } : {}), ...(requestId ? { correlationId: requestId } : {}) };
}

/**
 * Reads the resource's stream, builds the command from its current state
 * (validation of a replace depends on what is stored), decides and appends,
 * then waits for the read model so a following show sees the change.
 */
export async function runResourceCommand<R>(
  deps: ResourceDeps,
  kind: ResourceKind<R>,
  name: string,
  build: (state: ResourceState<R>) => Either<ApiError, ResourceCommand<R>>,
  metadata: EventMetadata,
): Promise<ResourceState<R>> {
  const decide = decideResource(kind);
  const stream = {
    stream: streamOf(kind as ResourceKind<unknown>, name),
    codecs: resourceEventCodecs(kind),
    decider: {
      initialState: initialResourceState as ResourceState<R>,
      evolve: evolveResource(kind) as (s: ResourceState<R>, e: unknown) => ResourceState<R>,
      decide: (_: null, state: ResourceState<R>): Either<ApiError, ReadonlyArray<ResourceEvent<R>>> => {
        const cmd = build(state);
        return isLeft(cmd) ? cmd : decide(cmd.right, state);
      },
    },
    conflict: `${kind.label} ${name} was changed concurrently; retry`,
  };
  const result = await runCommand(deps.client, stream, null, { metadata, waiter: deps.waiter });
  if (isLeft(result)) throw result.left;
  return result.right.state;
}

type Handler = (ctx: Context) => Promise<void>;

/**
 * A body that did not decode: its type errors and the rule errors of the
 * parts that did, checked against the stored resource as the read model has
 * it (nothing will be written, so the stream need not be read).
 */
async function refuseWhole<R, I, Ctx>(deps: ResourceDeps, api: NamedResourceApi<R, I, Ctx>, type: 'create' | 'createOrReplace', decoded: Salvaged<I>, vctx: Ctx): Promise<ApiError> {
  const rest = decoded.rest;
  if (rest === undefined) return refuseAll(decoded, undefined);
  const existing = type === 'create' ? undefined : await deps.readModel.get(api.kind, api.nameOf(rest));
  return refuseAll(decoded, api.validate(rest, vctx, existing));
}

/** POST create / PUT createOrReplace: the body validated against the stored resource, then stored. */
function writeHandler<R, I, Ctx>(deps: ResourceDeps, api: NamedResourceApi<R, I, Ctx>, type: 'create' | 'createOrReplace'): Handler {
  const noun = api.kind.label;
  return async (ctx) => {
    const decoded = salvage(api.body, ctx.request.body, 'body', api.dependsOn);
    const vctx = await api.context(deps);
    if (!decoded.ok) throw await refuseWhole(deps, api, type, decoded, vctx);
    const input = api.sealSecrets ? api.sealSecrets(decoded.value) : decoded.value;
    const name = api.nameOf(input);
    const state = await runResourceCommand(
      deps,
      api.kind,
      name,
      (s) => {
        // An existing name is a 409 whatever the body says (its update rules do not apply to create).
        if (type === 'create' && s.resource !== undefined) return left(conflict(`${noun} ${name} already exists`));
        const v = api.validate(input, vctx, type === 'create' ? undefined : s.resource);
        return isLeft(v) ? v : right({ type, name, resource: v.right });
      },
      commandMetadata(ctx),
    );
    if (state.resource === undefined) throw new Error(`${noun} ${name} missing after ${type}`);
    ctx.body = api.toResponse(state.resource);
  };
}

/** DELETE destroy: refused while in use (beforeDelete). */
function destroyHandler<R, I, Ctx>(deps: ResourceDeps, api: NamedResourceApi<R, I, Ctx>): Handler {
  return async (ctx) => {
    const name = String(ctx.params[api.param]);
    const current = await deps.readModel.get(api.kind, name);
    if (current !== undefined && api.beforeDelete) {
      const refusal = await api.beforeDelete(name, current, deps);
      if (refusal) throw refusal;
    }
    await runResourceCommand(deps, api.kind, name, () => right({ type: 'delete', name }), commandMetadata(ctx));
    ctx.status = 204;
  };
}

function showOneHandler<R, I, Ctx>(deps: ResourceDeps, api: NamedResourceApi<R, I, Ctx>): Handler {
  return async (ctx) => {
    const name = String(ctx.params[api.param]);
    const r = await deps.readModel.get(api.kind, name);
    if (r === undefined) throw notFound(`${api.kind.label} ${name} not found`);
    ctx.body = api.toResponse(r);
  };
}

export function addNamedResourceRoutes<R, I, Ctx>(table: RouteTable, deps: ResourceDeps, api: NamedResourceApi<R, I, Ctx>): void {
  const noun = api.kind.label;
  const stored = (description: string) => (api.responseSchema ? { description, schema: api.responseSchema } : description);
  const concurrent = 'changed concurrently; retry';
  const { one, many } = api.operationNouns;
  table.add(
    {
      method: 'post', operationId: `create${one}`, path: `${api.base}/create`, roles: api.writeRoles, tag: api.tag, summary: `Create a ${noun} (does not replace)`, body: api.bodySchema,
      responses: { 200: stored(`the stored ${noun}`), 400: 'invalid input', 409: `${noun} already exists, or ${concurrent}` },
    },
    writeHandler(deps, api, 'create'),
  );
  table.add(
    {
      method: 'put', operationId: `createOrReplace${one}`, path: `${api.base}/createOrReplace`, roles: api.writeRoles, tag: api.tag, summary: `Create or replace a ${noun}`, body: api.bodySchema,
      responses: { 200: stored(`the stored ${noun}`), 400: 'invalid input', 409: `the change conflicts with the ${noun}'s use, or ${concurrent}` },
    },
    writeHandler(deps, api, 'createOrReplace'),
  );
  table.add(
    { method: 'delete', operationId: `destroy${one}`, path: `${api.base}/destroy/:${api.param}`, roles: api.writeRoles, tag: api.tag, summary: `Delete a ${noun}`, responses: { 204: 'deleted', 404: `no such ${noun}`, 409: `${noun} in use` } },
    destroyHandler(deps, api),
  );
  table.add(
    { method: 'get', operationId: `show${one}`, path: `${api.base}/show/:${api.param}`, roles: api.readRoles, tag: api.tag, summary: `Show one ${noun}`, responses: { 200: stored(noun), 404: `no such ${noun}` } },
    showOneHandler(deps, api),
  );
  table.add(
    { method: 'get', operationId: `show${many}`, path: `${api.base}/show`, roles: api.readRoles, tag: api.tag, summary: `Show every ${noun}`, responses: { 200: api.responseSchema ? { description: `array of ${noun}`, schema: { type: 'array', items: api.responseSchema } } : `array of ${noun}` } },
    async (ctx) => {
      ctx.body = (await deps.readModel.list(api.kind)).map((r) => api.toResponse(r));
    },
  );
}
