// The projected health of one reader: a pure fold of its health and agent
// events. It keeps only what the status rules need (per status object, the
// latest WARNING and the latest FAILED event after the last HEALTH_RESET), so
// the record stays small however many events a reader sends. Statuses are
// computed from it at read time (src/health/status.ts), because a status
// returns to HEALTHY by the passing of time.
import * as t from 'io-ts';
import { isStatusCode, STATUS_CATEGORIES, STATUS_CODES, type Severity, type StatusCategory } from './codes';
import { AgentStateCodec, Versions, type HealthStreamEvent } from './events';

// Codecs as well as types: the health read model stores this state and
// decodes it on every read (src/core/stored-json.ts).
const CodeAt = t.readonly(t.type({ code: t.string, eventTime: t.string }));
export type CodeAt = t.TypeOf<typeof CodeAt>;

/** What a reader said of its temperature, and when (the check-in's time). */
const Temperature = t.readonly(t.type({ celsius: t.number, at: t.string }));
export type Temperature = t.TypeOf<typeof Temperature>;

const CategoryState = t.readonly(t.partial({ WARNING: CodeAt, FAILED: CodeAt } satisfies Record<Severity, typeof CodeAt>));
export type CategoryState = t.TypeOf<typeof CategoryState>;

const StringOrNull = t.union([t.string, t.null]);

export const ReaderHealthState = t.readonly(
  t.intersection([
    t.type({
      readerName: t.string,
      /** Last state the agent reported, and when. */
      agent: t.union([t.readonly(t.type({ agentId: t.string, state: AgentStateCodec, at: t.string })), t.null]),
      /** Newest `at` of the AgentCheckedIn events (the gateway also keeps a fresher one in Redis). */
      lastCheckin: StringOrNull,
      version: t.union([Versions, t.null]),
      lastReboot: StringOrNull,
      lastRebootReason: StringOrNull,
      /** eventTime of the newest HEALTH_RESET: events at or before it count no more. */
      resetAt: StringOrNull,
      categories: t.readonly(t.type(Object.fromEntries(STATUS_CATEGORIES.map((c) => [c, CategoryState])) as Record<StatusCategory, typeof CategoryState>)),
      /** What the checker last recorded (ReaderNotResponding true, ReaderResponding false). */
      notRespondingRecorded: t.boolean,
    }),
    /** The reader's own temperature from its newest check-in that carried one (absent in states stored before). */
    t.partial({ temperature: t.union([Temperature, t.null]) }),
  ]),
);
export type ReaderHealthState = t.TypeOf<typeof ReaderHealthState>;

export function initialHealthState(readerName: string): ReaderHealthState {
  return {
    readerName,
    agent: null,
    lastCheckin: null,
    version: null,
    temperature: null,
    lastReboot: null,
    lastRebootReason: null,
    resetAt: null,
    categories: Object.fromEntries(STATUS_CATEGORIES.map((c) => [c, {}])) as Record<StatusCategory, CategoryState>,
    notRespondingRecorded: false,
  };
}

const ms = (iso: string): number => Date.parse(iso);
const later = (a: string | null, b: string): boolean => a === null || ms(b) >= ms(a);

function newVersion(current: Versions | null, arg: unknown): Versions | null {
  // `args.newVersion`: {App?, Firmware?} merges into the version; a bare
  // string is the agent (App) version.
  const base: Versions = current ?? { App: '', Firmware: '' };
  if (typeof arg === 'string') return { ...base, App: arg };
  if (arg !== null && typeof arg === 'object') {
    const v = arg as Record<string, unknown>;
    return {
      App: typeof v['App'] === 'string' ? v['App'] : base.App,
      Firmware: typeof v['Firmware'] === 'string' ? v['Firmware'] : base.Firmware,
    };
  }
  return current;
}

function afterReset(categories: ReaderHealthState['categories'], resetAt: string): ReaderHealthState['categories'] {
  const keep = (c?: CodeAt): c is CodeAt => c !== undefined && ms(c.eventTime) > ms(resetAt);
  const out = {} as Record<StatusCategory, CategoryState>;
  for (const cat of STATUS_CATEGORIES) {
    const { WARNING, FAILED } = categories[cat];
    out[cat] = { ...(keep(WARNING) ? { WARNING } : {}), ...(keep(FAILED) ? { FAILED } : {}) };
  }
  return out;
}

export function evolveHealth(state: ReaderHealthState, event: HealthStreamEvent): ReaderHealthState {
  switch (event.type) {
    case 'AgentCheckedIn': {
      const d = event.data;
      return {
        ...state,
        agent: { agentId: d.agentId, state: d.state, at: d.at },
        lastCheckin: later(state.lastCheckin, d.at) ? d.at : state.lastCheckin,
        version: d.versions,
        temperature: d.temperatureCelsius === undefined || !later(state.temperature?.at ?? null, d.at) ? (state.temperature ?? null) : { celsius: d.temperatureCelsius, at: d.at },
      };
    }
    case 'ReaderNotResponding':
      return { ...state, notRespondingRecorded: true };
    case 'ReaderResponding':
      return { ...state, notRespondingRecorded: false };
    case 'HealthEventReported': {
      const { code, eventTime, args } = event.data;
      if (code === 'HEALTH_RESET') {
        const resetAt = later(state.resetAt, eventTime) ? eventTime : (state.resetAt as string);
        return { ...state, resetAt, categories: afterReset(state.categories, resetAt) };
      }
      if (code === 'REBOOT') {
        if (!later(state.lastReboot, eventTime)) return state;
        return { ...state, lastReboot: eventTime, lastRebootReason: typeof args['reason'] === 'string' ? args['reason'] : null };
      }
      if (code === 'VERSION_UPDATE') return { ...state, version: newVersion(state.version, args['newVersion']) };
      if (!isStatusCode(code)) return state;
      if (state.resetAt !== null && ms(eventTime) <= ms(state.resetAt)) return state;
      const { category, severity } = STATUS_CODES[code];
      const current = state.categories[category][severity];
      if (current && ms(current.eventTime) > ms(eventTime)) return state;
      return {
        ...state,
        categories: { ...state.categories, [category]: { ...state.categories[category], [severity]: { code, eventTime } } },
      };
    }
    default: {
      const never: never = event;
      return never;
    }
  }
}
