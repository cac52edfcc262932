import { expect } from 'chai';
import * as E from 'fp-ts/Either';
import type { ZoneMapInput } from '../../src/zonemaps/codec';
import { validateZoneMapWrite, zoneMapsSlice, ZONE_MAP_READ_ROLES, ZONE_MAP_WRITE_ROLES } from '../../src/zonemaps/slice';
import { CURRENT_ZONE_MAP_READ_ROLES, CURRENT_ZONE_MAP_WRITE_ROLES } from '../../src/zonemaps/current-routes';
import { RouteTable, type RouteSpec } from '../../src/core/http/routes';
import type { AppDeps } from '../../src/slice';

const body = (facility?: string): ZoneMapInput => ({
  name: 'live',
  ...(facility === undefined ? {} : { facility }),
  zones: [{ name: 'A', points: [{ x: 0, y: 0 }, { x: 1, y: 1 }] }],
});
const facilities = ['DEFAULT', 'STORE'];

describe('zonemaps/slice validateZoneMapWrite', () => {
  it('given a zone map that is not current, then it may be stored in any facility', () => {
    const result = validateZoneMapWrite(body('STORE'), { facilityNames: facilities, current: new Map([['DEFAULT', 'other']]) });
    expect(E.isRight(result) && result.right.facility).to.equal('STORE');
  });

  it('given the current zone map of a facility, then replacing it within that facility is fine', () => {
    const result = validateZoneMapWrite(body('DEFAULT'), { facilityNames: facilities, current: new Map([['DEFAULT', 'live']]) });
    expect(E.isRight(result)).to.equal(true);
  });

  it('given the current zone map of a facility, then moving it to another facility is 409', () => {
    const result = validateZoneMapWrite(body('STORE'), { facilityNames: facilities, current: new Map([['DEFAULT', 'live']]) });
    expect(E.isLeft(result) && result.left.status).to.equal(409);
  });

  it('reports a 400 of the body before anything about the current zone map', () => {
    const result = validateZoneMapWrite(body(), { facilityNames: facilities, current: new Map([['DEFAULT', 'live']]) });
    expect(E.isLeft(result) && result.left.status).to.equal(400);
    expect(E.isLeft(result) && result.left.errors[0]?.path).to.equal('body.facility');
  });
});

describe('zonemaps/slice routes', () => {
  const table = new RouteTable(() => async (_ctx, next) => next());
  zoneMapsSlice.register(table, { facilityUsage: [] } as unknown as AppDeps);
  const roles = (method: string, path: string): RouteSpec['roles'] | undefined =>
    table.routes.find((r) => r.method === method && r.path === path)?.roles;

  it('registers the five zone map routes with the roles of the interface', () => {
    expect(ZONE_MAP_WRITE_ROLES).to.deep.equal(['ConfigManager']);
    expect(ZONE_MAP_READ_ROLES).to.deep.equal(['ConfigManager', 'JobRunner']);
    expect(roles('post', '/configuration/v1/zoneMaps/create')).to.equal(ZONE_MAP_WRITE_ROLES);
    expect(roles('put', '/configuration/v1/zoneMaps/createOrReplace')).to.equal(ZONE_MAP_WRITE_ROLES);
    expect(roles('delete', '/configuration/v1/zoneMaps/destroy/:zoneMapName')).to.equal(ZONE_MAP_WRITE_ROLES);
    expect(roles('get', '/configuration/v1/zoneMaps/show/:zoneMapName')).to.equal(ZONE_MAP_READ_ROLES);
    expect(roles('get', '/configuration/v1/zoneMaps/show')).to.equal(ZONE_MAP_READ_ROLES);
  });

  it('registers the current zone map routes on the paths existing clients call', () => {
    expect(roles('post', '/control/v1/currentZoneMap/select/:zoneMapName')).to.equal(CURRENT_ZONE_MAP_WRITE_ROLES);
    expect(roles('get', '/control/v1/currentZoneMap/show/:facilityName')).to.equal(CURRENT_ZONE_MAP_READ_ROLES);
    expect(roles('delete', '/control/v1/currentZoneMap/clear/:facilityName')).to.equal(CURRENT_ZONE_MAP_WRITE_ROLES);
    expect(table.routes).to.have.length(8);
  });

  it('documents the body of create and createOrReplace', () => {
    const create = table.routes.find((r) => r.path === '/configuration/v1/zoneMaps/create');
    expect(create?.body).to.include({ type: 'object' });
    expect(create?.body?.['required']).to.deep.equal(['name', 'zones']);
  });
});
