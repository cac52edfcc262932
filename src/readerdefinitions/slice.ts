// Reader definitions: CRUD on named reader documents under
// /configuration/v1/readerDefinitions, the union of their groups, and
// feature changes (feature-routes.ts). A facility that still has reader
// definitions cannot be deleted (facilityUsage).
import { isRight } from 'fp-ts/Either';
import type { RouteTable } from '../core/http/routes';
import type { ResourceKind } from '../core/resource/kind';
import { addNamedResourceRoutes, type ResourceDeps } from '../core/resource/routes';
import type { AppDeps, Slice } from '../slice';
import { ConfigReadModel, type ConfigRedis } from '../core/resource/readmodel';
import { facilityKind, type UsageSource } from '../facilities';
import { ReaderDefinitionBody, type ReaderDefinition } from './codec';
import { ReaderFeatureReadModel } from './feature-readmodel';
import { registerFeatureChangeRoutes } from './feature-routes';
import type { FeatureStates } from './features';
import {
  READER_DEFINITIONS_BASE,
  READER_DEFINITION_READ_ROLES,
  READER_DEFINITION_WRITE_ROLES,
  READER_GROUPS_ROLES,
  readerDefinitionKind,
  readerDefinitionsOf,
} from './kind';
import { toResponse } from './response';
import { sealConnectionPassword } from './connection';
import { readerDefinitionBodySchema, readerDefinitionResponseSchema } from './schema';
import { currentZoneNames } from '../zonemaps';
import { groupsUnion, validateReaderDefinitionCreate, validateReaderDefinitionReplace, type FacilityZones } from './validate';

const TAG = 'Reader definitions';

/** What validating a write needs: the facilities and their current zone maps, and the features to answer with. */
interface WriteContext {
  readonly facilityNames: readonly string[];
  readonly zonesOf: FacilityZones;
  readonly features: ReadonlyMap<string, FeatureStates>;
}

/**
 * The documents answered with, paired with their readers' feature states.
 *
 * The route factory's `toResponse(doc)` is synchronous and sees the document
 * only, while feature states have a read model of their own. Every document
 * it is given comes from one of two places this slice controls: the read
 * model (show, show all; `FeatureAwareReadModel` below looks the features up
 * beside the document) or `validate` (create, createOrReplace answer with
 * the document validate returned; the features come from the write context).
 * Each such document is paired here with its features; a document never
 * paired answers with no features.
 */
class ResponseFeatures {
  private readonly pairs = new WeakMap<object, FeatureStates>();
  pair<D extends object>(doc: D, features: FeatureStates | undefined): D {
    this.pairs.set(doc, features ?? {});
    return doc;
  }
  of(doc: object): FeatureStates {
    return this.pairs.get(doc) ?? {};
  }
}

/** The config read model, pairing reader definitions it reads with their feature states. */
class FeatureAwareReadModel extends ConfigReadModel {
  constructor(
    redis: ConfigRedis,
    keys: AppDeps['keys'],
    private readonly features: ReaderFeatureReadModel,
    private readonly responses: ResponseFeatures,
  ) {
    super(redis, keys);
  }

  private static isReaders(k: { readonly kind: string }): boolean {
    return k.kind === readerDefinitionKind.kind;
  }

  override async get<R>(k: ResourceKind<R>, name: string): Promise<R | undefined> {
    if (!FeatureAwareReadModel.isReaders(k)) return super.get(k, name);
    const [doc, features] = await Promise.all([super.get(k, name), this.features.of(name)]);
    return doc === undefined ? undefined : this.responses.pair(doc as R & object, features);
  }

  override async list<R>(k: ResourceKind<R>): Promise<R[]> {
    if (!FeatureAwareReadModel.isReaders(k)) return super.list(k);
    const [docs, features] = await Promise.all([super.list(k), this.features.all()]);
    return docs.map((doc) => this.responses.pair(doc as R & object, features.get((doc as ReaderDefinition).name)));
  }
}

/** Reader definitions per facility, so a facility with readers is not deleted. */
export const readerDefinitionFacilityUsage: UsageSource = async (deps) => ({
  readerDefinitions: (await readerDefinitionsOf(deps.readModel)).map((r) => ({ name: r.name, facility: r.facility })),
});

function registerGroupsRoute(table: RouteTable, deps: ResourceDeps): void {
  table.add(
    {
      method: 'get',
      operationId: 'showReaderDefinitionGroups',
      path: `${READER_DEFINITIONS_BASE}/groups`,
      roles: READER_GROUPS_ROLES,
      tag: TAG,
      summary: 'Every group name used by a reader definition, once, sorted',
      responses: { 200: { description: 'array of group names', schema: { type: 'array', items: { type: 'string' } } } },
    },
    async (ctx) => {
      ctx.body = groupsUnion(await readerDefinitionsOf(deps.readModel));
    },
  );
}

export const readerDefinitionsSlice: Slice = {
  name: 'readerDefinitions',
  facilityUsage: readerDefinitionFacilityUsage,
  register(table, deps) {
    const features = new ReaderFeatureReadModel(deps.redis, deps.keys);
    const responses = new ResponseFeatures();
    const routeDeps: ResourceDeps = {
      client: deps.client,
      waiter: deps.waiter,
      readModel: new FeatureAwareReadModel(deps.redis, deps.keys, features, responses),
    };
    addNamedResourceRoutes<ReaderDefinition, ReaderDefinitionBody, WriteContext>(table, routeDeps, {
      kind: readerDefinitionKind,
      base: READER_DEFINITIONS_BASE,
      param: 'readerDefinitionName',
      tag: TAG,
      operationNouns: { one: 'ReaderDefinition', many: 'ReaderDefinitions' },
      writeRoles: READER_DEFINITION_WRITE_ROLES,
      readRoles: READER_DEFINITION_READ_ROLES,
      body: ReaderDefinitionBody,
      // Zone names are checked against the current zone map of the facility.
      dependsOn: [{ field: 'readerZone', on: 'facility' }, { field: 'antennaZones', on: 'facility' }],
      bodySchema: readerDefinitionBodySchema,
      responseSchema: readerDefinitionResponseSchema,
      nameOf: (b) => b.name,
      // The IoT password is stored sealed: never in clear in the log or the read model.
      sealSecrets: (body) => sealConnectionPassword(body, deps.secrets),
      context: async () => {
        const [facilities, zonesOf, states] = await Promise.all([deps.readModel.list(facilityKind), currentZoneNames(deps.readModel), features.all()]);
        return { facilityNames: facilities.map((f) => f.name), zonesOf, features: states };
      },
      validate: (body, ctx, existing) => {
        // `existing` is read from the definition's own stream, so a create of
        // an existing name reaches decideResource and is a 409 there.
        const result =
          existing === undefined
            ? validateReaderDefinitionCreate(body, ctx.facilityNames, ctx.zonesOf)
            : validateReaderDefinitionReplace(existing, body, ctx.facilityNames, ctx.zonesOf);
        if (isRight(result)) responses.pair(result.right, ctx.features.get(result.right.name));
        return result;
      },
      toResponse: (doc) => toResponse(doc, responses.of(doc)),
      // What names the reader (thresholds) would point at nothing: the first refusal.
      beforeDelete: async (name) => {
        for (const usage of deps.readerUsage) {
          const refusal = await usage(deps, name);
          if (refusal) return refusal;
        }
        return undefined;
      },
    });
    registerGroupsRoute(table, deps);
    registerFeatureChangeRoutes(table, deps, features);
  },
};
