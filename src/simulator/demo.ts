// The demo configuration, created over the REST interface as admin:
// facility, zone map (made current), one reader definition per simulated
// reader, reader configurations (INVENTORY, polarized portal INVENTORY,
// LOCATION, DO_NOTHING) and two recipes. Everything by createOrReplace, so
// running it twice is fine. The readers of one run share a group of their
// own, so the run's job takes exactly them, never the readers an earlier run
// left defined (nobody plays those any more: a job waiting for them would
// stay STARTING).
import type { Logger } from '../core/logger';
import { enc, HttpError, type HttpAnswer, type HttpClient } from './http';
import { LOCATION_FAMILIES, type Layout } from './layout';

export interface DemoNames {
  readonly inventoryRecipe: string;
  readonly locationRecipe: string;
  readonly group: string;
  /** The group of this run's readers only. */
  readonly runGroup: string;
}

export const demoNames = (prefix: string, runId: string): DemoNames => ({
  inventoryRecipe: `${prefix}inventory`,
  locationRecipe: `${prefix}location`,
  group: `${prefix}readers`,
  runGroup: `${prefix}run-${runId}`,
});

/**
 * The LOCATION recipe's times, shortened with --time-scale like the world's
 * movements, so a scenario keeps its proportions: a tag that leaves is ABSENT
 * after the same share of the story (30 world seconds), and the location
 * average spans the same share of a stay (10 world seconds). Whole seconds,
 * within the recipe rules (expiry above the 1 s reporting interval).
 */
export function locationTiming(timeScale: number): { computeWindow: number; tagExpiryDuration: string; expiryMs: number } {
  const expiry = Math.max(2, Math.round(30 / timeScale));
  return { computeWindow: Math.max(1, Math.round(10 / timeScale)), tagExpiryDuration: `PT${expiry}S`, expiryMs: expiry * 1000 };
}

export async function must(what: string, p: Promise<HttpAnswer>, ok: readonly number[] = [200, 201, 204]): Promise<HttpAnswer> {
  const a = await p;
  if (!ok.includes(a.status)) throw new HttpError(what, a);
  return a;
}

/** How tagtrail reaches each reader: absent = an agent (the agent API); else its address and `connection`. */
export type DemoConnections = ReadonlyMap<string, { readonly address: string; readonly connection: Record<string, unknown> }>;

export interface DemoOptions {
  /** --time-scale (default 1): shortens the LOCATION recipe's times with the world's. */
  readonly timeScale?: number;
  /** Names the run's reader group (default: the current time). */
  readonly runId?: string;
  /** --protocol llrp: how tagtrail reaches each reader (absent: an agent). */
  readonly connections?: DemoConnections;
}

