// Scenario files: a facility layout, readers, tags and a timeline of where
// each tag is from which time on, so that an exact sequence of movements can
// be replayed. Decoded with io-ts; every problem names its field
// (`timeline.3.zone`). Format: docs/simulator.md.
import * as t from 'io-ts';
import { isLeft } from 'fp-ts/Either';
import { formatDecodeErrors, type FieldError } from '../core/decode-errors';
import { defaultAntennas, FAMILIES, type Family, type Layout, type ReaderLayout, type Zone } from './layout';
import { UPGRADE_FAULTS, type UpgradeFault } from './upgrade';
import { zoneContains, type ScriptedMove } from './world';
import { PASSAGE_KINDS, PORTAL_ARRANGEMENTS, type Passage, type PortalArrangement, type PassageKind, type PortalDef } from './portal';

const finite = new t.Type<number, number, unknown>(
  'finite number',
  (u): u is number => typeof u === 'number' && Number.isFinite(u),
  (u, c) => (typeof u === 'number' && Number.isFinite(u) ? t.success(u) : t.failure(u, c)),
  t.identity,
);
const nonNegative = t.refinement(finite, (n) => n >= 0, 'number >= 0');
const nonBlank = t.refinement(t.string, (s) => s.trim().length > 0, 'non-blank string');
const hexString = t.refinement(t.string, (s) => /^([0-9A-Fa-f]{2})+$/.test(s), 'hexadecimal string of whole bytes');
const antennaId = t.refinement(t.number, (n) => Number.isInteger(n) && n >= 1 && n <= 52, 'antenna id 1-52');
const family = t.keyof(Object.fromEntries(FAMILIES.map((f) => [f, null])) as Record<Family, null>, 'XARRAY | XSPAN | XPORTAL | SPEEDWAY');
const floor = t.union([t.string, t.number, t.null]);

const PointC = t.intersection([t.type({ x: finite, y: finite }), t.partial({ z: finite })]);
const ZoneC = t.intersection([
  t.type({ name: nonBlank, points: t.refinement(t.array(PointC), (p) => p.length >= 2, 'at least 2 points') }),
  t.partial({ floor }),
]);
const ReaderC = t.intersection([
  t.type({ name: nonBlank, family, placement: t.intersection([t.type({ x: finite, y: finite }), t.partial({ z: finite, floor })]) }),
  t.partial({ antennas: t.array(t.intersection([t.type({ id: antennaId, x: finite, y: finite }), t.partial({ z: finite })])) }),
]);
const TagC = t.intersection([t.type({ epc: hexString }), t.partial({ tid: t.union([hexString, t.null]) })]);
/** `x`, `y`: the point of the zone the tag is at (both or neither); without them a point of the zone chosen from the seed. */
const EnterC = t.intersection([t.type({ epc: hexString, at: nonNegative, zone: nonBlank }), t.partial({ x: finite, y: finite })]);
const LeaveC = t.type({ epc: hexString, at: nonNegative, leave: t.literal(true) });
/** `{epc, at, zone}` or `{epc, at, leave: true}`, told apart by `leave` so errors name the right field. */
const MoveC = new t.Type<t.TypeOf<typeof EnterC> | t.TypeOf<typeof LeaveC>, unknown, unknown>(
  'move',
  (u): u is t.TypeOf<typeof EnterC> | t.TypeOf<typeof LeaveC> => EnterC.is(u) || LeaveC.is(u),
  (u, c) => (typeof u === 'object' && u !== null && 'leave' in u ? LeaveC.validate(u, c) : EnterC.validate(u, c)),
  t.identity,
);
export const FAULT_KINDS = ['network', 'dropped-reads', 'ntp', 'restart', 'not-responding'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];
const FaultC = t.intersection([
  t.type({ reader: nonBlank, at: nonNegative, fault: t.keyof(Object.fromEntries(FAULT_KINDS.map((f) => [f, null])) as Record<FaultKind, null>) }),
  t.partial({ seconds: nonNegative }),
]);

const UpgradesC = t.partial({
  seconds: nonNegative,
  failures: t.array(t.type({ reader: nonBlank, fault: t.keyof(Object.fromEntries(UPGRADE_FAULTS.map((f) => [f, null])) as Record<UpgradeFault, null>) })),
});

