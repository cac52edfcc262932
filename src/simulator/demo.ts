// The demo configuration, created over the REST interface as admin:
// facility, zone map (made current), one reader definition per simulated
// reader, reader configurations (INVENTORY, polarized portal INVENTORY,
// LOCATION, DO_NOTHING) and two recipes. Everything by createOrReplace, so
// running it twice is fine.
import type { Logger } from '../core/logger';
import { enc, HttpError, type HttpAnswer, type HttpClient } from './http';
import { LOCATION_FAMILIES, type Layout } from './layout';

export interface DemoNames {
  readonly inventoryRecipe: string;
  readonly locationRecipe: string;
  readonly group: string;
}

export const demoNames = (prefix: string): DemoNames => ({ inventoryRecipe: `${prefix}inventory`, locationRecipe: `${prefix}location`, group: `${prefix}readers` });

async function must(what: string, p: Promise<HttpAnswer>, ok: readonly number[] = [200, 201, 204]): Promise<HttpAnswer> {
  const a = await p;
  if (!ok.includes(a.status)) throw new HttpError(what, a);
  return a;
}

/** How tagtrail reaches each reader: absent = an agent (the agent API); else its address and `connection`. */
export type DemoConnections = ReadonlyMap<string, { readonly address: string; readonly connection: Record<string, unknown> }>;

export async function createDemoConfiguration(admin: HttpClient, layout: Layout, prefix: string, log: Logger, connections?: DemoConnections): Promise<DemoNames> {
  const names = demoNames(prefix);
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
      groups: [names.group, r.family.toLowerCase()],
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

  // Polarized portals need an agent on the reader: readers tagtrail connects to run the plain inventory.
  const portals = Object.fromEntries(layout.readers.filter((r) => r.family === 'XPORTAL' && !connections?.has(r.name)).map((r) => [r.name, `${prefix}portal`]));
  const nonLocation = Object.fromEntries(layout.readers.filter((r) => !LOCATION_FAMILIES.has(r.family)).map((r) => [r.name, `${prefix}off`]));
  await must(`recipe ${names.inventoryRecipe}`, admin.request('PUT', '/configuration/v1/recipes/createOrReplace', {
    name: names.inventoryRecipe, type: 'INVENTORY', readerConfigurationName: `${prefix}inventory`, readerConfigurations: portals, reportingInterval: 2,
  }));
  await must(`recipe ${names.locationRecipe}`, admin.request('PUT', '/configuration/v1/recipes/createOrReplace', {
    name: names.locationRecipe, type: 'LOCATION', readerConfigurationName: `${prefix}location`, readerConfigurations: nonLocation, reportingInterval: 1, computeWindow: 10, minimumMovementInMeters: 1, tagExpiryDuration: 'PT30S',
  }));
  log.info('demo configuration created', { facility: f, zoneMap: layout.zoneMapName, readers: layout.readers.map((r) => r.name), recipes: [names.inventoryRecipe, names.locationRecipe] });
  return names;
}

/** Starts a job now (startDelay PT0S) and answers its id. */
export async function startJob(admin: HttpClient, recipeName: string, facility: string, name: string): Promise<string> {
  const a = await must(`start job with recipe ${recipeName}`, admin.request('POST', '/control/v1/jobs/start', { name, recipeName, facility, startDelay: 'PT0S' }));
  const id = typeof a.body === 'object' && a.body !== null ? (a.body as { id?: unknown }).id : undefined;
  if (typeof id !== 'string') throw new Error(`start job: the answer has no id: ${JSON.stringify(a.body)}`);
  return id;
}

export async function stopJob(admin: HttpClient, jobId: string): Promise<void> {
  await must(`stop job ${jobId}`, admin.request('POST', `/control/v1/jobs/stop/${enc(jobId)}?graceful=true`), [200, 204, 409]);
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
