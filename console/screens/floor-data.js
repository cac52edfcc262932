// What the floor map and the editors draw: facilities, the current zone map
// of a facility, reader definitions, thresholds, each read with the caller's roles (a
// DataReader may read zone maps in use but not reader definitions).
import { get } from '../api.js';

/** Facility names: the facilities query, or for a DataReader (who may not list them) the facilities of the items. */
export async function facilityNames() {
  try {
    return (await get('/configuration/v1/facilities/show')).map((f) => f.name);
  } catch (err) {
    if (err.status !== 403) throw err;
    const items = await get('/data/v1/items/show', { pageSize: 1000 }).catch(() => ({ items: [] }));
    const names = [...new Set(items.items.map((i) => i.facility).filter(Boolean))].sort();
    return names.length ? names : ['DEFAULT'];
  }
}

export async function currentZoneMap(facility) {
  try {
    return await get(`/control/v1/currentZoneMap/show/${encodeURIComponent(facility)}`);
  } catch (err) {
    if (err.status === 404 || err.status === 403) return null;
    throw err;
  }
}

/** What `load` answers, or `[]` when the user's roles may not read it (403). */
async function noneIfForbidden(load) {
  try {
    return await load();
  } catch (err) {
    if (err.status === 403) return [];
    throw err;
  }
}

export const readersOf = (facility) => noneIfForbidden(async () => (await get('/configuration/v1/readerDefinitions/show')).filter((r) => !facility || r.facility === facility));

/** The thresholds (doors) of a facility. */
export const thresholdsOf = (facility) => noneIfForbidden(async () => (await get('/configuration/v1/thresholds/show')).filter((t) => !facility || t.facility === facility));