const positive = t.refinement(finite, (n) => n > 0, 'number > 0');
const PortalC = t.intersection([
  t.type({ name: nonBlank, arrangement: t.keyof(Object.fromEntries(PORTAL_ARRANGEMENTS.map((a) => [a, null])) as Record<PortalArrangement, null>, 'OVERHEAD | SIDE_BY_SIDE'), x: finite, y: finite }),
  t.partial({ floor, width: positive }),
]);
const PassageC = t.intersection([
  t.type({
    epc: hexString,
    portal: nonBlank,
    at: nonNegative,
    kind: t.keyof(Object.fromEntries(PASSAGE_KINDS.map((k) => [k, null])) as Record<PassageKind, null>, 'THROUGH | LINGER | TURN_BACK | PASS_BY'),
    toward: t.keyof({ IN: null, OUT: null }, 'IN | OUT'),
  }),
  t.partial({ speed: positive, seconds: nonNegative, offset: finite }),
]);

export const ScenarioC = t.intersection([
  t.type({ zones: t.array(ZoneC), readers: t.array(ReaderC), tags: t.array(TagC), timeline: t.array(MoveC) }),
  t.partial({ name: t.string, facility: nonBlank, zoneMap: nonBlank, durationSeconds: nonNegative, faults: t.array(FaultC), upgrades: UpgradesC, portals: t.array(PortalC), passages: t.array(PassageC) }),
]);

/** A fault scheduled by the scenario at world time `at`, lasting `seconds` where that means something. */
export interface ScriptedFault {
  readonly reader: string;
  readonly at: number;
  readonly fault: FaultKind;
  readonly seconds: number | null;
}

export interface Scenario {
  readonly name: string;
  readonly layout: Layout;
  readonly moves: readonly ScriptedMove[];
  readonly faults: readonly ScriptedFault[];
  readonly durationSeconds: number | null;
  /** How UPGRADE commands go: duration (null: the option's) and failures of readers' next upgrades, in order. */
  readonly upgrades: { readonly seconds: number | null; readonly failures: ReadonlyArray<{ readonly reader: string; readonly fault: UpgradeFault }> };
  /** Doors (docs/simulator.md, "Portals") and the visits of tags to them. */
  readonly portals: readonly PortalDef[];
  readonly passages: readonly Passage[];
}

export class ScenarioError extends Error {
  constructor(readonly errors: readonly FieldError[]) {
    super(`Invalid scenario: ${errors.map((e) => `${e.path || '(root)'} ${e.reason}`).join('; ')}`);
    this.name = 'ScenarioError';
  }
}

const floorOf = (f: string | number | null | undefined): string | null => (f === undefined || f === null || String(f).trim() === '' ? null : String(f));