export async function createDemoConfiguration(admin: HttpClient, layout: Layout, prefix: string, log: Logger, o: DemoOptions = {}): Promise<DemoNames> {
  const names = demoNames(prefix, o.runId ?? Date.now().toString(36));
  const connections = o.connections;
  const f = layout.facility;
  const shown = await admin.request('GET', `/configuration/v1/facilities/show/${enc(f)}`);
  if (shown.status === 404) await must(`create facility ${f}`, admin.request('POST', '/configuration/v1/facilities/create', { name: f }), [200, 409]);
  else if (shown.status !== 200) throw new HttpError(`show facility ${f}`, shown);

  await must(`zone map ${layout.zoneMapName}`, admin.request('PUT', '/configuration/v1/zoneMaps/createOrReplace', {
    name: layout.zoneMapName,
    facility: f,
    zones: layout.zones.map((z) => ({ name: z.name, floor: z.floor, points: z.points.map((p) => ({ x: p.x, y: p.y, z: 0 })) })),
  }));
  await must(`select current zone map ${layout.zoneMapName}`, admin.request('POST', `/control/v1/currentZoneMap/select/${enc(layout.zoneMapName)}`));

  for (const r of layout.readers) {
    await must(`reader definition ${r.name}`, admin.request('PUT', '/configuration/v1/readerDefinitions/createOrReplace', {
      name: r.name,
      address: connections?.get(r.name)?.address ?? `${r.name}.sim.local`,
      ...(connections?.has(r.name) ? { connection: connections.get(r.name)?.connection } : {}),
      groups: [names.group, r.family.toLowerCase(), names.runGroup],
      type: r.family,
      placement: { x: r.placement.x, y: r.placement.y, z: r.placement.z, yaw: 0, pitch: 0, roll: 0, floor: r.placement.floor },
      facility: f,
      readerZone: null,
      antennaZones: null,
      labels: ['simulated'],
    }));
  }

  const configs = [
    { name: `${prefix}inventory`, operation: 'INVENTORY', configuration: { readerMode: 'MAX_THROUGHPUT', session: 2, searchMode: 'DUAL_TARGET', transmitPowerInDbm: 30 } },
    { name: `${prefix}portal`, operation: 'INVENTORY', configuration: { readerMode: 'MAX_THROUGHPUT', session: 2, searchMode: 'SINGLE_TARGET', polarization: true, antennas: [1, 2] } },
    { name: `${prefix}location`, operation: 'LOCATION', configuration: { readerMode: 'MAX_MILLER', session: 2 } },
    { name: `${prefix}off`, operation: 'DO_NOTHING' },
  ];
  for (const c of configs) await must(`reader configuration ${c.name}`, admin.request('PUT', '/configuration/v1/readerConfigurations/createOrReplace', c));

  const timing = locationTiming(o.timeScale ?? 1);
  // Polarized portals need an agent on the reader: readers tagtrail connects to run the plain inventory.
  const portals = Object.fromEntries(layout.readers.filter((r) => r.family === 'XPORTAL' && !connections?.has(r.name)).map((r) => [r.name, `${prefix}portal`]));
  const nonLocation = Object.fromEntries(layout.readers.filter((r) => !LOCATION_FAMILIES.has(r.family)).map((r) => [r.name, `${prefix}off`]));
  await must(`recipe ${names.inventoryRecipe}`, admin.request('PUT', '/configuration/v1/recipes/createOrReplace', {
    name: names.inventoryRecipe, type: 'INVENTORY', readerConfigurationName: `${prefix}inventory`, readerConfigurations: portals, reportingInterval: 2,
  }));
  await must(`recipe ${names.locationRecipe}`, admin.request('PUT', '/configuration/v1/recipes/createOrReplace', {
    name: names.locationRecipe, type: 'LOCATION', readerConfigurationName: `${prefix}location`, readerConfigurations: nonLocation, reportingInterval: 1, minimumMovementInMeters: 1,
    computeWindow: timing.computeWindow, tagExpiryDuration: timing.tagExpiryDuration,
  }));
  log.info('demo configuration created', { facility: f, zoneMap: layout.zoneMapName, readers: layout.readers.map((r) => r.name), recipes: [names.inventoryRecipe, names.locationRecipe] });
  return names;
}

/** Starts a job now (startDelay PT0S), on the readers of `readerGroups` if given, and answers its id. */
export async function startJob(admin: HttpClient, recipeName: string, facility: string, name: string, readerGroups?: readonly string[]): Promise<string> {
  const a = await must(`start job with recipe ${recipeName}`, admin.request('POST', '/control/v1/jobs/start', { name, recipeName, facility, startDelay: 'PT0S', ...(readerGroups ? { readerGroups } : {}) }));
  const id = typeof a.body === 'object' && a.body !== null ? (a.body as { id?: unknown }).id : undefined;
  if (typeof id !== 'string') throw new Error(`start job: the answer has no id: ${JSON.stringify(a.body)}`);
  return id;
}

/**
 * Stops a job at once (not gracefully): the simulated readers have already
 * stopped, so nobody would learn a graceful stop at a check-in, and the
 * readers are free for the next run right away.
 */
export async function stopJob(admin: HttpClient, jobId: string): Promise<void> {
  await must(`stop job ${jobId}`, admin.request('POST', `/control/v1/jobs/stop/${enc(jobId)}?graceful=false`), [200, 204, 409]);
}

/** The job's status, or null when it cannot be read. */
export async function jobStatus(admin: HttpClient, jobId: string): Promise<string | null> {
  const a = await admin.request('GET', `/control/v1/jobs/show/${enc(jobId)}`);
  const status = a.status === 200 && typeof a.body === 'object' && a.body !== null ? (a.body as { status?: unknown }).status : undefined;
  return typeof status === 'string' ? status : null;
}

/** Issues (replaces) the agent secret of a reader. */
export async function issueSecret(admin: HttpClient, reader: string): Promise<string> {
  const a = await admin.request('PUT', `/agent/v1/readers/${enc(reader)}/secret`);
  if (a.status === 404) throw new HttpError(`agent secret of ${reader} (is there a reader definition "${reader}"? --demo creates it)`, a);
  if (a.status !== 200) throw new HttpError(`agent secret of ${reader}`, a);
  const secret = typeof a.body === 'object' && a.body !== null ? (a.body as { secret?: unknown }).secret : undefined;
  if (typeof secret !== 'string') throw new Error(`agent secret of ${reader}: the answer has no secret`);
  return secret;
}
