// The contract check every test answer goes through (test/support/contract.ts)
// catches what it is there for: an undocumented status, a body off its schema.
import { expect } from 'chai';
import { checkContract, ContractViolation } from '../support/contract';
import { routeTableSpecs } from '../support/routes';

const refused = async (...args: Parameters<typeof checkContract>): Promise<string> => {
  try {
    await checkContract(...args);
  } catch (err) {
    expect(err).to.be.instanceOf(ContractViolation);
    return (err as Error).message;
  }
  throw new Error(`accepted: ${JSON.stringify(args)}`);
};
const JSON_TYPE = 'application/json; charset=utf-8';

describe('contract check of HTTP answers against the OpenAPI document', function () {
  this.timeout(30_000);

  it('given answers as documented, then they pass (schema, error body, implicit statuses, unrouted 404)', async () => {
    await checkContract('GET', '/configuration/v1/facilities/show/DEFAULT', 200, { name: 'DEFAULT' }, JSON_TYPE);
    await checkContract('GET', '/configuration/v1/facilities/show/NOPE', 404, { message: 'not found', errors: [] }, JSON_TYPE);
    await checkContract('GET', '/configuration/v1/facilities/show?x=1', 401, { message: 'no credentials', errors: [] }, JSON_TYPE);
    await checkContract('DELETE', '/configuration/v1/thresholds/7', 204, undefined, null);
    await checkContract('GET', '/no/such/route', 404, { message: 'Not found', errors: [] }, JSON_TYPE);
  });

  it('given a body off its schema, then it names the route and the field', async () => {
    const message = await refused('GET', '/configuration/v1/facilities/show', 200, [{ name: 'DEFAULT', extra: 1 }], JSON_TYPE);
    expect(message).to.contain('GET /configuration/v1/facilities/show').and.to.contain('additional properties');
    expect(await refused('GET', '/configuration/v1/readerDefinitions/show/r', 200, { name: 'r' }, JSON_TYPE)).to.contain('agentIdentifier');
    expect(await refused('GET', '/health/v1/readers/r', 200, { readerName: 'r', state: 'IDLE' }, JSON_TYPE)).to.contain('lastCheckin');
    expect(await refused('PUT', '/data/v1/items/queues', 200, { serverUrl: 'amqp://h:5672', queue: 7 }, JSON_TYPE)).to.contain('/queue must be string');
  });

  it('given a status the route does not document, or an error without the error body, then it is refused', async () => {
    expect(await refused('GET', '/configuration/v1/facilities/show', 409, { message: 'x', errors: [] }, JSON_TYPE)).to.contain('status not documented');
    expect(await refused('GET', '/configuration/v1/facilities/show/X', 404, { error: 'x' }, JSON_TYPE)).to.contain('message');
    expect(await refused('GET', '/no/such/route', 200, {}, JSON_TYPE)).to.contain('no documented route');
  });

  it('given the REST threshold paths, then the route found is the one the router picks (show before /{id})', async () => {
    await checkContract('GET', '/configuration/v1/thresholds/show', 200, [], JSON_TYPE);
    expect(await refused('GET', '/configuration/v1/thresholds/antennaConfigurations', 200, [{ id: 1 }], JSON_TYPE)).to.contain('antennaConfigurations');
  });

  it('given every route, then each one answering a JSON body on success documents its schema (so the check above applies to it)', () => {
    const missing = routeTableSpecs().flatMap((r) =>
      Object.entries(r.responses)
        .filter(([status]) => Number(status) >= 200 && Number(status) < 300 && Number(status) !== 204)
        .filter(([status, response]) => !(r.produces !== undefined && status === '200') && (typeof response === 'string' || response.schema === undefined))
        .map(([status]) => `${r.method.toUpperCase()} ${r.path} ${status}`),
    );
    expect(missing, 'routes answering JSON without a documented schema').to.deep.equal([]);
  });
});