/** Decodes and checks a parsed scenario document; throws ScenarioError naming every bad field. */
export function decodeScenario(doc: unknown, defaults: { facility: string; prefix?: string } = { facility: 'DEFAULT' }): Scenario {
  const decoded = ScenarioC.decode(doc);
  if (isLeft(decoded)) throw new ScenarioError(formatDecodeErrors(decoded.left));
  const s = decoded.right;
  const errors: FieldError[] = [];
  const epcs = new Set<string>();
  s.tags.forEach((tag, i) => {
    const epc = tag.epc.toUpperCase();
    if (epcs.has(epc)) errors.push({ path: `tags.${i}.epc`, reason: `duplicate EPC ${epc}` });
    epcs.add(epc);
  });
  const readerNames = new Set<string>();
  s.readers.forEach((r, i) => {
    if (readerNames.has(r.name)) errors.push({ path: `readers.${i}.name`, reason: `duplicate reader name "${r.name}"` });
    readerNames.add(r.name);
  });
  const zones: Zone[] = s.zones.map((z) => ({ name: z.name, floor: floorOf(z.floor), points: z.points.map((p) => ({ x: p.x, y: p.y })) }));
  errors.push(...timelineErrors(s, epcs, zones));
  (s.faults ?? []).forEach((f, i) => {
    if (!readerNames.has(f.reader)) errors.push({ path: `faults.${i}.reader`, reason: `no reader named "${f.reader}" in readers` });
  });
  (s.upgrades?.failures ?? []).forEach((f, i) => {
    if (!readerNames.has(f.reader)) errors.push({ path: `upgrades.failures.${i}.reader`, reason: `no reader named "${f.reader}" in readers` });
  });
  const portalNames = new Set<string>();
  (s.portals ?? []).forEach((p, i) => {
    if (portalNames.has(p.name)) errors.push({ path: `portals.${i}.name`, reason: `duplicate portal name "${p.name}"` });
    portalNames.add(p.name);
  });
  (s.passages ?? []).forEach((p, i) => {
    if (!epcs.has(p.epc.toUpperCase())) errors.push({ path: `passages.${i}.epc`, reason: `no tag with EPC ${p.epc} in tags` });
    if (!portalNames.has(p.portal)) errors.push({ path: `passages.${i}.portal`, reason: `no portal named "${p.portal}" in portals` });
  });
  if (errors.length) throw new ScenarioError(errors);

  const facility = s.facility ?? defaults.facility;
  const readers: ReaderLayout[] = s.readers.map((r) => {
    const placement = { x: r.placement.x, y: r.placement.y, z: r.placement.z ?? (r.family === 'XPORTAL' ? 1.5 : 4), floor: floorOf(r.placement.floor) };
    const antennas = r.antennas ? r.antennas.map((a) => ({ id: a.id, x: a.x, y: a.y, z: a.z ?? 2 })) : defaultAntennas(r.family, placement);
    return { name: r.name, family: r.family, placement, antennas };
  });
  return {
    name: s.name ?? 'scenario',
    layout: {
      facility,
      zoneMapName: s.zoneMap ?? `${defaults.prefix ?? 'sim-'}zones-${facility}`,
      zones,
      readers,
      tags: s.tags.map((tag) => ({ epc: tag.epc.toUpperCase(), tid: tag.tid ? tag.tid.toUpperCase() : null })),
    },
    moves: s.timeline.map((m) => ('zone' in m ? { epc: m.epc.toUpperCase(), at: m.at, zone: m.zone, ...pointOf(m) } : { epc: m.epc.toUpperCase(), at: m.at, leave: true })),
    faults: (s.faults ?? []).map((f) => ({ reader: f.reader, at: f.at, fault: f.fault, seconds: f.seconds ?? null })),
    durationSeconds: s.durationSeconds ?? null,
    upgrades: { seconds: s.upgrades?.seconds ?? null, failures: s.upgrades?.failures ?? [] },
    portals: (s.portals ?? []).map((p) => ({ name: p.name, arrangement: p.arrangement, x: p.x, y: p.y, floor: floorOf(p.floor), ...(p.width === undefined ? {} : { width: p.width }) })),
    passages: (s.passages ?? []).map((p) => ({ ...p, epc: p.epc.toUpperCase() })),
  };
}

type Decoded = t.TypeOf<typeof ScenarioC>;

/** Timeline entries naming a tag or zone the scenario lacks, or a point outside the zone named. */
function timelineErrors(s: Decoded, epcs: ReadonlySet<string>, zones: readonly Zone[]): FieldError[] {
  const zoneNames = new Set(zones.map((z) => z.name));
  const errors: FieldError[] = [];
  s.timeline.forEach((m, i) => {
    if (!epcs.has(m.epc.toUpperCase())) errors.push({ path: `timeline.${i}.epc`, reason: `no tag with EPC ${m.epc} in tags` });
    if (!('zone' in m)) return;
    if (!zoneNames.has(m.zone)) errors.push({ path: `timeline.${i}.zone`, reason: `no zone named "${m.zone}" in zones` });
    else if ((m.x === undefined) !== (m.y === undefined)) errors.push({ path: `timeline.${i}.${m.x === undefined ? 'x' : 'y'}`, reason: 'x and y go together: give both or neither' });
    else if (m.x !== undefined && m.y !== undefined && !zones.some((z) => z.name === m.zone && zoneContains(z, { x: m.x as number, y: m.y as number }))) {
      errors.push({ path: `timeline.${i}`, reason: `point (${m.x}, ${m.y}) is not inside zone "${m.zone}"` });
    }
  });
  return errors;
}

const pointOf = (m: { x?: number; y?: number }): { x: number; y: number } | Record<string, never> => (m.x !== undefined && m.y !== undefined ? { x: m.x, y: m.y } : {});

/** Parses JSON text; a syntax error is a ScenarioError too. */
export function parseScenario(text: string, defaults?: { facility: string; prefix?: string }): Scenario {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    throw new ScenarioError([{ path: '', reason: `not valid JSON: ${(err as Error).message}` }]);
  }
  return decodeScenario(doc, defaults);
}
