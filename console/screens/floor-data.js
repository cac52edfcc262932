// What the floor map and the editors draw: facilities, the current zone map
// of a facility, reader definitions, each read with the caller's roles (a
// DataReader may read zone maps in use but not reader definitions).
import { get } from '../api.js';

/** Facility names: the facilities query, or for roles that may not list them, those given. */
export async function facilityNames(fallback = []) {
  try {
    return (await get('/configuration/v1/facilities/show')).map((f) => f.name);
  } catch (err) {
    if (err.status !== 403) throw err;
    return fallback.length ? fallback : ['DEFAULT'];
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

export async function readersOf(facility) {
  try {
    return (await get('/configuration/v1/readerDefinitions/show')).filter((r) => !facility || r.facility === facility);
  } catch (err) {
    if (err.status === 403) return [];
    throw err;
  }
}
