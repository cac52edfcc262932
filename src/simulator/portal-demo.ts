// The door of the demo (docs/simulator.md, "Portals"): reader definitions
// of the portal readers, their threshold antenna configurations, the
// thresholds, a THRESHOLD reader configuration and recipe, all over REST as
// admin and by name, so running the demo again reuses them. And, at the end
// of a run, the service's transitions scored against what the simulator knows
// really happened.
import type { Logger } from '../core/logger';
import { must } from './demo';
import { enc, type HttpAnswer, type HttpClient } from './http';
import type { Layout } from './layout';
import { antennaRefs, portalReaders, scoreTransitions, truthOf, type Passage, type PortalDef, type PortalReader } from './portal';


/**
 * The demo's door, on the edge of the generated facility below its first zone, IN facing into the
 * building: overhead (an xArray's beams, through its agent), or side by side (a reader with two
 * plain antennas on each jamb: what LLRP readers play).
 */
export function demoPortals(layout: Layout, prefix: string, arrangement: PortalDef['arrangement'] = 'OVERHEAD'): PortalDef[] {
  const first = layout.zones[0];
  const floor = first?.floor ?? '1';
  const x = first === undefined ? 0 : (Math.min(...first.points.map((p) => p.x)) + Math.max(...first.points.map((p) => p.x))) / 2;
  const y = first === undefined ? 0 : Math.min(...first.points.map((p) => p.y)) - 2;
  return [{ name: `${prefix}door`, arrangement, x, y, floor }];
}

export interface PortalSetup {
  readonly recipe: string;
  readonly readers: ReadonlyArray<{ readonly portal: PortalDef; readonly reader: PortalReader }>;
}

/** How tagtrail reaches a door reader that is not an agent: its address and `connection` (LLRP). */
export type DoorConnections = ReadonlyMap<string, { readonly address: string; readonly connection: Record<string, unknown> }>;

export async function createPortalConfiguration(admin: HttpClient, portals: readonly PortalDef[], facility: string, prefix: string, log: Logger, connections: DoorConnections = new Map()): Promise<PortalSetup> {
  // Reader names start with the portal's (`sim-door-overhead`): the portal name carries the prefix already.
  const readers = portals.flatMap((portal) => portalReaders(portal, '').map((reader) => ({ portal, reader })));
  for (const { reader } of readers) {
    await must(`reader definition ${reader.name}`, admin.request('PUT', '/configuration/v1/readerDefinitions/createOrReplace', {
      name: reader.name,
      address: connections.get(reader.name)?.address ?? `${reader.name}.sim.local`,
      ...(connections.has(reader.name) ? { connection: connections.get(reader.name)?.connection } : {}),
      groups: [`${prefix}doors`],
      type: reader.family,
      placement: { x: reader.placement.x, y: reader.placement.y, z: reader.placement.z, yaw: 0, pitch: 0, roll: 0, floor: reader.placement.floor },
      facility,
      readerZone: null,
      antennaZones: null,
      labels: ['simulated', 'door'],
    }));
  }
  const listed = await must('list antenna configurations', admin.request('GET', '/configuration/v1/thresholds/antennaConfigurations'));
  const configs = Array.isArray(listed.body) ? (listed.body as Array<{ id: number; name: string }>) : [];
  const shown = await must('list thresholds', admin.request('GET', '/configuration/v1/thresholds/show'));
  const thresholds = Array.isArray(shown.body) ? (shown.body as Array<{ id: number; name: string }>) : [];
  const thresholdIds: number[] = [];
  for (const portal of portals) {
    const mine = readers.filter((r) => r.portal === portal);
    const byReader: Record<string, { antennaConfigurationId: number }> = {};
    for (const { reader } of mine) {
      const name = `${reader.name} ${portal.arrangement}`;
      const body = { name, side: reader.side, readerType: reader.family, readerArrangement: portal.arrangement, ...antennaRefs(reader) };
      const known = configs.find((c) => c.name === name);
      const saved = known
        ? await must(`antenna configuration ${name}`, admin.request('PUT', `/configuration/v1/thresholds/antennaConfiguration/${known.id}`, { ...body, id: known.id }))
        : await must(`antenna configuration ${name}`, admin.request('POST', '/configuration/v1/thresholds/antennaConfiguration', body));
      byReader[reader.name] = { antennaConfigurationId: (saved.body as { id: number }).id };
    }
    const known = thresholds.find((t) => t.name === portal.name);
    const saved = await must(`threshold ${portal.name}`, admin.request('PUT', '/configuration/v1/thresholds/createOrReplace', {
      ...(known ? { id: known.id } : {}), name: portal.name, facility, readerArrangement: portal.arrangement, readers: byReader,
    }));
    thresholdIds.push((saved.body as { id: number }).id);
  }
  const rc = `${prefix}threshold`;
  await must(`reader configuration ${rc}`, admin.request('PUT', '/configuration/v1/readerConfigurations/createOrReplace', {
    // B-to-A select is an agent's (xArray) search mode; over LLRP, Impinj's dual target.
    name: rc, operation: 'THRESHOLD', configuration: { readerMode: 'MAX_THROUGHPUT', session: 1, searchMode: connections.size > 0 ? 'DUAL_TARGET' : 'DUAL_TARGET_WITH_BTOASELECT' },
  }));
  const recipe = `${prefix}threshold`;
  await must(`recipe ${recipe}`, admin.request('PUT', '/configuration/v1/recipes/createOrReplace', { name: recipe, type: 'THRESHOLD', readerConfigurationName: rc, thresholdIds }));
  log.info('demo door created', { portals: portals.map((p) => `${p.name} (${p.arrangement})`), readers: readers.map((r) => r.reader.name), thresholdIds, recipe });
  return { recipe, readers };
}


/**
 * The job's transitions (GET /data/v1/items/show/transitions) against the
 * passages that had ended by `worldEnd`: world seconds become real time by
 * `t0` (real epoch ms at world time 0) and `timeScale`.
 */
export async function scorePortalRun(admin: HttpClient, jobId: string, passages: readonly Passage[], t0: number, timeScale: number, worldEnd: number): Promise<ReturnType<typeof scoreTransitions>> {
  const reported: Array<{ epc: string; portal: string; destination: 'IN' | 'OUT'; at: number }> = [];
  let marker: string | null = null;
  do {
    const page: HttpAnswer = await must('transitions', admin.request('GET', `/data/v1/items/show/transitions?jobId=${enc(jobId)}&pageSize=1000${marker ? `&pageMarker=${enc(marker)}` : ''}`));
    const body = page.body as { transitions: Array<{ epc: string; thresholdName: string; destination: 'IN' | 'OUT'; creationTime: string }>; nextPageMarker: string | null };
    for (const t of body.transitions) reported.push({ epc: t.epc, portal: t.thresholdName, destination: t.destination, at: ((Date.parse(t.creationTime) - t0) * timeScale) / 1000 });
    marker = body.nextPageMarker;
  } while (marker !== null);
  const done = passages.filter((p) => p.at + 12 < worldEnd);
  return scoreTransitions(truthOf(done), reported.filter((r) => r.at < worldEnd - 12), done);
}
