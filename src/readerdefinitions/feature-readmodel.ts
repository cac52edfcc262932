// The feature states of readers in Redis, for fast show and status reads.
//
// The config projection only ever writes (no read inside its transaction),
// so it cannot fold an event into the stored state of its reader. Instead
// each feature's status is kept as three parts, and every event rewrites
// whole parts:
//
//   hash `<prefix>v1:config:readerFeatures`
//     `<reader>/<feature>/reported`  {status, statusLastUpdated}          FeatureChangeCompleted
//     `<reader>/<feature>/target`    {requestTargetStatus}                Requested, Completed
//     `<reader>/<feature>/progress`  {requestStatus, requestStatusLastUpdated, message?}  every event
//
// Reading assembles the parts (missing ones are "never requested"), which
// gives what evolveFeatures gives on the stream (checked by a unit test over
// every history the decider can produce). A field name is parsed from the
// right: feature names and parts never contain `/`, reader names may.
import * as t from 'io-ts';
import { decodeStored } from '../core/stored-json';
import type { RedisKeys } from '../core/redis/keys';
import {
  FEATURE_NAMES,
  FeatureName,
  FeatureRequestStatus,
  FeatureStatusValue,
  NEVER_REQUESTED,
  type FeatureChangeEvent,
  type FeatureStates,
  type FeatureStatus,
} from './features';
import { assertNever, IsoTimestamp, nullable } from './primitives';

/** `keys.config(READER_FEATURES_KIND)` is the hash. */
export const READER_FEATURES_KIND = 'readerFeatures';
export const READER_FEATURES_STREAM_PREFIX = 'readerFeatures-';
/** The stream of one reader's feature changes. */
export const readerFeaturesStream = (reader: string): string => `${READER_FEATURES_STREAM_PREFIX}${reader}`;

const Reported = t.type({ status: FeatureStatusValue, statusLastUpdated: nullable(IsoTimestamp) });
const Target = t.type({ requestTargetStatus: nullable(FeatureStatusValue) });
const Progress = t.intersection([
  t.type({ requestStatus: FeatureRequestStatus, requestStatusLastUpdated: nullable(IsoTimestamp) }),
  t.partial({ message: t.string }),
]);
type Reported = t.TypeOf<typeof Reported>;
type Target = t.TypeOf<typeof Target>;
type Progress = t.TypeOf<typeof Progress>;

const PARTS = { reported: Reported, target: Target, progress: Progress } as const;
type Part = keyof typeof PARTS;
const PART_NAMES = Object.keys(PARTS) as Part[];

export const featureField = (reader: string, feature: FeatureName, part: Part): string => `${reader}/${feature}/${part}`;

function parseField(field: string): { reader: string; feature: FeatureName; part: Part } | undefined {
  const partAt = field.lastIndexOf('/');
  const featureAt = field.lastIndexOf('/', partAt - 1);
  if (featureAt <= 0) return undefined;
  const feature = field.slice(featureAt + 1, partAt);
  const part = field.slice(partAt + 1);
  if (!FeatureName.is(feature) || !(part in PARTS)) return undefined;
  return { reader: field.slice(0, featureAt), feature, part: part as Part };
}

/** What one event of `reader`'s stream writes: [field, JSON] pairs, in order. */
export function featureEventWrites(reader: string, event: FeatureChangeEvent): Array<[string, string]> {
  const { feature, at } = event.data;
  const write = <P extends Part>(part: P, value: t.TypeOf<(typeof PARTS)[P]>): [string, string] => [
    featureField(reader, feature, part),
    JSON.stringify(value),
  ];
  switch (event.type) {
    case 'FeatureChangeRequested':
      return [
        write('target', { requestTargetStatus: event.data.target }),
        write('progress', { requestStatus: 'INITIALIZING', requestStatusLastUpdated: at }),
      ];
    case 'FeatureChangeTaken':
      return [write('progress', { requestStatus: 'CONFIGURING', requestStatusLastUpdated: at })];
    case 'FeatureChangeCompleted':
      return [
        write('reported', { status: event.data.status, statusLastUpdated: at }),
        write('target', { requestTargetStatus: null }),
        write('progress', { requestStatus: 'IDLE', requestStatusLastUpdated: at }),
      ];
    case 'FeatureChangeFailed':
      return [write('progress', { requestStatus: 'ERROR', requestStatusLastUpdated: at, message: event.data.message })];
    default:
      return assertNever(event);
  }
}

// Written by our projection only: a part that does not decode is a bug or a
// hand edit, and is named rather than served.
function decodePart<P extends Part>(field: string, part: P, raw: string): t.TypeOf<(typeof PARTS)[P]> {
  return decodeStored(PARTS[part] as t.Type<t.TypeOf<(typeof PARTS)[P]>, unknown, unknown>, raw, `reader features read model: ${field}`);
}

interface Parts {
  reported?: Reported;
  target?: Target;
  progress?: Progress;
}

function assemble(parts: Parts): FeatureStatus {
  return { ...NEVER_REQUESTED, ...parts.reported, ...parts.target, ...parts.progress };
}

/** The slice of a Redis client this read model uses. */
export interface FeatureRedis {
  hmGet(key: string, fields: string[]): Promise<ReadonlyArray<string | null | undefined>>;
  hGetAll(key: string): Promise<Record<string, string>>;
}

export class ReaderFeatureReadModel {
  constructor(
    private readonly redis: FeatureRedis,
    private readonly keys: RedisKeys,
  ) {}

  private get key(): string {
    return this.keys.config(READER_FEATURES_KIND);
  }

  /** The feature states of one reader: the features ever requested or reported. */
  async of(reader: string): Promise<FeatureStates> {
    const wanted = FEATURE_NAMES.flatMap((feature) => PART_NAMES.map((part) => ({ feature, part })));
    const values = await this.redis.hmGet(
      this.key,
      wanted.map(({ feature, part }) => featureField(reader, feature, part)),
    );
    const byFeature = new Map<FeatureName, Parts>();
    wanted.forEach(({ feature, part }, i) => {
      const raw = values[i];
      if (raw == null) return;
      const parts = byFeature.get(feature) ?? {};
      (parts as Record<Part, unknown>)[part] = decodePart(featureField(reader, feature, part), part, raw);
      byFeature.set(feature, parts);
    });
    return Object.fromEntries([...byFeature].map(([feature, parts]) => [feature, assemble(parts)]));
  }

  /** reader -> feature states, for every reader with any. */
  async all(): Promise<Map<string, FeatureStates>> {
    const raw = await this.redis.hGetAll(this.key);
    const byReader = new Map<string, Map<FeatureName, Parts>>();
    for (const [field, value] of Object.entries(raw)) {
      const at = parseField(field);
      if (at === undefined) throw new Error(`reader features read model: unexpected field ${JSON.stringify(field)}`);
      const features = byReader.get(at.reader) ?? new Map<FeatureName, Parts>();
      const parts = features.get(at.feature) ?? {};
      (parts as Record<Part, unknown>)[at.part] = decodePart(field, at.part, value);
      features.set(at.feature, parts);
      byReader.set(at.reader, features);
    }
    return new Map(
      [...byReader].map(([reader, features]) => [
        reader,
        Object.fromEntries([...features].map(([feature, parts]) => [feature, assemble(parts)])) as FeatureStates,
      ]),
    );
  }
}
